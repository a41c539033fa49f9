"""The medphys grader: a calculation by value, unit and band; a check by verdict (seed 000 "Grading")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from physbench.grading.calculation import grade_calculation
from physbench.grading.checks import CHECK_KINDS, grade_check
from physbench.suites.medphys.reference import reference_of

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade


def grade_item(item: "Item", text: str, finish_reason: str | None = None) -> "Grade":
    """Grade a response to a medphys item by its kind, with the item's reference and band."""
    ref = reference_of(item)
    if item.kind == "calculation":
        return grade_calculation(text, ref, ref.band, finish_reason=finish_reason)
    if item.kind in CHECK_KINDS:
        return grade_check(text, ref, ref.band, item.kind, finish_reason=finish_reason)
    raise ValueError(f"no grader for item kind {item.kind!r}")
