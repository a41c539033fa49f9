"""The paper's formula audit (003_* Table 11) as data, for the audit-group breakdown (Tables 12-13).

Groups: 'replaced' (4 calculators whose formula a current guideline replaced), 'other_concern'
(12 with a version, use or coefficient concern) and 'no_issue' (the other 39).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

GROUPS = ("replaced", "other_concern", "no_issue")


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The audit file: 'concerns' (16 entries) and 'no_issue_uses' (counts by intended use)."""
    path = resources.files("physbench.suites.clincalc") / "data" / "formula_audit.json"
    return json.loads(path.read_text("utf-8"))


def concerns() -> dict[int, dict[str, Any]]:
    """Calculator id -> its Table 11 entry, for the 16 with a concern."""
    return {int(c["calculator_id"]): c for c in table()["concerns"]}


def audit_group(calc_id: int) -> str:
    """'replaced', 'other_concern' or 'no_issue'."""
    entry = concerns().get(int(calc_id))
    return entry["group"] if entry else "no_issue"


def calculators_in(group: str) -> list[int]:
    """The calculator ids of one group (no_issue: every library calculator without a concern)."""
    from physbench.suites.clincalc.calculators import CALCULATORS

    if group not in GROUPS:
        raise ValueError(f"unknown audit group {group!r}; known: {', '.join(GROUPS)}")
    return [i for i in CALCULATORS if audit_group(i) == group]


def audit_flag(calc_id: int) -> str:
    """A short label for listings: the concern type, or '' when none was identified."""
    entry = concerns().get(int(calc_id))
    return entry["type"] if entry else ""
