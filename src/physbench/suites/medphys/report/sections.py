"""Sections of the report for MedPhysBench runs (seed 000 Tables 2, 9, 12, 15, 17-22, Section F)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from physbench.core.errors import UserError
from physbench.suites.medphys.generators import get_generator

from physbench.suites.medphys.report.analyses import ERROR_KINDS, SIZE_BINS
from physbench.report.breakdown import FEW, share_cell
from physbench.report.tables import (
    DASH, Section, Table, diff, estimate, frac, frac_of, money, number, pct, pct_ci, pct_n, pvalue,
)


def _acc(cell: Mapping[str, Any] | None) -> str:
    return DASH if not cell else pct_ci(cell["accuracy"], cell["ci_low"], cell["ci_high"])


def generator_names(codes: Iterable[str]) -> str:
    """'tg51 = Photon beam calibration, AAPM TG-51 ...; mu = ...': each generator code with its title, once."""
    parts = []
    for code in dict.fromkeys(codes):
        try:
            gen = get_generator(code)
        except UserError:  # a generator this version does not know: its code alone
            parts.append(code)
            continue
        parts.append(f"{code} = {gen.title}, {gen.document}")
    return "; ".join(parts)


def scores_section(med: Mapping[str, Any]) -> Section:
    rows = []
    for r in med["scores"]:
        ws, rc = r.get("worksheet") or {}, r.get("result") or {}
        rows.append([r["model"], _acc(r["calculation"]), pct((r["level3"] or {}).get("accuracy")),
                     pct(ws.get("detection", {}).get("value")), pct(ws.get("false_alarms", {}).get("value")),
                     number((ws.get("j") or {}).get("value")), pct(rc.get("detection", {}).get("value")),
                     pct(rc.get("false_alarms", {}).get("value")), number((rc.get("j") or {}).get("value")),
                     money(r["cost_usd"])])
    table = Table("Calculation accuracy (exact 95% CI) and at level 3; worksheet and result checks: detection "
                  "(Det.), false alarms (FA), both in %, and Youden's J; cost of the run in USD.",
                  ["model", "calculation % (95% CI)", "L3 %", "worksheet Det.", "worksheet FA", "worksheet J",
                   "result Det.", "result FA", "result J", "cost"], rows)
    tables = [table]
    acc = med.get("accuracy") or {}
    if acc.get("completed"):
        done = {r["model"]: r for r in acc["completed"]}
        tables.append(Table(
            "Calculation accuracy over every response and over the completed ones only, leaving out responses "
            "that were blocked, stopped short or truncated without an answer (Table 2's figure in parentheses), "
            "% (exact 95% CI).",
            ["model", "items", "completed", "accuracy % (95% CI)", "on completed % (95% CI)"],
            [[r["model"], str(r["n"]), str(done[r["model"]]["n"]), _acc(r), _acc(done[r["model"]])]
             for r in acc["overall"] if r["model"] in done]))
    return Section("scores", "Scores", "One line per model, as the MedPhysBench paper summarises a run in its Table 2.", tables)


def accuracy_section(acc: Mapping[str, Any] | None, note: str | None) -> Section:
    title = "Calculation accuracy"
    if acc is None:
        return Section("accuracy", title, note=note)
    overall = Table("Share of calculation items answered within the band, with exact (Clopper-Pearson) 95% intervals.",
                    ["model", "items", "correct", "accuracy % (95% CI)"],
                    [[r["model"], str(r["n"]), str(r["n_correct"]), _acc(r)] for r in acc["overall"]])
    models = [r["model"] for r in acc["overall"]]
    levels = sorted({r["level"] for r in acc["by_level"]})
    level_cell = {(r["model"], r["level"]): r for r in acc["by_level"]}
    by_level = Table("Accuracy by level, % (exact 95% CI).", ["model"] + [f"level {lv}" for lv in levels],
                     [[m] + [_acc(level_cell.get((m, lv))) for lv in levels] for m in models])
    cells = sorted({(r["generator"], r["level"]) for r in acc["by_cell"]})
    grid = {(r["model"], r["generator"], r["level"]): r for r in acc["by_cell"]}

    def cell_text(m: str, g: str, lv: int) -> str:
        c = grid.get((m, g, lv))
        return DASH if not c else share_cell(c)

    by_cell = Table(f"Accuracy by generator and level: correct/items and % (exact 95% CI; the count alone in a "
                    f"cell of fewer than {FEW} items).",
                    ["generator", "level"] + models,
                    [[g, str(lv)] + [cell_text(m, g, lv) for m in models] for g, lv in cells],
                    [False, True] + [True] * len(models))
    text = ("Calculation items only; one response per item (the first of the primary run). Generators: "
            + generator_names(g for g, _ in cells) + ".")
    return Section("accuracy", title, text, [overall, by_level, by_cell], figures=["accuracy_by_level", "accuracy_letters"])


def checking_section(med: Mapping[str, Any], note: str | None) -> Section:
    title = "Checking"
    rows_in = med.get("checking")
    if not rows_in:
        return Section("checking", title, note=note)
    counts = []
    for r in rows_in:
        p, c = r["planted"], r["correct"]
        counts.append([r["model"], r["format"], str(p["n"]), str(p["flagged"]),
                       str(p["localized"]) if r["format"] == "worksheet" else DASH, str(p["corrected"]),
                       str(p["none"]), str(c["n"]), str(c["accepted"]), str(c["flagged"]), str(c["none"])])
    table9 = Table("Planted errors: flagged, localised (first wrong step named), corrected (proposed value within "
                   "the band), no verdict; correct calculations: accepted, flagged, no verdict.",
                   ["model", "format", "planted n", "flagged", "localised", "corrected", "none", "correct n",
                    "accepted", "flagged", "none"], counts, [False, False] + [True] * 9)
    rates = []
    for r in rows_in:
        ra = r["real_alarms"] or {}
        rates.append([r["model"], r["format"], estimate(r["detection"]), estimate(r["false_alarms"]), diff(r["j"]),
                      pct(ra.get("share")), pct(ra.get("lower")), pct(ra.get("upper"))])
    rates_table = Table("Detection and false alarms, % (exact 95% CI); Youden's J (Newcombe hybrid score 95% CI); "
                        "share of alarms that would be real if 1% of checked calculations were wrong, % "
                        "(point estimate, conservative one-sided 95% lower and upper bounds, which do not form a "
                        "two-sided interval).",
                        ["model", "format", "detection % (95% CI)", "false alarms % (95% CI)", "J (95% CI)",
                         "real alarms at 1%", "lower bound", "upper bound"], rates, [False, False] + [True] * 6)
    verdict_only = Table("Youden's J over every response (as above) and over the responses with a verdict only, "
                         "which leaves the checks without one out of both denominators (Newcombe hybrid score 95% "
                         "CI).",
                         ["model", "format", "J (95% CI)", "planted with a verdict", "correct with a verdict",
                          "J with a verdict (95% CI)"],
                         [[r["model"], r["format"], diff(r["j"]), str(r["j_verdict"]["planted_n"]),
                           str(r["j_verdict"]["correct_n"]), diff(r["j_verdict"]["j"])] for r in rows_in],
                         [False, False] + [True] * 4)
    text = ("A response without a verdict is a miss on a planted error and neither an alarm nor an acceptance on a "
            "correct calculation; detection uses the verdict alone (MedPhysBench paper, Table 9 and Section F).")
    return Section("checking", title, text, [table9, rates_table, verdict_only], figures=["operating_points"])


def formats_section(rows: Any, note: str | None) -> Section:
    title = "Worksheet against result checks"
    if not rows:
        return Section("formats", title, note=note)

    def disc(t: Mapping[str, Any] | None) -> list[str]:
        if not t:
            return [DASH] * 4
        return [str(t["worksheet_only"]), str(t["result_only"]), pvalue(t["p"]), pvalue(t["p_holm"])]

    table12 = Table("Discordant pairs on the same draws: flagged in the worksheet only or in the result only; exact "
                    "McNemar p and p after Holm's adjustment over all comparisons (two per model).",
                    ["model", "detected: worksheet only", "result only", "p", "p (Holm)",
                     "false alarms: worksheet only", "result only", "p", "p (Holm)"],
                    [[r["model"]] + disc(r["detection"]) + disc(r["false_alarms"]) for r in rows])
    m = rows[0]["bonferroni_models"]
    delta = Table(f"ΔJ = J(result) − J(worksheet) on the paired draws: Newcombe paired score intervals joined by "
                  f"MOVER, 95% and with a Bonferroni adjustment over {m} model(s).",
                  ["model", "J worksheet", "J result", "ΔJ (95% CI)", "ΔJ (Bonferroni CI)"],
                  [[r["model"], diff(r["j_worksheet"]), diff(r["j_result"]), diff(r["delta_j"]),
                    diff(r["delta_j_bonferroni"])] for r in rows])
    return Section("formats", title, "Both formats show the same draws, so the comparison is paired.",
                   [table12, delta], figures=["delta_j"])


def quantity_section(rows: Any, note: str | None) -> Section:
    title = "Result checks whose planted error changes the quantity"
    if not rows:
        return Section("quantity", title, note=note)
    table = Table("Result-check detection, % (exact 95% CI), with all planted errors and without those that report "
                  "another quantity (MU for the course, output at 10 cm); McNemar test of worksheet against result "
                  "detection without them, Holm over the models.",
                  ["model", "all", "n", "excluded", "n", "p", "p (Holm)"],
                  [[r["model"], estimate(r["all"]), str(r["all"]["n"]), estimate(r["excluded"]), str(r["excluded"]["n"]),
                    pvalue((r["paired"] or {}).get("p")), pvalue((r["paired"] or {}).get("p_holm"))] for r in rows])
    return Section("quantity", title, "As in the MedPhysBench paper, Table 15.", [table])


def kinds_sizes_section(rows: Any, note: str | None) -> Section:
    title = "Detection by kind and size of error"
    if not rows:
        return Section("kinds_sizes", title, note=note)
    kinds = Table("Planted errors flagged, by kind: an omitted factor, a wrong formula or quantity, a unit slip, an "
                  "arithmetic slip (flagged/planted).", ["model", "format"] + list(ERROR_KINDS),
                  [[r["model"], r["format"]] + [frac_of(r["by_kind"][k]) for k in ERROR_KINDS] for r in rows],
                  [False, False] + [True] * len(ERROR_KINDS))
    sizes = Table("Planted errors flagged, by how far they move the final result: % (planted n).",
                  ["model", "format"] + list(SIZE_BINS),
                  [[r["model"], r["format"]] + [pct_n(r["by_size"][b]["k"], r["by_size"][b]["n"]) for b in SIZE_BINS]
                   for r in rows], [False, False] + [True] * len(SIZE_BINS))
    return Section("kinds_sizes", title, "As in the MedPhysBench paper, Tables 19 and 20.", [kinds, sizes], figures=["detection_by_size"])


def attribution_section(attr: Any, note: str | None) -> Section:
    title = "What the wrong answers were"
    if not attr:
        return Section("attribution", title, note=note)
    rates = Table(f"Failed calculation items, how many gave a number, the share within the band of at least one "
                  f"named error mode's answer, the same share under the null, and the one-sided p of the observed "
                  f"share under the null ({attr['draws']} reassignments).",
                  ["model", "failed", "with a number", "attributed", "rate %", "null %", "p"],
                  [[r["model"], str(r["failures"]), str(r["numeric"]), str(r["attributed"]), pct(r["rate"]),
                    pct(r["null_rate"]), pvalue(r["p"])] for r in attr["rows"]])
    modes = Table("Error modes that wrong answers matched most closely.", ["generator", "error mode", "answers",
                                                                           "models (answers)"],
                  [[m["generator"], f"{m['mode']}: {m['description']}", str(m["answers"]),
                    ", ".join(f"{k} {v}" for k, v in m["models"].items())] for m in attr["modes"][:20]],
                  [False, False, True, False])
    text = ("A wrong answer is attributed when it lies within the item's band of an error mode's answer on that "
            "item; the null applies each wrong answer's ratio to its reference to the other items of the same "
            "generator and level (MedPhysBench paper, Section G). A numeric match can name the wrong error.")
    return Section("attribution", title, text, [rates, modes])


def comparator_section(comp: Any, solved: Any, real: Any, note: str | None) -> Section:
    title = "Where the false alarms came from"
    if not comp and not solved:
        return Section("comparator", title, note=note)
    tables = []
    if comp:
        share = {(r["model"], r["format"]): (r["real_alarms"] or {}).get("share") for r in real or []}
        tables.append(Table(
            "Correct result checks whose calculation item the model also answered: the model's false alarms, a "
            "comparator that flags the result when it differs from the model's own answer by more than the band "
            "(or when it gave none), Cohen's κ between the two (no verdict = not flagged), false alarms proposing "
            "the model's own value, false alarms proposing a value outside the band, and real alarms at 1% for "
            "result and worksheet checks (point estimates, %).",
            ["model", "n", "false alarms %", "comparator %", "κ", "own value", "wrong correction",
             "real alarms: result", "worksheet"],
            [[r["model"], str(r["n"]), pct(r["false_alarm_rate"]), pct(r["comparator_rate"]), number(r["kappa"]),
              frac_of(r["own_value"]), frac_of(r["wrong_correction"]), pct(share.get((r["model"], "result")), 0),
              pct(share.get((r["model"], "worksheet")), 0)] for r in comp]))
    if solved:
        def part(t: Mapping[str, Any] | None, miss: bool) -> list[str]:
            if not t:
                return [DASH] * 3
            def rate(x: Mapping[str, Any]) -> str:
                if not x["n"]:
                    return DASH
                k = x["n"] - x["events"] if miss else x["events"]
                return f"{pct(k / x['n'], 0)} ({frac(k, x['n'])})"
            return [rate(t["solved"]), rate(t["unsolved"]), f"{pvalue(t['p'])} ({t['informative_cells']})"]
        tables.append(Table(
            "By whether the model solved the matched calculation: result-check false alarms and worksheet "
            "detection, % (count); p: one-sided exact conditional test within generator-level cells that an "
            "unsolved calculation raises the chance of a false alarm (or of a miss), informative cells in "
            "parentheses.",
            ["model", "false alarms: solved", "not solved", "p (cells)", "worksheet detection: solved",
             "not solved", "p (cells)"],
            [[r["model"]] + part(r["false_alarms"], False) + part(r["worksheet_misses"], True) for r in solved]))
    return Section("comparator", title, "As in the MedPhysBench paper, Section I and Tables 21 and 22.", tables)
