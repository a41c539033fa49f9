"""The research report's sections laid out as the CritPt paper lays its tables out (002_* Tables 3, 4, 6)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report.tables import DASH, Section, Table, money, pct, pct_ci, plural
from physbench.suites.research.report_tables import SETTINGS, SHORT, SOLVED_AT_LEAST, SOLVED_OF

MAX_GRIDS = 24   # problems drawn as Table 4 grids; the JSON holds every one


def _cost(per_attempt: Any, total: Any) -> str:
    """'0.11 (0.54)'; four decimals for costs under a cent; a dash when unpriced."""
    if per_attempt is None:
        return DASH
    return (money(per_attempt) if per_attempt >= 0.01 else f"{per_attempt:.4f}") + f" ({money(total)})"


def _tokens(x: Any) -> str:
    return DASH if x is None else f"{x:,.0f}"


def table3_section(rows: Sequence[Mapping[str, Any]], note: str | None, consistency: str | None = None) -> Section:
    """Table 3: one row per configuration; the average accuracy per setting, then the consistently-solved rate."""
    title = "Research metrics"
    if not rows:
        return Section("research", title, note=note or "no graded research steps")
    tables = []
    for s in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == s]
        kinds = [k for k in SETTINGS if any(k in r["columns"] for r in mine)]
        avg = [[r["configuration"], *(f"{pct(c['average'])} ({c['correct']}/{c['n']})" if (c := r["columns"].get(k))
                                      else DASH for k in kinds), str(sum((r.get("ungraded") or {}).values()))]
               for r in mine]
        solved = [[r["configuration"], *((f"{pct(c['consistently_solved'])} ({c['n_solved']}/{c['steps']})"
                                          if c["consistently_solved"] is not None else f"{DASH} ({c['fewest_runs']} runs)")
                                         if (c := r["columns"].get(k)) else DASH for k in kinds)] for r in mine]
        tables.append(Table(f"Average accuracy % (correct/graded), problem set {s}.",
                            ["configuration", *(SETTINGS[k] for k in kinds), "ungraded steps"], avg))
        if kinds:  # a set whose answers are all unknown here has no rate to show
            tables.append(Table(f"Consistently solved % (steps correct in ≥{SOLVED_AT_LEAST} of {SOLVED_OF} runs), "
                                f"problem set {s}.", ["configuration", *(SETTINGS[k] for k in kinds)], solved))
    text = ("As the CritPt paper's Table 3, one row per model configuration (the model with its reasoning settings "
            "and tools; `code` is the agent protocol's Python tool). Average accuracy: correct steps of all graded "
            "steps and repeats. Consistently solved: the share of steps correct in at least 4 of their first 5 "
            "runs (shown where every step has 5 graded runs). Challenges come from the two-step (or agent) runs, "
            "checkpoints without expert answers from checkpoints-self, with them from checkpoints-oracle. The Runs "
            "table counts a checkpoint attempt correct only when all its graded checkpoints are; here each step "
            "counts. Steps whose answer is not known here are `ungraded`: counted apart, in no denominator."
            + (f" Here: {consistency}." if consistency else ""))
    return Section("research", title, text, tables)


def steps_section(rows: Sequence[Mapping[str, Any]]) -> Section:
    """Accuracy per problem, step and setting, one column per configuration, with exact intervals."""
    title = "Accuracy per step"
    if not rows:
        return Section("research-steps", title, note="no graded steps")
    configs = list(dict.fromkeys(r["model"] for r in rows))
    keys = list(dict.fromkeys((r["name"], r["kind"]) for r in rows))
    cell = {(r["model"], r["name"], r["kind"]): r for r in rows}
    body = [[name + (f" · {SHORT[kind]}" if SHORT.get(kind) else "")]
            + [DASH if (c := cell.get((m, name, kind))) is None else
               f"{pct_ci(c['accuracy'], c['ci_low'], c['ci_high'])} ({c['n_correct']}/{c['n']})" for m in configs]
            for name, kind in keys]
    table = Table("Accuracy % (exact 95% CI) (correct/graded runs) per step and setting.",
                  ["problem/step", *configs], body)
    return Section("research-steps", title, "Each challenge or checkpoint graded on its own; a step counts once per "
                   "repeat; `ungraded` steps are left out.", [table])


def _cell(c: Mapping[str, Any] | None) -> str:
    if not c:
        return DASH
    if not c["n"]:
        return "ungraded" if c["ungraded"] else DASH
    return f"{c['k']}/{c['n']}" + (f" (+{c['ungraded']} ungraded)" if c["ungraded"] else "")


def table4_section(grids: Sequence[Mapping[str, Any]]) -> Section:
    """Table 4: per problem, k of n runs correct for each configuration and step; a checkpoint's cell
    holds its settings side by side (without · with expert answers)."""
    title = "Runs correct per problem and step"
    shown = [g for g in grids if g["graded"]]
    hidden = len(grids) - len(shown)
    if not shown:
        return Section("research-grid", title, note=(f"{plural(hidden, 'problem')}, none with a known answer here: their "
                                                      "steps are graded by the official server" if hidden else
                                                      "no research steps"))
    tables = []
    for g in shown[:MAX_GRIDS]:
        steps = list(dict.fromkeys(c["step"] for c in g["columns"]))
        kinds = {st: [c for c in g["columns"] if c["step"] == st] for st in steps}
        forms = list(dict.fromkeys(SHORT[c["kind"]] for c in g["columns"] if SHORT.get(c["kind"])))
        header = ["configuration", *steps]
        body = [[row["configuration"], *(" · ".join(_cell(row["cells"].get(c["key"])) for c in kinds[st])
                                         for st in steps)] for row in g["rows"]]
        tables.append(Table(f"{g['problem']} ({g['set']}): runs correct of those graded"
                            + (f"; checkpoint cells: {' · '.join(forms)}." if forms else "."), header, body))
    text = ("As the CritPt paper's Table 4: k/n is the number of runs (repeats) in which the step was correct, of "
            "those graded; `w/o expert` is self carryover, `w/ expert` oracle carryover.")
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
    order = list(SETTINGS)
    rows = sorted(rows, key=lambda r: (r["configuration"], order.index(r["setting"]) if r.get("setting") in order
                                       else len(order)))
    table = Table("Mean tokens per attempt by kind, and the cost in USD (from --price-table) per attempt, with the "
                  "run's whole cost in brackets.",
                  ["configuration", "setting", "attempts", "input", "cached", "reasoning", "response", "total",
                   "USD / attempt (all)"],
                  [[r["configuration"], SHORT.get(r.get("setting", ""), "") or r.get("setting", ""),
                    str(r["attempts"]), _tokens(r["mean_input"]), _tokens(r["mean_cached"]),
                    _tokens(r["mean_reasoning"]), _tokens(r["mean_response"]), _tokens(r["mean_total"]),
                    _cost(r["cost_per_attempt"], r["cost_total"])] for r in rows],
                  [False, False] + [True] * 7)
    text = ("As the CritPt paper's Table 6, per attempt (the paper's \"run\": one item answered once, every turn "
            "and tool call included). Cached input is part of input; response is the completion less its "
            "reasoning tokens; total = input + reasoning + response. Servers that do not report cached or "
            "reasoning tokens show 0; attempts that got no response count too.")
    return Section("research-tokens", title, text, [table])
