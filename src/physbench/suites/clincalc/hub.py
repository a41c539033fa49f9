"""`--data hub`: the test split of nsk7153/MedCalc-Bench-Verified from the Hugging Face hub.

The revision is pinned (the one the seed paper's runs read, 003_* Appendix A.1) and, with the
commit it resolves to, goes into the dataset's manifest. Without the huggingface_hub package or
without a network the caller gets one line saying so, never a traceback.
"""

from __future__ import annotations

import os
from typing import Any

from physbench.core.errors import UserError

HUB_REPO = "nsk7153/MedCalc-Bench-Verified"
HUB_REVISION = "5488179"  # 003_* Appendix A.1: "every run read the Hugging Face parquet at revision 5488179"


def _hub_module() -> Any:
    try:
        import huggingface_hub
    except ImportError:
        raise UserError("--data hub needs the huggingface_hub package (pip install 'physbench[hub]'); "
                        "or pass --data FILE") from None
    return huggingface_hub


def _pick(files: list[str], split: str) -> str:
    candidates = [f for f in files if split in f.lower().rsplit("/", 1)[-1] and f.lower().endswith((".parquet", ".csv"))]
    candidates.sort(key=lambda f: (not f.lower().endswith(".parquet"), len(f)))
    if not candidates:
        raise UserError(f"--data hub: {HUB_REPO} has no {split} parquet or csv file at this revision")
    return candidates[0]


def _unreachable(exc: BaseException) -> bool:
    """Whether a hub failure means no network (a refused or timed-out connection, an offline cache miss)."""
    names = {t.__name__ for t in type(exc).__mro__}
    return isinstance(exc, (OSError, TimeoutError)) or bool(
        names & {"ConnectionError", "ConnectTimeout", "ReadTimeout", "Timeout", "LocalEntryNotFoundError",
                 "OfflineModeIsEnabled", "ConnectError"})


def fetch_hub(revision: str = HUB_REVISION, split: str = "test") -> tuple[str, dict[str, str]]:
    """(the local file of the split at `revision`, where it came from); UserError with one line on any
    failure. dataset.load reads the file (this module reads no rows, so the two import nothing circular)."""
    hub = _hub_module()
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes"):
        raise UserError("--data hub: HF_HUB_OFFLINE is set, so the hub cannot be reached; pass --data FILE")
    try:
        api = hub.HfApi()
        info = api.dataset_info(HUB_REPO, revision=revision, files_metadata=False)
        name = _pick([s.rfilename for s in (info.siblings or [])], split)
        local = hub.hf_hub_download(HUB_REPO, name, repo_type="dataset", revision=info.sha or revision)
    except UserError:
        raise
    except Exception as exc:  # network, authentication, unknown revision: all one line
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        if _unreachable(exc):
            raise UserError(f"--data hub: the Hugging Face hub cannot be reached (no network?) to load {HUB_REPO} "
                            f"at revision {revision} ({type(exc).__name__}); pass --data FILE") from None
        raise UserError(f"--data hub: cannot load {HUB_REPO} at revision {revision} from the Hugging Face hub "
                        f"({type(exc).__name__}: {first}); with no network pass --data FILE") from None
    return str(local), {"repo": HUB_REPO, "revision": revision, "commit": str(info.sha or ""), "file": name}
