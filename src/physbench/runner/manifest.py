"""The run manifest: what was run, with what, from which code, so a result can be traced and resumed."""

from __future__ import annotations

import json
import subprocess
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

# the fields that define what a run measures: a resume must match them all
IDENTITY_FIELDS = ("suite", "split", "protocol", "model_spec", "base_url", "sampling", "repeats", "item_set_hash")


def git_revision() -> str | None:
    """The commit of the source tree physbench runs from, if it is a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    rev = out.stdout.strip()
    return rev if out.returncode == 0 and len(rev) >= 7 else None


def package_version() -> str:
    from physbench import __version__

    return __version__


@dataclass(frozen=True)
class Manifest:
    """One run: the manifest row of the store (see runner/store.py for the schema)."""

    suite: str
    split: str
    protocol: str
    model_spec: str
    sampling: dict[str, Any]
    repeats: int
    n_items: int
    item_set_hash: str
    model_info: dict[str, Any] = field(default_factory=dict)
    base_url: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    package_version: str = field(default_factory=package_version)
    git_revision: str | None = None
    started_at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    def to_row(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id, "suite": self.suite, "split": self.split, "protocol": self.protocol,
            "model_spec": self.model_spec, "model_info_json": json.dumps(self.model_info, sort_keys=True),
            "base_url": self.base_url, "sampling_json": json.dumps(self.sampling, sort_keys=True),
            "repeats": self.repeats, "n_items": self.n_items, "item_set_hash": self.item_set_hash,
            "package_version": self.package_version, "git_revision": self.git_revision,
            "started_at": self.started_at, "options_json": json.dumps(self.options, sort_keys=True),
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "Manifest":
        return cls(
            run_id=row["run_id"], suite=row["suite"], split=row["split"], protocol=row["protocol"],
            model_spec=row["model_spec"], model_info=json.loads(row["model_info_json"]),
            base_url=row["base_url"], sampling=json.loads(row["sampling_json"]), repeats=row["repeats"],
            n_items=row["n_items"], item_set_hash=row["item_set_hash"], package_version=row["package_version"],
            git_revision=row["git_revision"], started_at=row["started_at"], options=json.loads(row["options_json"]),
        )

    def mismatches(self, other: "Manifest") -> list[str]:
        """The identity fields on which `other` differs from this manifest, as 'field: stored vs new'."""
        out = []
        for name in IDENTITY_FIELDS:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine == theirs:
                continue
            if name == "item_set_hash":
                out.append("the items differ (another --limit, --split, --key-file, --benchmark-version or --option?)")
            else:
                out.append(f"{name}: {mine!r} stored, {theirs!r} now")
        return out
