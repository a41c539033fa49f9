"""Where result-check false alarms come from: the model's own calculation of the same draw (seed 000 Section I).

Table 21: a comparator that flags the colleague's correct result when it differs from the model's
own answer to the matched calculation item by more than the band (or when that answer has no
value), its false-alarm rate beside the model's, their agreement (Cohen's kappa, no verdict = not
flagged), how many false alarms proposed the model's own value, and how many proposed a value
outside the band. Table 22: checking outcome by whether the matched calculation was solved, with
the exact conditional test within generator-level cells (one-sided: an unsolved calculation raises
the chance of a false alarm, or of a miss).
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Sequence

from physbench.grading import convert
from physbench.report.generic import finite_or_none, flagged, passed, value_in_reference_unit, within
from physbench.suites.medphys.report.analyses import draw_key, generator_of, is_planted, level_of, of_kind
from physbench.stats import cohen_kappa, stratified_exact_test
from physbench.suites.medphys.reference import reference_of

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

MAX_UNIT_TEXT = 64  # a proposed unit longer than this is not read


def proposed_value(r: "Result") -> float | None:
    """The corrected result a check proposed, in the reference unit (None when none was read)."""
    g = r.grade
    if g is None or g.corrected_value is None:
        return None
    unit = g.corrected_unit or ""
    if len(unit) > MAX_UNIT_TEXT:
        return None
    value = convert(g.corrected_value, unit, reference_of(r.item).unit or "")
    return value if value is not None and math.isfinite(value) else None


def _matched(run: "RunData", kind: str, planted: bool) -> list[tuple["Result", "Result"]]:
    """(check, the same draw's calculation) for the run's checks of `kind` whose calculation it answered."""
    calc = {draw_key(r.item): r for r in of_kind(run, "calculation").values()}
    out = []
    for r in of_kind(run, kind).values():
        own = calc.get(draw_key(r.item))
        if own is not None and is_planted(r.item) == planted:
            out.append((r, own))
    return out


def comparator_for(run: "RunData") -> dict[str, Any] | None:
    """Table 21 for one model; None when it has no correct result check with a matched calculation."""
    matched = _matched(run, "result_check", planted=False)
    if not matched:
        return None
    model_flags, comp_flags = [], []
    own_k = own_n = wrong_k = 0
    for check, calc in matched:
        own = value_in_reference_unit(calc)
        shown = reference_of(check.item).shown_value
        comp = own is None or shown is None or not within(float(shown), own, reference_of(check.item).band)
        comp_flags.append(comp)
        model_flags.append(flagged(check))
        if flagged(check):
            proposal = proposed_value(check)
            if proposal is not None and own is not None:
                own_n += 1
                own_k += within(proposal, own, reference_of(check.item).band)
            wrong_k += check.grade is not None and check.grade.corrected_passed is False
    n = len(matched)
    false_alarms = sum(model_flags)
    return {"model": run.label, "n": n, "false_alarms": false_alarms, "false_alarm_rate": false_alarms / n,
            "comparator": sum(comp_flags), "comparator_rate": sum(comp_flags) / n,
            "kappa": finite_or_none(cohen_kappa(comp_flags, model_flags)),
            "own_value": {"k": own_k, "n": own_n}, "wrong_correction": {"k": wrong_k, "n": false_alarms}}


def comparator(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    return [row for run in models if (row := comparator_for(run)) is not None]


def _by_solved(pairs: Sequence[tuple["Result", "Result"]], event: Any) -> dict[str, Any]:
    """Pooled event rates when the matched calculation was solved or not, and the stratified exact test."""
    strata: dict[tuple[str, int | None], list[list[int]]] = defaultdict(lambda: [[0, 0], [0, 0]])
    for check, calc in pairs:
        row = 0 if not passed(calc) else 1           # exposed: calculation not solved
        col = 0 if event(check) else 1
        strata[(generator_of(calc.item), level_of(calc.item))][row][col] += 1
    unsolved = [sum(t[0][0] for t in strata.values()), sum(t[0][1] for t in strata.values())]
    solved = [sum(t[1][0] for t in strata.values()), sum(t[1][1] for t in strata.values())]
    test = stratified_exact_test(list(strata.values()), alternative="greater")
    return {"solved": {"events": solved[0], "n": sum(solved)}, "unsolved": {"events": unsolved[0], "n": sum(unsolved)},
            "p": test.pvalue, "informative_cells": test.informative}


def solved_rows(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Table 22: result-check false alarms and worksheet detection by whether the model solved the calculation."""
    rows = []
    for run in models:
        fa_pairs = _matched(run, "result_check", planted=False)
        ws_pairs = _matched(run, "worksheet_check", planted=True)
        if not fa_pairs and not ws_pairs:
            continue
        row: dict[str, Any] = {"model": run.label, "false_alarms": None, "worksheet_misses": None}
        if fa_pairs:
            row["false_alarms"] = _by_solved(fa_pairs, flagged)
        if ws_pairs:
            row["worksheet_misses"] = _by_solved(ws_pairs, lambda r: not flagged(r))
        rows.append(row)
    return rows
