"""Worksheet against result checks of the same draws (seed 000 "Statistics", Tables 12 and 15, Figure 3c).

Both formats show the same cases, so each model's detection and false alarms change by paired
differences: exact McNemar tests with Holm's adjustment over every comparison (two per model), and
Delta J = J_result - J_worksheet from two Newcombe paired score intervals joined by MOVER, also
with a Bonferroni adjustment over the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from physbench.report.generic import flagged
from physbench.suites.medphys.report.analyses import diff_json, generator_of, is_planted, of_kind, pair_key, planted_meta, proportion
from physbench.stats import PairedCounts, delta_youden, holm, mcnemar_exact, youden

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

# planted errors that report another quantity rather than a wrong value of the same one (000 § 5, Table 15)
QUANTITY_CHANGING = frozenset({("mu", "total_dose"), ("tg51", "output_at_10cm")})


def paired_checks(run: "RunData") -> list[tuple["Result", "Result"]]:
    """(worksheet check, result check) of every draw the run answered in both formats."""
    ws = {pair_key(r.item): r for r in of_kind(run, "worksheet_check").values()}
    rc = {pair_key(r.item): r for r in of_kind(run, "result_check").values()}
    return [(ws[k], rc[k]) for k in sorted(set(ws) & set(rc), key=str) if k is not None]


def _discordant(pairs: Sequence[tuple["Result", "Result"]]) -> dict[str, Any]:
    ws_only = sum(1 for w, r in pairs if flagged(w) and not flagged(r))
    rc_only = sum(1 for w, r in pairs if flagged(r) and not flagged(w))
    return {"n": len(pairs), "worksheet_only": ws_only, "result_only": rc_only, "p": mcnemar_exact(ws_only, rc_only),
            "p_holm": None}


def _j(pairs: Sequence[tuple["Result", "Result"]], which: int) -> dict[str, Any] | None:
    planted = [p[which] for p in pairs if is_planted(p[which].item)]
    correct = [p[which] for p in pairs if not is_planted(p[which].item)]
    if not planted or not correct:
        return None
    return diff_json(youden(sum(map(flagged, planted)), len(planted), sum(map(flagged, correct)), len(correct)))


def format_rows(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Per model with both formats: Table 12 (discordant detections and false alarms, McNemar, Holm) and Delta J."""
    rows = []
    for run in models:
        pairs = paired_checks(run)
        if not pairs:
            continue
        planted = [p for p in pairs if is_planted(p[0].item)]
        correct = [p for p in pairs if not is_planted(p[0].item)]
        rows.append({"model": run.label, "detection": _discordant(planted) if planted else None,
                     "false_alarms": _discordant(correct) if correct else None,
                     "j_worksheet": _j(pairs, 0), "j_result": _j(pairs, 1), "delta_j": None,
                     "delta_j_bonferroni": None, "_pairs": (planted, correct)})
    family = [row[key] for row in rows for key in ("detection", "false_alarms") if row[key] is not None]
    for test, adj in zip(family, holm([t["p"] for t in family])):
        test["p_holm"] = adj
    m = max(1, len(rows))
    for row in rows:
        planted, correct = row.pop("_pairs")
        if planted and correct:
            # first condition: result check, second: worksheet check (Delta J = J_result - J_worksheet)
            det = PairedCounts.from_outcomes([flagged(r) for _, r in planted], [flagged(w) for w, _ in planted])
            fa = PairedCounts.from_outcomes([flagged(r) for _, r in correct], [flagged(w) for w, _ in correct])
            row["delta_j"] = diff_json(delta_youden(det, fa))
            row["delta_j_bonferroni"] = diff_json(delta_youden(det, fa, comparisons=m))
        row["bonferroni_models"] = m
    return rows


def changes_quantity(result: "Result") -> bool:
    return (generator_of(result.item), str(planted_meta(result.item).get("mode", ""))) in QUANTITY_CHANGING


def quantity_rows(models: Sequence["RunData"]) -> list[dict[str, Any]] | None:
    """Table 15: result-check detection with and without planted errors that change the reported quantity,
    and the McNemar test of worksheet against result detection without them (Holm over the models).

    None when no planted result check of the given runs carries such an error.
    """
    if not any(changes_quantity(r) for run in models for r in of_kind(run, "result_check").values()
               if is_planted(r.item)):
        return None
    rows = []
    for run in models:
        planted_rc = [r for r in of_kind(run, "result_check").values() if is_planted(r.item)]
        if not planted_rc:
            continue
        kept = [r for r in planted_rc if not changes_quantity(r)]
        pairs = [(w, r) for w, r in paired_checks(run) if is_planted(r.item) and not changes_quantity(r)]
        rows.append({"model": run.label, "all": proportion(sum(map(flagged, planted_rc)), len(planted_rc)),
                     "excluded": proportion(sum(map(flagged, kept)), len(kept)),
                     "paired": _discordant(pairs) if pairs else None})
    tested = [row["paired"] for row in rows if row["paired"] is not None]
    for test, adj in zip(tested, holm([t["p"] for t in tested])):
        test["p_holm"] = adj
    return rows
