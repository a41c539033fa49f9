"""The clincalc suite object (SUITE): MedCalc-Bench Verified rows as items, one arm per item option.

The arms are those of 003_* (Table 1, Appendix A.1), listed with their settings in arms.py and asked
by the protocols in arm_protocols.py; `physbench eval clincalc --arm ARM` picks both. Each is also a
protocol of its own name (`--protocol program-solve`), which sets the item option `arm` to match.
The first names (open-book, program, blind-program, extract-library, gold-library) still work.
Rows come from the shipped one-shot split, or from `--data PATH` (a user's CSV or parquet copy of
the test split) or `--data hub`; `--library-subset FILE` restricts the library to some calculators.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.suites.clincalc import arms, prompts, prompts_official
from physbench.suites.clincalc.extraction import MAX_EXTRACTION_CHARS, read_extraction  # noqa: F401 (kept here)

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.protocols.base import Answer

NAME = "clincalc"
ARMS = tuple(arms.ARMS)
PROGRAM_ARMS = tuple(a.name for a in arms.ARMS.values() if a.program)
VALUE_ROUTES = ("library", "program", "tree")  # answers whose value, not text, is scored
PROTOCOL_ALIASES = ("gold-library",)  # "program" and "blind-program" stay the core program protocol's names
DEFAULT_FORMULAS = "benchmark"  # formula_version.DEFAULT, without importing the calculators here
SCORINGS = ("physbench", "official")  # whose verdict on a text reply passes; both are recorded


def _row_view(item: "Item") -> Any:
    """The fields the scorer reads (calculator id, ground truth and limits), from the item's reference."""
    r = item.reference
    return SimpleNamespace(calculator_id=int(r["calc_id"]), ground_truth=str(r["ground_truth"]),
                           lower_limit=str(r.get("lower", "")), upper_limit=str(r.get("upper", "")))


def _note_words(value: str | int | None) -> int | None:
    """The `note_words` option: a whole number of words from 1 to 100000, or None (the arms' own budgets)."""
    if value is None or value == "":
        return None
    try:
        n = int(str(value).strip())
    except ValueError:
        raise UserError(f"note_words must be a whole number of words, got {value!r}") from None
    if not 1 <= n <= 100_000:
        raise UserError(f"note_words must be 1 to 100000, got {n}")
    return n


