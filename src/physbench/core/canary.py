"""The project's canary string: documents that contain it must be kept out of training corpora."""

CANARY = "PHYSBENCH-CANARY-3d6c0b52-91e4-4f7a-b8d2-5ae07c1f9e64-do-not-train"
