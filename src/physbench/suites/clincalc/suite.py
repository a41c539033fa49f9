"""The clincalc suite object (SUITE): MedCalc-Bench Verified rows as items, one arm per item option.

Arms (003_* Table 1; Appendix A.1 for what each one sees):
- `open-book`: note, formula text and gold variables; the model does the arithmetic;
- `note-only`: the note alone; the model recalls the formula and does the arithmetic;
- `program`: note, formula text and gold variables; the model writes `solve()`, the executor runs it
  (ask with `--protocol program`);
- `blind-program`: the note alone; the model writes `solve()` (with `--protocol program[:vote=5|:repair=1]`);
- `extract-library`: the model extracts the variables as JSON and the library computes;
- the Gold-Solve library needs no model: `--protocol gold-library` gives the library the gold variables.
Rows come from the shipped one-shot split, or from `--option data=PATH` (a user's CSV or parquet copy
of the test split) or `data=hub`.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.suites.clincalc import prompts

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.protocols.base import Answer

NAME = "clincalc"
ARMS = ("open-book", "note-only", "program", "blind-program", "extract-library")
PROGRAM_ARMS = ("program", "blind-program")
MAX_EXTRACTION_CHARS = 65_536  # an extraction reply beyond this is not read as JSON


def _row_view(item: "Item") -> Any:
    """The fields the scorer reads (calculator id, ground truth and limits), from the item's reference."""
    r = item.reference
    return SimpleNamespace(calculator_id=int(r["calc_id"]), ground_truth=str(r["ground_truth"]),
                           lower_limit=str(r.get("lower", "")), upper_limit=str(r.get("upper", "")))


def read_extraction(text: Any) -> dict | None:
    """The variables a model extracted: the last JSON object in its reply, or None. Bounded, never eval."""
    from physbench.core.tools import parse_arguments

    if not isinstance(text, str) or len(text) > MAX_EXTRACTION_CHARS:
        return None
    end = text.rfind("}")
    while end != -1:
        start = text.rfind("{", 0, end)
        while start != -1:
            value, why = parse_arguments(text[start:end + 1])
            if why is None and value:
                return value
            start = text.rfind("{", 0, start)
        end = text.rfind("}", 0, end)
    return None


class ClinCalcSuite:
    name = NAME
    item_options = ("arm", "data")

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              arm: str = "open-book", data: str | None = None, **_: Any) -> list["Item"]:
        """One item per dataset row, in file order (dev: the shipped one-shot split)."""
        from physbench.suites.clincalc.dataset import load, load_one_shot

        if arm not in ARMS:
            raise UserError(f"unknown clincalc arm {arm!r}; choose one of {', '.join(ARMS)}")
        if split != "dev" and data is None:
            raise UserError("clincalc ships only the one-shot split; give the test split with --option data=PATH")
        dataset = load(data) if data else load_one_shot()
        self._source = dataset.manifest()
        return [self._item(row, arm) for row in dataset.rows[: limit if limit is not None else None]]

    def data_source(self) -> dict[str, Any] | None:
        """Where the last items came from (file, rows, sha256; the hub revision and commit), for the run manifest."""
        return getattr(self, "_source", None)

    def _item(self, row: Any, arm: str) -> "Item":
        from physbench.core.items import Item, Message
        from physbench.suites.clincalc.calculators import get
        from physbench.suites.clincalc.dataset import item_id

        calc = get(row.calculator_id)
        system, user = prompts.messages(row, arm)
        return Item(id=item_id(row), suite=NAME, kind=calc.kind, messages=(Message("system", system), Message("user", user)),
                    reference={"calc_id": row.calculator_id, "ground_truth": row.ground_truth,
                               "lower": row.lower_limit, "upper": row.upper_limit, "entities": row.entities_text},
                    params={"row": row.row_number, "arm": arm, "calculator": row.calculator_id},
                    meta={"calculator": calc.name, "category": row.category, "note_type": row.note_type},
                    protocol_data={"program": {"call": "solve", "policy": "strict"}} if arm in PROGRAM_ARMS else {})

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        """Score by the benchmark's rule (decimal inside the limits, score, date and gestational age
        exactly). Never raises on model output: what cannot be read is its own outcome."""
        from physbench.grading.types import Grade
        from physbench.suites.clincalc.scoring import plain_answer

        row = _row_view(item)
        try:
            scored = self._score(item, answer, row)
        except Exception as exc:  # a malformed stored reference must not stop a report
            return Grade(score=0.0, passed=False, outcome="unreadable", detail={"why": f"{type(exc).__name__}: {exc}"})
        return Grade(score=1.0 if scored.correct else 0.0, passed=scored.correct, outcome=scored.outcome,
                     detail={"answer": plain_answer(scored.answer), "why": scored.detail,
                             "calculator": row.calculator_id})

    def _score(self, item: "Item", answer: "Answer", row: Any) -> Any:
        from physbench.suites.clincalc.library import library_answer
        from physbench.suites.clincalc.scoring import Scored, matches, parse_gold, score_reply, score_value

        arm = item.params.get("arm")
        outcome = getattr(answer, "outcome", None)
        if outcome is not None:  # the protocol decided it: no program, rejected, raised, abstained...
            return Scored(str(outcome), None, "the program gave no value")
        if arm in PROGRAM_ARMS or (getattr(answer, "detail", None) or {}).get("route") == "library":
            return score_value(getattr(answer, "value", None), row)
        if arm == "extract-library":
            entities = read_extraction(getattr(answer, "text", None))
            if entities is None:
                return Scored("abstained", None, "no JSON object of variables in the reply")
            value, why = library_answer(row.calculator_id, entities)
            if value is None:
                return Scored("abstained", None, why)
            gold = parse_gold(row.calculator_id, row.ground_truth, row.lower_limit, row.upper_limit)
            return Scored("correct" if matches(value, gold) else "wrong", value)
        return score_reply(getattr(answer, "text", None), row)

    def protocols(self) -> dict[str, Any]:
        from physbench.suites.clincalc.gold_library import GoldLibrary

        return {"gold-library": lambda _suite, **kw: GoldLibrary(**kw)}

    @property
    def report(self) -> Any:
        """This suite's report sections and viewer fields (imported when a report asks)."""
        from physbench.suites.clincalc.report import REPORT

        return REPORT

    def oracle(self, item: "Item") -> str | None:
        """A perfect reply for the item's arm: the gold answer, a program returning it, or the gold variables."""
        arm = item.params.get("arm")
        gold = str(item.reference["ground_truth"])
        if arm in PROGRAM_ARMS:
            return prompts.oracle_program(int(item.reference["calc_id"]), gold)
        if arm == "extract-library":
            from physbench.suites.clincalc.dataset import parse_entities

            return json.dumps(parse_entities(str(item.reference["entities"]), item.id))
        return f"Final answer: {gold}"


SUITE = ClinCalcSuite()
