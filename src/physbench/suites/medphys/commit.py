"""The SHA-256 commitment to the test split (seed 000, "Canary, commitments and test access").

The commitment is the paper's: SHA-256 over the sorted (item id, params hash) pairs, which fixes the
test items' parameters without revealing the key or the items. Beside it (never inside it) stands a
hash of the code that words and grades the items, as the paper publishes its package hashes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from physbench.core.hashing import item_set_hash, sha256_hex
from physbench.core.items import Item
from physbench.suites.medphys.versions import Version, get_version

# modules of the medphys package that do not decide any item's content or reference
NOT_ITEM_CODE = {"cli.py", "audit.py", "nocalc.py", "commit.py", "scripted.py", "suite.py", "build.py",
                 "release.py", "__init__.py"}
METHOD = "SHA-256 over the sorted lines 'item id<TAB>params hash', joined by newlines"


def code_version_hash() -> str:
    """SHA-256 over the sources (path and text) of the modules that build medphys items."""
    root = Path(__file__).parent
    parts = []
    for path in sorted(root.glob("*.py")):
        if path.name not in NOT_ITEM_CODE and not path.name.startswith("cli_"):
            parts.append(f"{path.name}\n{path.read_text(encoding='utf-8')}")
    return sha256_hex("\n\0\n".join(parts))


def commitment(items: list[Item]) -> str:
    """SHA-256 over the sorted (item id, params hash) pairs of `items` (the paper's commitment)."""
    return item_set_hash((i.id, i.params_hash) for i in items)


def commitments(items: list[Item], version: Version | str | None = None) -> dict[str, Any]:
    """What `commitments.json` records: the test-split commitment and, beside it, the code hash."""
    from physbench import __version__

    v = get_version(version)
    return {"benchmark_version": v.label, "n_items": len(items), "commitment": commitment(items),
            "commitment_method": METHOD, "code_hash": code_version_hash(),
            "code_hash_method": "SHA-256 over the medphys modules that word, solve and plant the items",
            "physbench_version": __version__}
