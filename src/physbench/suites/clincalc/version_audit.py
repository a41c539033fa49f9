"""The two formula versions side by side on any rows: where `benchmark` and `clinical` differ, which
errata make the difference (by name), and which of the two the row's gold agrees with."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from physbench.suites.clincalc.calculators import compute
from physbench.suites.clincalc.dataset import Row
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.errata import errata
from physbench.suites.clincalc.formula_version import erratum_ids
from physbench.suites.clincalc.scoring import gold_of, matches
from physbench.suites.clincalc.scoring import plain_answer as _plain


@dataclass
class VersionDifference:
    row_number: int
    calculator_id: int
    gold: Any
    benchmark: Any               # None: the benchmark's code gives no value here
    clinical: Any
    benchmark_correct: bool
    clinical_correct: bool
    errata: list[str] = field(default_factory=list)   # the errata that account for the difference

    @property
    def explained(self) -> bool:
        return bool(self.errata)


def _answer(calc_id: int, entities: dict, formulas: Any) -> Any:
    try:
        return compute(calc_id, entities, formulas)
    except EntityError:
        return None


def explaining_errata(calc_id: int, entities: dict) -> list[str]:
    """The errata that change the answer on these entities: switched on alone (the rest clinical) or
    switched off alone (the rest benchmark)."""
    clinical, benchmark = _answer(calc_id, entities, "clinical"), _answer(calc_id, entities, "benchmark")
    every = frozenset(erratum_ids())
    out = []
    for e in errata():
        if not e.covers(calc_id):
            continue
        if _answer(calc_id, entities, {e.id}) != clinical or _answer(calc_id, entities, every - {e.id}) != benchmark:
            out.append(e.id)
    return out


def _correct(answer: Any, row: Row) -> bool:
    return answer is not None and matches(answer, gold_of(row))


def compare_row(row: Row) -> VersionDifference | None:
    """The row's difference between the versions, or None when both give the same answer."""
    benchmark = _answer(row.calculator_id, row.entities, "benchmark")
    clinical = _answer(row.calculator_id, row.entities, "clinical")
    if benchmark == clinical:
        return None
    return VersionDifference(row.row_number, row.calculator_id, _plain(gold_of(row).value), _plain(benchmark),
                             _plain(clinical), _correct(benchmark, row), _correct(clinical, row),
                             explaining_errata(row.calculator_id, row.entities))


@dataclass
class VersionReport:
    n_rows: int
    correct: dict[str, int]                # version -> rows whose gold it reproduces
    differences: list[VersionDifference]

    def to_json(self) -> dict[str, Any]:
        by_erratum: dict[str, int] = {}
        for d in self.differences:
            for e in d.errata:
                by_erratum[e] = by_erratum.get(e, 0) + 1
        return {"n_rows": self.n_rows, "correct": self.correct, "n_differ": len(self.differences),
                "n_unexplained": sum(not d.explained for d in self.differences), "by_erratum": by_erratum,
                "differences": [{**asdict(d), "explained": d.explained} for d in self.differences]}


def compare(rows: Iterable[Row]) -> VersionReport:
    n, correct, out = 0, {"benchmark": 0, "clinical": 0}, []
    for row in rows:
        n += 1
        d = compare_row(row)
        if d is None:
            same = _correct(_answer(row.calculator_id, row.entities, "benchmark"), row)
            correct["benchmark"] += same
            correct["clinical"] += same
            continue
        correct["benchmark"] += d.benchmark_correct
        correct["clinical"] += d.clinical_correct
        out.append(d)
    return VersionReport(n, correct, out)
