"""The research report's sections laid out as the CritPt paper lays its tables out (002_* Tables 3, 4, 6)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report.tables import DASH, Section, Table, money, pct
from physbench.suites.research.report_tables import SETTINGS, SHORT, SOLVED_AT_LEAST, SOLVED_OF

MAX_GRIDS = 24   # problems drawn as Table 4 grids; the JSON holds every one


def _tokens(x: Any) -> str:
    return DASH if x is None else f"{x:,.0f}"


def table3_section(rows: Sequence[Mapping[str, Any]], note: str | None, consistency: str | None = None) -> Section:
    """Table 3: one row per configuration; average accuracy, then the consistently-solved rate, per setting."""
    title = "Research metrics"
    if not rows:
        return Section("research", title, note=note or "no graded research steps")
    tables = []
    for s in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == s]
        kinds = [k for k in SETTINGS if any(k in r["columns"] for r in mine)]
        header = ["configuration"] + [f"average % · {SHORT[k] or k}" for k in kinds] \
            + [f"solved {SOLVED_AT_LEAST}/{SOLVED_OF} % · {SHORT[k] or k}" for k in kinds] + ["ungraded steps"]
        body = []
        for r in mine:
            cols = r["columns"]
            avg = [f"{pct(c['average'])} ({c['correct']}/{c['n']})" if (c := cols.get(k)) else DASH for k in kinds]
            solved = [(f"{pct(c['consistently_solved'])} ({c['n_solved']}/{c['steps']})"
                       if c["consistently_solved"] is not None else f"{DASH} ({c['fewest_runs']} runs)")
                      if (c := cols.get(k)) else DASH for k in kinds]
            body.append([r["configuration"], *avg, *solved, str(sum((r.get("ungraded") or {}).values()))])
        tables.append(Table(f"Problem set {s}: average accuracy, then the consistently-solved rate, of "
                            + ", ".join(SETTINGS[k] for k in kinds) + ".", header, body))
    text = ("One row per model configuration (the model with its reasoning settings and tools; `code` is the "
            "agent protocol's Python tool). Average accuracy: correct steps of all graded steps and repeats "
            "(k/n). Consistently solved: the share of steps correct in at least 4 of their first 5 runs "
            "(shown only where every step has 5 graded runs). Challenges come from the two-step (or agent) "
            "runs, checkpoints without expert answers from checkpoints-self, with them from checkpoints-oracle. "
            "Steps whose answer is not known here are `ungraded`: counted apart, in no denominator."
            + (f" Here: {consistency}." if consistency else ""))
    return Section("research", title, text, tables)


def _cell(c: Mapping[str, Any] | None) -> str:
    if not c:
        return DASH
    if not c["n"]:
        return "ungraded" if c["ungraded"] else DASH
    return f"{c['k']}/{c['n']}" + (f" (+{c['ungraded']} ungraded)" if c["ungraded"] else "")


def _column_title(col: Mapping[str, Any]) -> str:
    short = SHORT.get(col["kind"], col["kind"])
    return col["step"] if not short else f"{col['step']} · {short}"


def table4_section(grids: Sequence[Mapping[str, Any]]) -> Section:
    """Table 4: per problem, k of n runs correct for each configuration, step and setting."""
    title = "Runs correct per problem and step"
    shown = [g for g in grids if g["graded"]]
    hidden = len(grids) - len(shown)
    if not shown:
        return Section("research-grid", title, note=(f"{hidden} problems, none with a known answer here: their "
                                                      "steps are graded by the official server" if hidden else
                                                      "no research steps"))
    tables = [Table(f"{g['problem']} ({g['set']}): runs correct of those graded.",
                    ["configuration", *(_column_title(c) for c in g["columns"])],
                    [[row["configuration"], *(_cell(row["cells"].get(c["key"])) for c in g["columns"])]
                     for row in g["rows"]]) for g in shown[:MAX_GRIDS]]
    text = ("As the CritPt paper's Table 4: k/n is the number of runs (repeats) in which the step was correct, of "
            "those graded. `w/o expert` is self carryover, `w/ expert` oracle carryover.")
    extra = []
    if len(shown) > MAX_GRIDS:
        extra.append(f"{len(shown) - MAX_GRIDS} more problems are in report.json")
    if hidden:
        extra.append(f"{hidden} problems without a known answer here are left out")
    return Section("research-grid", title, text + (" " + "; ".join(extra) + "." if extra else ""), tables)


def table6_section(rows: Sequence[Mapping[str, Any]]) -> Section:
    """Table 6: tokens by kind per attempt and the cost per attempt, per run."""
    title = "Tokens and cost per attempt"
    if not rows:
        return Section("research-tokens", title, note="no research runs")
    table = Table("Mean tokens per attempt by kind, and cost (USD, from --price-table) per attempt and in all.",
                  ["run", "attempts", "input", "cached input", "reasoning", "response", "total",
                   "cost per attempt", "cost in all"],
                  [[r["run"], str(r["attempts"]), _tokens(r["mean_input"]), _tokens(r["mean_cached"]),
                    _tokens(r["mean_reasoning"]), _tokens(r["mean_response"]), _tokens(r["mean_total"]),
                    money(r["cost_per_attempt"]) if r["cost_per_attempt"] is None or r["cost_per_attempt"] >= 0.01
                    else f"{r['cost_per_attempt']:.4f}", money(r["cost_total"])] for r in rows])
    text = ("As the CritPt paper's Table 6, per attempt (the paper's \"run\": one item answered once, every turn "
            "and tool call included). Cached input is part of input; response is the completion less its "
            "reasoning tokens; total = input + reasoning + response. Servers that do not report cached or "
            "reasoning tokens show 0; attempts that got no response count too.")
    return Section("research-tokens", title, text, [table])
