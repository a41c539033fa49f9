"""The medphys suite object that the runner finds by name (entry point `physbench.suites`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.models.base import Model
    from physbench.protocols.base import Answer
    from physbench.report.registry import SuiteReport


class MedphysSuite:
    """MedPhysBench: items by split, grading by the core grader, and the suite's scripted models."""

    name = "medphys"
    item_options = ("benchmark_version",)  # `--option benchmark_version=1.0`

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              **options: Any) -> Iterable["Item"]:
        """The items of `split`: dev, test, test-half or targeted:...; `benchmark_version` ('1.0' or
        '1.1', the default) is recorded in every item's meta. Options of other suites are ignored.
        `limit` picks that many items stratified by kind and cell, and builds only those."""
        from physbench.suites.medphys.splits import split_items

        return split_items(split, key=key, benchmark_version=options.get("benchmark_version"), limit=limit)

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        """The core grader for the item's kind (imported at the first grade: pint loads then)."""
        from physbench.suites.medphys.grade import grade_item

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

    def completion_prompt(self, item: "Item") -> Any:
        """Worked examples and the opened answer slot, for base checkpoints (the `local` model)."""
        from physbench.suites.medphys.fewshot import completion_prompt

        return completion_prompt(item)

    model_forms = ("nocalc", "mode:NAME", "mode:GEN/A+B")  # what make_model answers (named in the unknown-spec error)

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
