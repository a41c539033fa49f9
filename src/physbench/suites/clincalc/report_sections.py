"""The clincalc report's statistics tables (003_* Tables 1, 3, 2/7, 12, 13, 8, 14, 24 and per-calculator accuracy)
rendered from the data of report_stats; percentages to two decimals as the paper prints them."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report.tables import DASH, Section, Table, pvalue


def _pct(x: Any, digits: int = 2) -> str:
    return DASH if x is None else f"{100 * x:.{digits}f}"


def _pp(x: Any) -> str:
    return DASH if x is None else f"{100 * x:+.2f}"


def _ci(pair: Sequence[float] | None) -> str:
    return DASH if not pair else f"[{100 * pair[0]:.2f}, {100 * pair[1]:.2f}]"


def _num(x: Any, digits: int = 2) -> str:
    return DASH if x is None else f"{x:.{digits}f}"


def _ladder_cell(c: Mapping[str, Any] | None) -> str:
    if c is None:
        return DASH
    text = _pct(c["accuracy"]) + ("" if c["seed_sd"] is None else f" ({_pct(c['seed_sd'])})")
    marks = [f"{c['cases']} cases"] if c["subset"] else []
    marks += ["1 seed"] if c["seeds"] == 1 else []
    return text + (f" [{', '.join(marks)}]" if marks else "")


def ladder_table(ladder: Mapping[str, Any]) -> Table:
    """Table 3: arms in the paper's ladder order down, models across."""
    columns = list(ladder["columns"])
    body = [[r["name"], *[_ladder_cell(r["cells"].get(col)) for col in columns]] for r in ladder["rows"]]
    return Table("Accuracy (%) per arm and model: mean over seeds (seed SD, pp); [n cases]: fewer cases than the "
                 "model's largest run", ["Arm", *columns], body, [False, *[True] * len(columns)])


def accuracy_section(rows: list[dict[str, Any]], note: str, ladder: Mapping[str, Any] | None = None) -> Section:
    if not rows:
        return Section("clincalc-accuracy", "Accuracy per arm", note=note)
    body = [[r["run"], r["arm"], str(r["cases"]), str(r["seeds"]), _pct(r["accuracy"]), _pct(r["seed_sd"])]
            for r in rows]
    table = Table("Accuracy (%), mean over seeds, with the seed standard deviation (pp)",
                  ["Run", "Arm", "Cases", "Seeds", "Accuracy", "Seed SD"], body, [False, False, True, True, True, True])
    tables = [ladder_table(ladder), table] if ladder and ladder.get("rows") else [table]
    return Section("clincalc-accuracy", "Accuracy per arm", "Each seed's accuracy over its cases, then the mean and "
                   "the sample standard deviation over seeds; the first table orders the arms as the paper's "
                   "ladder, the second lists every run (003_* Tables 1, 3).", tables)


def audit_gaps_section(rows: list[dict[str, Any]], note: str) -> Section:
    """Table 12: each paired gap on all calculators, without the replaced ones, and on the unflagged ones."""
    title = "Paired gaps without the audit-flagged calculators"
    if not rows:
        return Section("clincalc-audit-gaps", title, note=note)
    body = [[r["family"], f"{r['first']} − {r['second']}", r["set_label"], str(r["calculators"]), str(r["cases"]),
             str(r["seeds"]), _pp(r["gap"]), _ci(r["cluster_ci"])] for r in rows]
    table = Table("Paired gaps (pp), first run minus second, on three calculator sets",
                  ["Family", "Comparison", "Calculator set", "Calcs", "Cases", "Seeds", "Gap (pp)", "Cluster CI"],
                  body, [False, False, False, *[True] * 5])
    return Section("clincalc-audit-gaps", title, "Every paired gap of the gap table recomputed on all calculators, "
                   "on those a guideline has not replaced (dropping the 4), and on the 39 the formula audit found no "
                   "issue with (dropping all 16 flagged): a comparison whose sign or interval moves leans on the "
                   "disputed formulas. Calculator-cluster 95% intervals, 10,000 draws (003_* Tables 11-12).", [table])


def audit_accuracy_section(rows: list[dict[str, Any]], note: str) -> Section:
    """Table 13: each run's accuracy inside each audit group."""
    title = "Accuracy by audit group"
    if not rows:
        return Section("clincalc-audit", title, note=note)
    body = [[r["run"], r["group_label"], str(r["calculators"]), str(r["cases"]), str(r["seeds"]), _pct(r["accuracy"]),
             _pct(r["seed_sd"]), _ci(r["cluster_ci"])] for r in rows]
    table = Table("Accuracy (%) per run and audit group, mean over seeds",
                  ["Run", "Audit group", "Calcs", "Cases", "Seeds", "Accuracy", "Seed SD", "Cluster CI"], body,
                  [False, False, *[True] * 6])
    return Section("clincalc-audit", title, "Calculators grouped by the literature audit of their formulas: "
                   "replaced by a current guideline (4), another version, use or coefficient concern (12), both "
                   "together (16 flagged), no issue identified (39); a group with few calculators is indicative "
                   "only. Calculator-cluster 95% intervals (003_* Tables 11, 13).", [table])


