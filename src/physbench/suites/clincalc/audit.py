"""`audit`: the library on every row of a data file, and each row where it and the gold disagree.

A disagreement carries the errata that apply to the row and whether each one's re-computation of
the benchmark's code reproduces the gold ("explained"); rows no erratum covers are "unexplained".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from physbench.suites.clincalc.calculators import CALCULATORS
from physbench.suites.clincalc.dataset import Row
from physbench.suites.clincalc.errata import errata
from physbench.suites.clincalc.library import library_answer
from physbench.suites.clincalc.scoring import gold_of, matches, read_value
from physbench.suites.clincalc.scoring import plain_answer as _plain


@dataclass
class Disagreement:
    row_number: int
    calculator_id: int
    calculator_name: str
    gold: Any
    library: Any
    status: str                  # explained | erratum-applies | unexplained | library-error
    reason: str
    errata: list[dict] = field(default_factory=list)


@dataclass
class AuditReport:
    source: str
    n_rows: int
    n_agree: int
    n_abstained: int
    disagreements: list[Disagreement]

    @property
    def n_disagree(self) -> int:
        return len(self.disagreements)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for d in self.disagreements:
            out[d.status] = out.get(d.status, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "n_rows": self.n_rows, "n_agree": self.n_agree,
                "n_disagree": self.n_disagree, "n_abstained": self.n_abstained, "by_status": self.counts(),
                "disagreements": [asdict(d) for d in self.disagreements]}


def _benchmark_matches(value: Any, row: Row) -> bool:
    if value is None:
        return False
    gold = gold_of(row)
    status, answer = read_value(value, gold.kind)
    return status == "ok" and matches(answer, gold)


def audit_row(row: Row, subset: frozenset[int] | None = None,
              formulas: str | None = None) -> tuple[str, Disagreement | None]:
    """('agree' | 'abstained' | 'disagree', the disagreement or None), the library under `formulas`."""
    answer, why = library_answer(row.calculator_id, row.entities, subset, formulas)
    if answer is None and "outside the library subset" in why:
        return "abstained", None
    gold = gold_of(row)
    name = CALCULATORS[row.calculator_id].name
    if answer is not None and matches(answer, gold):
        return "agree", None
    if answer is None:
        return "disagree", Disagreement(row.row_number, row.calculator_id, name, _plain(gold.value), None,
                                        "library-error", why)
    found = []
    for e in errata():
        if not e.covers(row.calculator_id) or not e.applies(row.row_number, row.note_id, row.entities):
            continue
        value = e.benchmark_value(row.entities, row.calculator_id)
        found.append({"id": e.id, "status": e.status, "reason": e.reason, "source": e.source,
                      "benchmark_value": _plain(value), "reproduces_gold": _benchmark_matches(value, row)})
    if any(f["reproduces_gold"] for f in found):
        status = "explained"
        reason = "; ".join(f["reason"] for f in found if f["reproduces_gold"])
    elif found:
        status, reason = "erratum-applies", "; ".join(f["reason"] for f in found)
    else:
        status, reason = "unexplained", "no erratum covers this row"
    return "disagree", Disagreement(row.row_number, row.calculator_id, name, _plain(gold.value), _plain(answer),
                                    status, reason, found)


def audit(rows: Iterable[Row], source: str = "", subset: frozenset[int] | None = None,
          formulas: str | None = None) -> AuditReport:
    agree = abstained = n = 0
    out: list[Disagreement] = []
    for row in rows:
        n += 1
        verdict, d = audit_row(row, subset, formulas)
        agree += verdict == "agree"
        abstained += verdict == "abstained"
        if d is not None:
            out.append(d)
    return AuditReport(source, n, agree, abstained, out)
