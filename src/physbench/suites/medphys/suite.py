"""The medphys suite object that the runner finds by name (entry point `physbench.suites`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from physbench.suites.medphys.grade import grade_item

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.models.base import Model
    from physbench.protocols.base import Answer
    from physbench.report.registry import SuiteReport


def stratified(items: list["Item"], limit: int) -> list["Item"]:
    """The first `limit` items taken in turn from each generator and level, so that a short run
    covers the whole suite rather than the first cell."""
    cells: dict[str, list["Item"]] = {}
    for item in items:
        cells.setdefault(str(item.meta.get("group")), []).append(item)
    out: list["Item"] = []
    queues = list(cells.values())
    depth = 0
    while len(out) < limit and any(depth < len(q) for q in queues):
        out += [q[depth] for q in queues if depth < len(q)][: limit - len(out)]
        depth += 1
    return out


class MedphysSuite:
    """MedPhysBench: items by split, grading by the core grader, and the suite's scripted models."""

    name = "medphys"

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              **options: Any) -> Iterable["Item"]:
        from physbench.suites.medphys.splits import split_items

        items = split_items(split, key=key, **options)
        return items if limit is None else stratified(items, limit)

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        return grade_item(item, answer.text, answer.finish_reason)

    @property
    def report(self) -> "SuiteReport":
        """The MedPhysBench analyses, sections, figures and viewer fields (imported when a report asks)."""
        from physbench.suites.medphys.report import REPORT

        return REPORT

    def oracle(self, item: "Item") -> str | None:
        """The reply of a perfect model: the reference answer in the format the prompts ask for."""
        from physbench.suites.medphys.scripted import oracle_answer

        return oracle_answer(item)

    def make_model(self, spec: str) -> "Model | None":
        """`mode:NAME` (or `mode:GEN/NAME`): the named error mode where it applies; `nocalc`: the
        no-calculation checker."""
        if spec.startswith("mode:"):
            from physbench.suites.medphys.scripted import ModeModel

            return ModeModel(spec)
        if spec == "nocalc":
            from physbench.suites.medphys.nocalc import NocalcModel

            return NocalcModel()
        return None


SUITE = MedphysSuite()