class ClinCalcSuite:
    name = NAME
    item_options = ("arm", "data", "library_subset", "formulas", "scoring", "prompts", "note_words")

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              arm: str = "open-book-arithmetic", data: str | None = None, library_subset: str | None = None,
              formulas: str = DEFAULT_FORMULAS, scoring: str = "physbench", prompts: str | None = None,
              note_words: str | int | None = None, **_: Any) -> list["Item"]:
        """One item per dataset row, in file order (dev: the shipped one-shot split); `formulas` is the
        formula version the library and the formula texts follow (benchmark, the default, or clinical);
        `scoring` which verdict on a text reply passes (physbench's, the default, or the official script's);
        `prompts` a user's file of the official prompt wording for the official-style arms; `note_words`
        the note budget of the note-only and extraction prompts (Tables 6 and 20: 250)."""
        from physbench.suites.clincalc.dataset import load, load_one_shot
        from physbench.suites.clincalc.formula_version import VERSIONS
        from physbench.suites.clincalc.library import load_library_subset
        from physbench.suites.clincalc.prompts_official import load_prompts

        name = arms.canonical(arm)
        if name is None:
            raise UserError(f"unknown clincalc arm {arm!r}; choose one of {', '.join(ARMS)}")
        if split != "dev" and data is None:
            raise UserError("clincalc ships only the one-shot split; give the test split with --data PATH")
        if formulas not in VERSIONS:
            raise UserError(f"unknown formula version {formulas!r}; choose one of {', '.join(VERSIONS)}")
        if scoring not in SCORINGS:
            raise UserError(f"unknown scoring {scoring!r}; choose one of {', '.join(SCORINGS)}")
        subset = sorted(load_library_subset(library_subset)) if library_subset else None
        self._prompts = load_prompts(prompts) if prompts else None
        self._note_words = _note_words(note_words)
        dataset = load(data) if data else load_one_shot()
        self._source = {**dataset.manifest(), "formulas": formulas, "scoring": scoring,
                        **({"note_words": self._note_words} if self._note_words else {})}
        rows = dataset.rows[: limit if limit is not None else None]
        return [self._item(row, name, subset, formulas, scoring) for row in rows]

    def data_source(self) -> dict[str, Any] | None:
        """Where the last items came from (file, rows, sha256; the hub revision and commit) and the formula
        version, for the run manifest."""
        return getattr(self, "_source", None)

    def _item(self, row: Any, arm: str, subset: list[int] | None = None,
              formulas: str = "benchmark", scoring: str = "physbench") -> "Item":
        from physbench.core.items import Item, Message
        from physbench.suites.clincalc.calculators import get
        from physbench.suites.clincalc.dataset import item_id

        calc, spec = get(row.calculator_id), arms.ARMS[arm]
        note_words = getattr(self, "_note_words", None)
        if spec.prompt in prompts_official.STYLES:
            system, user = prompts_official.messages(row, spec.prompt, getattr(self, "_prompts", None))
        else:
            system, user = prompts.messages(row, spec.prompt, formulas=formulas, note_words=note_words)
        data: dict[str, Any] = {} if formulas == DEFAULT_FORMULAS else {"formulas": formulas}
        if arm in arms.RESEEDED_ARMS or spec.prompt in arms.RESEEDED_ARMS:
            data.update(case=prompts.case_text(row, spec.prompt, note_words),
                        note_key=prompts.note_key(row.patient_note))
        if spec.extraction:
            data["extraction"] = list(prompts.extraction(row, note_words))
        if subset is not None:
            data["library"] = subset
        protocol_data: dict[str, Any] = {"clincalc": data} if data else {}
        if spec.program:
            protocol_data["program"] = {"call": "solve", "policy": "strict"}
        params = {"row": row.row_number, "arm": arm, "calculator": row.calculator_id}
        if subset is not None:
            params["library"] = subset
        if formulas != DEFAULT_FORMULAS:
            params["formulas"] = formulas
        if scoring != SCORINGS[0]:
            params["scoring"] = scoring
        if note_words:
            params["note_words"] = note_words
        return Item(id=item_id(row), suite=NAME, kind=calc.kind,
                    messages=(Message("system", system), Message("user", user)),
                    reference={"calc_id": row.calculator_id, "ground_truth": row.ground_truth,
                               "lower": row.lower_limit, "upper": row.upper_limit, "entities": row.entities_text},
                    params=params, meta={"calculator": calc.name, "category": row.category, "note_type": row.note_type},
                    protocol_data=protocol_data)

    def default_item_options(self, protocol: str) -> dict[str, str]:
        """An arm's protocol sets the matching arm (so `--protocol program-solve` needs no `--option arm=`)."""
        name = arms.canonical(protocol) if protocol in ARMS or protocol in PROTOCOL_ALIASES else None
        return {"arm": name} if name else {}

    def case_order(self, items: list["Item"], repeat: int) -> list["Item"]:
        """The cases in the order of the repeat's seed (42 + repeat; Appendix A.1)."""
        import random

        order = list(items)
        random.Random(arms.seed_of(repeat)).shuffle(order)
        return order

    def default_protocol(self, options: Any) -> str | None:
        """The protocol of `--arm ARM` (an arm's own name or an old one); a UserError for an unknown arm."""
        arm = options.get("arm")
        if arm is None:
            return None
        name = arms.canonical(arm)
        if name is None:
            raise UserError(f"unknown clincalc arm {arm!r}; choose one of {', '.join(ARMS)}")
        return name

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        """Score by the benchmark's rule (decimal inside the limits, score, date and gestational age
        exactly). Never raises on model output: what cannot be read is its own outcome."""
        from physbench.grading.types import Grade
        from physbench.suites.clincalc.scoring import plain_answer

        row = _row_view(item)
        try:
            scored = self._score(item, answer, row)
            official = self._official(item, answer, row)
        except Exception as exc:  # a malformed stored reference must not stop a report
            return Grade(score=0.0, passed=False, outcome="unreadable", detail={"why": f"{type(exc).__name__}: {exc}"})
        detail = {"answer": plain_answer(scored.answer), "why": scored.detail, "calculator": row.calculator_id}
        passed, outcome = scored.correct, scored.outcome
        if official is not None:
            from physbench.suites.clincalc.official_scoring import extracted_answer

            detail.update(physbench=scored.correct, official=official,
                          official_answer=extracted_answer(str(getattr(answer, "text", "") or ""))[:200])
            if item.params.get("scoring") == "official":
                passed = official
                outcome = "correct" if official else ("wrong" if outcome == "correct" else outcome)
        return Grade(score=1.0 if passed else 0.0, passed=passed, outcome=outcome, detail=detail)

    def _official(self, item: "Item", answer: "Answer", row: Any) -> bool | None:
        """The official script's verdict on a text reply (None where the arm's answer is not text)."""
        from physbench.suites.clincalc.official_scoring import verdict

        detail = getattr(answer, "detail", None) or {}
        arm = arms.canonical(str(item.params.get("arm")))
        if getattr(answer, "outcome", None) is not None or detail.get("route") not in (None, "reply") \
                or arm in PROGRAM_ARMS or arm == "extract-solve-library":
            return None
        return verdict(getattr(answer, "text", None), row.calculator_id, row.ground_truth, row.lower_limit,
                       row.upper_limit)

    def _score(self, item: "Item", answer: "Answer", row: Any) -> Any:
        from physbench.suites.clincalc.item_data import item_formulas
        from physbench.suites.clincalc.library import library_answer
        from physbench.suites.clincalc.scoring import Scored, matches, parse_gold, score_reply, score_value

        arm = arms.canonical(str(item.params.get("arm")))
        outcome = getattr(answer, "outcome", None)
        detail = getattr(answer, "detail", None) or {}
        if outcome is not None:  # the protocol decided it: no program, rejected, raised, abstained...
            return Scored(str(outcome), None, str(detail.get("why") or "the arm gave no value"))
        route = detail.get("route")
        if route in VALUE_ROUTES or (route is None and arm in PROGRAM_ARMS):
            return score_value(getattr(answer, "value", None), row)
        if route is None and arm == "extract-solve-library":  # asked with `direct`: the reply is the extraction
            entities = read_extraction(getattr(answer, "text", None))
            if entities is None:
                return Scored("abstained", None, "no JSON object of variables in the reply")
            value, why = library_answer(row.calculator_id, entities, None, item_formulas(item))
            if value is None:
                return Scored("abstained", None, why)
            gold = parse_gold(row.calculator_id, row.ground_truth, row.lower_limit, row.upper_limit)
            return Scored("correct" if matches(value, gold) else "wrong", value)
        return score_reply(getattr(answer, "text", None), row)

    def protocols(self) -> dict[str, Any]:
        """One protocol per arm, by the arm's name (and `gold-library` for the Gold-Solve library)."""
        from physbench.suites.clincalc.arm_protocols import make

        table: dict[str, Any] = {name: (lambda _suite, _name=name, **kw: make(_name, **kw)) for name in ARMS}
        table.update({alias: table[arms.ALIASES[alias]] for alias in PROTOCOL_ALIASES})
        return table

    @property
    def report(self) -> Any:
        """This suite's report sections and viewer fields (imported when a report asks)."""
        from physbench.suites.clincalc.report import REPORT

        return REPORT

    def oracle(self, item: "Item") -> str | None:
        """A perfect reply for the item's arm: the gold answer, a program returning it, or the gold variables."""
        arm = arms.canonical(str(item.params.get("arm"))) or ""
        calc, gold = int(item.reference["calc_id"]), str(item.reference["ground_truth"])
        if arm in PROGRAM_ARMS and not arms.ARMS[arm].extraction:
            return prompts.oracle_program(calc, gold)
        if arm in ("extract-solve-library", "extract-first-program", "extract-first-arithmetic"):
            return self._oracle_extraction(item)
        if arm == "formulate-solve-tree":
            return prompts.oracle_tree(calc, gold)
        if arm in prompts_official.STYLES:
            return prompts_official.oracle_reply(gold)
        return f"Final answer: {gold}"

    def oracle_turn(self, item: "Item", label: str, messages: Any) -> str | None:
        """The oracle's reply to one turn of a multi-call arm (its label names the turn)."""
        if str(item.params.get("arm")) in prompts_official.STYLES:
            return prompts_official.oracle_reply(str(item.reference["ground_truth"]))
        if label == "extraction":
            return self._oracle_extraction(item)
        if label == "program" or (label.startswith("sample-") and item.params.get("arm") in PROGRAM_ARMS):
            return prompts.oracle_program(int(item.reference["calc_id"]), str(item.reference["ground_truth"]))
        if label.startswith("sample-") or label == "answer":
            return f"Final answer: {item.reference['ground_truth']}"
        return self.oracle(item)

    @staticmethod
    def _oracle_extraction(item: "Item") -> str:
        from physbench.suites.clincalc.dataset import parse_entities

        return json.dumps(parse_entities(str(item.reference["entities"]), item.id))


SUITE = ClinCalcSuite()
