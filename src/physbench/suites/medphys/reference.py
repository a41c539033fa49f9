"""What a right answer to a medphys item is: the suite's own reference, stored as the item's JSON.

A calculation: the value and its unit ("" for a pure number) and the relative tolerance band
(seed 000 Table 5). A check adds whether the colleague's work holds a planted error, the
number of its first wrong step (worksheets) and the result as the colleague showed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from physbench.core.items import Item


@dataclass(frozen=True, slots=True)
class MedphysReference:
    """The reference of one medphys item; `band` is a fraction (0.005 = 0.5%)."""

    value: float | None
    unit: str | None
    band: float
    planted: bool | None = None
    first_error_step: int | None = None
    shown_value: float | None = None  # the colleague's result as shown, checks only

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "unit": self.unit, "band": self.band}
        if self.planted is not None:
            out["planted"] = self.planted
            out["first_error_step"] = self.first_error_step
            out["shown_value"] = self.shown_value
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "MedphysReference":
        return cls(value=d.get("value"), unit=d.get("unit"), band=float(d["band"]), planted=d.get("planted"),
                   first_error_step=d.get("first_error_step"), shown_value=d.get("shown_value"))


def reference_of(item: "Item") -> MedphysReference:
    """The medphys reference an item carries."""
    return MedphysReference.from_dict(item.reference)
