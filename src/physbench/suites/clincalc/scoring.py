"""The benchmark's scoring rules, keyed on the calculator (never on the Output Type column).

decimal: correct inside [Lower Limit, Upper Limit]; score: equal to the gold (a Wells' PE total
may be a half point); date: the same calendar day (gold cells are MM/DD/YYYY); gestational age:
the same (weeks, days) integers (gold cells are ('W weeks', 'D days')). A model reply's answer
is the result on its final-answer line (after its last '='; a range or a list is no answer), or its
first date or gestational age; a reply with none is wrong.

Upstream evaluate.py rounds an integer-score answer before comparing (2.6 would pass for 3); this
module follows the paper's reading, exact equality, so 2.6 is wrong (official_scoring.py has theirs).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any, Protocol

from physbench.suites.clincalc import answers
from physbench.suites.clincalc.calculators import get


class Row(Protocol):
    """What scoring reads of a row (a dataset.Row, or the suite's view of an item's reference): typed
    here so that scoring and dataset do not import each other."""

    calculator_id: int
    ground_truth: str
    lower_limit: str
    upper_limit: str

OUTCOMES = ("correct", "wrong", "bad_kind", "unreadable")


@dataclass(frozen=True)
class Gold:
    """A row's reference: kind, value and (for decimals) the limits."""

    kind: str
    value: Any
    lower: float | None = None
    upper: float | None = None

    def to_json(self) -> dict[str, Any]:
        value = self.value.strftime("%m/%d/%Y") if isinstance(self.value, dt.date) else self.value
        return {"kind": self.kind, "value": list(value) if isinstance(value, tuple) else value,
                "lower": self.lower, "upper": self.upper}


@dataclass(frozen=True)
class Scored:
    """One scoring: the outcome, whether it is correct, the answer read (None if none) and why."""

    outcome: str
    answer: Any = None
    detail: str = ""

    @property
    def correct(self) -> bool:
        return self.outcome == "correct"


def kind_of(calc_id: int) -> str:
    return get(calc_id).kind


def parse_gold(calc_id: int, answer: str, lower: str, upper: str) -> Gold:
    """The reference of a row from its three cells; ValueError naming the cell that is wrong."""
    kind = kind_of(calc_id)
    if kind == "date":
        d = _strict_date(answer)
        if d is None:
            raise ValueError(f"Ground Truth Answer {answer!r} is not a MM/DD/YYYY date")
        return Gold(kind, d)
    if kind == "gestational_age":
        ga = answers.gestational_age(answer) if len(answer) < 200 else None
        if ga is None:
            raise ValueError(f"Ground Truth Answer {answer!r} is not a (weeks, days) pair")
        return Gold(kind, ga)
    value = answers.strict_number(answer)
    if value is None:
        raise ValueError(f"Ground Truth Answer {answer!r} is not a number")
    if kind == "score":
        return Gold(kind, value)
    lo, hi = answers.strict_number(lower), answers.strict_number(upper)
    if lo is None:
        raise ValueError(f"Lower Limit {lower!r} is not a number")
    if hi is None:
        raise ValueError(f"Upper Limit {upper!r} is not a number")
    if lo > hi:
        raise ValueError(f"Lower Limit {lower} is above Upper Limit {upper}")
    return Gold(kind, value, lo, hi)


def gold_of(row: "Row") -> Gold:
    return parse_gold(row.calculator_id, row.ground_truth, row.lower_limit, row.upper_limit)


def _strict_date(text: str) -> dt.date | None:
    t = text.strip()
    if len(t) > 40:
        return None
    for fmt in ("%m/%d/%Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(t, fmt).date()
        except ValueError:
            pass
    try:
        return dt.datetime.fromisoformat(t).date()  # a datetime's ISO form from the executor
    except ValueError:
        return None


def matches(answer: Any, gold: Gold) -> bool:
    """Whether an answer already in its kind's type equals (or, for decimals, lies inside) the gold."""
    if gold.kind == "decimal":
        return gold.lower <= answer <= gold.upper  # type: ignore[operator]
    if gold.kind == "score":
        return float(answer) == float(gold.value)
    return answer == gold.value


# ---- model text ---------------------------------------------------------------------------

def parse_reply(text: Any, calc_id: int) -> Any:
    """The answer a model reply gives on its final-answer line, in the calculator's kind, or None."""
    if not isinstance(text, str):
        return None
    line = answers.final_answer_text(text)
    kind = kind_of(calc_id)
    if kind == "date":
        return answers.first_date(line)
    if kind == "gestational_age":
        return answers.gestational_age(line)
    return answers.answer_number(line)


def score_answer(answer: Any, row: "Row") -> bool:
    """Whether a parsed answer (None for none) is correct for the row."""
    return answer is not None and matches(answer, gold_of(row))


def score_reply(text: Any, row: "Row") -> Scored:
    """Score a model's text reply: correct, or wrong (with why when nothing could be read)."""
    answer = parse_reply(text, row.calculator_id)
    if answer is None:
        return Scored("wrong", None, "no parseable answer on the final-answer line")
    return Scored("correct" if matches(answer, gold_of(row)) else "wrong", answer)


# ---- a program's returned value ---------------------------------------------------------------

def read_value(value: Any, kind: str) -> tuple[str, Any]:
    """('ok', answer), ('bad_kind', None) when the type cannot be the kind's answer, or
    ('unreadable', None) when the type could be but this value cannot be read."""
    if kind in ("decimal", "score"):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            return "bad_kind", None
        x = answers.strict_number(value) if isinstance(value, str) else float(value)
        return ("ok", x) if x is not None and math.isfinite(x) else ("unreadable", None)
    if kind == "date":
        if isinstance(value, dt.datetime):
            return "ok", value.date()
        if isinstance(value, dt.date):
            return "ok", value
        if not isinstance(value, str):
            return "bad_kind", None
        d = _strict_date(value)
        return ("ok", d) if d else ("unreadable", None)
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            return "unreadable", None
        parts = []
        for part, unit in zip(value, ("weeks", "days")):
            if isinstance(part, bool):
                return "unreadable", None
            if isinstance(part, int) or (isinstance(part, float) and part.is_integer()):
                parts.append(int(part))
            elif isinstance(part, str) and len(part) < 40:
                n = answers.first_number(part)
                if n is None or not n.is_integer() or (part.strip(" 0123456789").lower().rstrip("s")
                                                       not in ("", unit.rstrip("s"))):
                    return "unreadable", None
                parts.append(int(n))
            else:
                return "unreadable", None
        return "ok", tuple(parts)
    if isinstance(value, str):
        ga = answers.gestational_age(value)
        return ("ok", ga) if ga else ("unreadable", None)
    return "bad_kind", None


def score_value(value: Any, row: "Row") -> Scored:
    """Score a program's returned value (a number, a date or date string, a (weeks, days) pair)."""
    kind = kind_of(row.calculator_id)
    status, answer = read_value(value, kind)
    if status != "ok":
        return Scored(status, None, f"returned {type(value).__name__} for a {kind} answer")
    return Scored("correct" if matches(answer, gold_of(row)) else "wrong", answer)


def plain_answer(answer: Any) -> Any:
    """An answer as plain JSON, in the form a program would return it (date as MM/DD/YYYY, pair as list)."""
    if isinstance(answer, dt.date):
        return answer.strftime("%m/%d/%Y")
    if isinstance(answer, tuple):
        return list(answer)
    return answer
