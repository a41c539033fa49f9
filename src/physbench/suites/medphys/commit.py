"""The SHA-256 commitment to the test split (seed 000, "Canary, commitments and test access").

It fixes the test items' parameters (sorted item ids and params hashes) and the code that words
and grades them (a hash of the generator sources), without revealing the key or the items.
"""

from __future__ import annotations

from pathlib import Path

from physbench.core.hashing import item_set_hash, sha256_hex
from physbench.core.items import Item

# modules of the medphys package that do not decide any item's content or reference
NOT_ITEM_CODE = {"cli.py", "audit.py", "nocalc.py", "commit.py", "scripted.py", "suite.py", "build.py",
                 "__init__.py"}


def code_version_hash() -> str:
    """SHA-256 over the sources (path and text) of the modules that build medphys items."""
    root = Path(__file__).parent
    parts = []
    for path in sorted(root.glob("*.py")):
        if path.name not in NOT_ITEM_CODE and not path.name.startswith("cli_"):
            parts.append(f"{path.name}\n{path.read_text(encoding='utf-8')}")
    return sha256_hex("\n\0\n".join(parts))


def commitment(items: list[Item]) -> str:
    """SHA-256 of the item-set hash of (id, params hash) pairs and the code version hash."""
    return sha256_hex(item_set_hash((i.id, i.params_hash) for i in items) + "\n" + code_version_hash())