def gaps_section(rows: list[dict[str, Any]], note: str) -> Section:
    if not rows:
        return Section("clincalc-gaps", "Paired gaps", note="no two runs of one model (or model-free) share cases")
    body = [[r["family"], f"{r['first']} − {r['second']}", str(r["cases"]), str(r["seeds"]), _pp(r["gap"]),
             _ci(r["cluster_ci"]), _ci(r["case_ci"]), pvalue(r["permutation_p_holm"]), pvalue(r["mcnemar_p_holm"]),
             _num(r["icc"]), _num(r["n_eff"], 0)] for r in rows]
    header = ["Family", "Comparison", "Cases", "Seeds", "Gap (pp)", "Cluster CI", "Case CI", "Perm. p (Holm)",
              "McNemar p (Holm)", "ICC", "n_eff"]
    table = Table("Paired gaps, first run minus second, on shared cases and seeds", header, body,
                  [False, False, *[True] * 9])
    return Section("clincalc-gaps", "Paired gaps", "Gap in percentage points over every shared case-seed pair; "
                   "95% percentile intervals from 10,000 draws resampling calculators (cluster) or cases, a case's "
                   "seeds kept together; sign-flip permutation p on seed-averaged per-case gaps and exact McNemar p "
                   "on discordant case-seed pairs, each Holm-adjusted within the family (one model, with the runs "
                   "that call no model); ICC of the per-case gaps within calculators and the effective number of "
                   "cases (003_* Tables 2, 7).", [table])


def program_section(rows: list[dict[str, Any]], note: str) -> Section:
    if not rows:
        return Section("clincalc-outcomes", "Outcomes", note=note)
    keys = ("no_program", "rejected", "raised", "bad_kind", "unreadable", "abstained")
    body = [[r["run"], str(r["seeds"]), str(r["rows"]), _pct(r["accuracy"]), _pct(r["attempted_accuracy"]),
             _pct(r["date_accuracy"]), *[str(r["counts"][k]) for k in keys]] for r in rows]
    header = ["Run", "Seeds", "Rows", "Accuracy", "Att.", "Dates", "No prog.", "Rejected", "Raised", "Bad kind",
              "Unread.", "Abstained"]
    table = Table("Every case-seed row under the outcome taxonomy, seeds pooled", header, body,
                  [False, *[True] * 11])
    return Section("clincalc-outcomes", "Outcomes", "Accuracy (%) over all rows, on attempted rows (a program "
                   "ran or an answer was given) and on date cases; counts of rows with no valid answer by why "
                   "(003_* Table 8).", [table])


def sets_section(rows: list[dict[str, Any]], note: str) -> Section:
    if not rows:
        return Section("clincalc-sets", "Right, wrong and none by library coverage", note=note)
    body = [[r["run"], r["set"], str(r["rows"]), _pct(r["right"], 1), _pct(r["wrong"], 1), _pct(r["none"], 1),
             _pct(r["no_output"], 1), _pct(r["executor_failure"], 1), _pct(r["unreadable"], 1)] for r in rows]
    header = ["Run", "Set", "Rows", "Right", "Wrong", "None", "No output", "Executor failure", "Unreadable"]
    table = Table("Outcome of every case-seed row (%), by whether the library covers the calculator", header, body,
                  [False, False, *[True] * 7])
    return Section("clincalc-sets", "Right, wrong and none by library coverage", "Covered: calculators the "
                   "gold-solve library answers in the runs of this report (every calculator when no library run is "
                   "given); seeds pooled (003_* Table 14).", [table])


def agreement_section(rows: list[dict[str, Any]], note: str) -> Section:
    if not rows:
        return Section("clincalc-agreement", "Agreement across seeds", note="no run with two seeds or more")
    body = [[r["run"], str(r["cases"]), str(r["seeds"]), _pct(r["accuracy"]), _pct(r["seed_sd"]), _pct(r["agree"], 1),
             _pct(r["pairwise"], 1), _pct(r["right"], 1), _pct(r["wrong"], 1)] for r in rows]
    header = ["Run", "Cases", "Seeds", "Accuracy", "Seed SD", "Agree", "Pairwise", "Right", "Wrong"]
    table = Table("Agreement across seeds (%)", header, body, [False, *[True] * 8])
    return Section("clincalc-agreement", "Agreement across seeds", "Agree: cases every seed scores alike; Pairwise: "
                   "mean over seed pairs; Right / Wrong: unanimous cases (003_* Table 24).", [table])


def calculators_section(rows: list[dict[str, Any]], note: str) -> Section:
    if not rows:
        return Section("clincalc-calculators", "Accuracy per calculator", note=note)
    runs = list(dict.fromkeys(r["run"] for r in rows))
    cell = {(r["run"], r["calculator"]): r for r in rows}
    names = {r["calculator"]: r["name"] for r in rows}
    body = [[f"{c} {names[c]}", *[DASH if (x := cell.get((run, c))) is None else f"{_pct(x['accuracy'], 1)} ({x['n']})"
                                  for run in runs]] for c in sorted(names)]
    table = Table("Accuracy (%) per calculator, case-seeds pooled (rows)", ["Calculator", *runs], body)
    return Section("clincalc-calculators", "Accuracy per calculator", "", [table])


def stat_sections(a: Mapping[str, Any], note: str) -> list[Section]:
    """The statistics sections, in the paper's order."""
    return [accuracy_section(a.get("arms") or [], note, a.get("ladder")), gaps_section(a.get("gaps") or [], note),
            audit_gaps_section(a.get("audit_gaps") or [], "no two runs of one model share cases of two calculators "
                               "or more"),
            audit_accuracy_section(a.get("audit_accuracy") or [], note),
            program_section(a.get("program_outcomes") or [], note), sets_section(a.get("outcome_sets") or [], note),
            agreement_section(a.get("agreement") or [], note), calculators_section(a.get("calculators") or [], note)]
