"""Where users already work: Inspect AI tasks and verifiers environments over physbench's own items
and graders (each behind an optional extra)."""
