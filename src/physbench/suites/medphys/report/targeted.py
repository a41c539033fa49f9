"""The targeted test of one error (seed 000 § 6.3, Section K, Table 24).

A targeted run (`--split targeted:GEN:LEVEL:MODE:N:START`) answers, per parameter set, the calculation,
a worksheet and a result check carrying the planted error, and their correct twins; the twins share
`meta["pair_id"]`. Per model: its own calculations, correct and with the planted error made ("omitted"
in the seed's isocentric test), detection and localisation in planted worksheets, detection in planted
results, false alarms on correct worksheets and results, and of the result false alarms those that
proposed the value with the planted error.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from physbench.report.generic import flagged, passed, value_in_reference_unit, within
from physbench.suites.medphys.combined import find_mode
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.release import pair_id
from physbench.suites.medphys.report.analyses import generator_of, is_planted, level_of, planted_meta
from physbench.suites.medphys.report.comparator import proposed_value

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.report.loading import RunData
    from physbench.runner.results import Result


def erroneous_value(planted: "Item") -> float | None:
    """The answer with the planted error made: the error mode's own answer on the draw's params, or the
    colleague's shown result for an arithmetic slip (or an item the generators no longer solve)."""
    from physbench.suites.medphys.base import params_from_dict
    from physbench.suites.medphys.generators import get_generator

    mode, level = str(planted_meta(planted).get("mode", "")), level_of(planted)
    shown = reference_of(planted).shown_value
    if level is not None and mode and not mode.startswith("slip:"):
        try:
            gen = get_generator(generator_of(planted))
            value = float(find_mode(gen, mode).answer(level, params_from_dict(gen.level(level).params, planted.params)))
            if math.isfinite(value):
                return value
        except Exception:  # an item from another version of the generators: fall back to the shown value
            pass
    return float(shown) if isinstance(shown, (int, float)) else None


def _near(value: float | None, target: float | None, item: "Item") -> bool:
    return value is not None and target is not None and within(value, target, reference_of(item).band)


def targeted_for(run: "RunData") -> dict[str, Any] | None:
    """Table 24 for one run; None when the run holds no targeted twins."""
    rs = list(run.responses().values())
    planted_by_pair = {r.item.meta["pair_id"]: r.item for r in rs
                       if isinstance(r.item.meta.get("pair_id"), str) and is_planted(r.item)}
    if not planted_by_pair:
        return None
    wrong = {p: erroneous_value(item) for p, item in planted_by_pair.items()}
    in_test = [r for r in rs if pair_id(r.item) in planted_by_pair]
    calc = [r for r in in_test if r.item.kind == "calculation"]
    own_wrong = [r for r in calc if not passed(r) and _near(value_in_reference_unit(r), wrong[pair_id(r.item)], r.item)]

    def checks(kind: str, planted: bool) -> list["Result"]:
        return [r for r in in_test if r.item.kind == kind and is_planted(r.item) == planted]

    ws_p, ws_c = checks("worksheet_check", True), checks("worksheet_check", False)
    rc_p, rc_c = checks("result_check", True), checks("result_check", False)
    rc_alarms = [r for r in rc_c if flagged(r)]
    with_error = [r for r in rc_alarms if _near(proposed_value(r), wrong[pair_id(r.item)], r.item)]
    return {"model": run.label, "pairs": len(planted_by_pair),
            "modes": sorted({str(planted_meta(i).get("mode", "")) for i in planted_by_pair.values()}),
            "own": {"n": len(calc), "correct": sum(map(passed, calc)), "with_error": len(own_wrong)},
            "worksheet": {"planted": len(ws_p), "detected": sum(map(flagged, ws_p)),
                          "localized": sum(bool(r.grade and r.grade.localized) for r in ws_p),
                          "correct": len(ws_c), "false_alarms": sum(map(flagged, ws_c))},
            "result": {"planted": len(rc_p), "detected": sum(map(flagged, rc_p)), "correct": len(rc_c),
                       "false_alarms": len(rc_alarms), "false_alarms_with_error": len(with_error)}}


def targeted_rows(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Table 24 over the runs that hold a targeted test, one row per run."""
    return [row for run in models if (row := targeted_for(run)) is not None]
