"""`gold-solve-library` (also `gold-library`): the Gold-Solve library arm (003_* Table 1): the validated
library on the row's gold variables, no model call. Option `subset=FILE`, or the items' own
`--library-subset`, restricts it to some calculator ids (the paper's 22-calculator library);
outside the subset it abstains."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from physbench.protocols.base import Answer, Ask

if TYPE_CHECKING:
    from physbench.core.items import Item


class GoldLibrary:
    name = "gold-solve-library"
    no_model = True

    def __init__(self, subset: str | None = None) -> None:
        from physbench.suites.clincalc.library import load_library_subset

        self.subset = load_library_subset(subset) if subset else None
        if subset:
            self.name = f"gold-solve-library:subset={subset}"

    async def run(self, item: "Item", ask: Ask) -> Answer:
        from physbench.suites.clincalc.item_data import item_formulas, item_library
        from physbench.suites.clincalc.dataset import parse_entities
        from physbench.suites.clincalc.library import library_answer
        from physbench.suites.clincalc.scoring import plain_answer

        entities = parse_entities(str(item.reference["entities"]), item.id)
        subset = self.subset if self.subset is not None else item_library(item)
        value, why = library_answer(int(item.reference["calc_id"]), entities, subset, item_formulas(item))
        detail: dict[str, Any] = {"route": "library"}
        if value is None:
            return Answer("", "stop", outcome="abstained", detail={**detail, "why": why})
        return Answer("", "stop", value=plain_answer(value), detail=detail)
