"""The CritPt paper's tables as data (002_* Tables 3, 4 and 6): per model configuration the average
accuracy and consistently-solved rate of challenges and of checkpoints without and with expert
answers, the k/n grid per problem and step, and tokens by kind with the cost per attempt.

A configuration is what the paper calls a model: the model spec with its reasoning settings and
tools (`agent` = "code"); the protocol picks the column, so a model's two-step, self-carryover and
oracle runs fill one row. Steps graded `ungraded` (answer not known here) are counted apart.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.report.loading import item_options, settings
from physbench.report.summary import accuracy_cell
from physbench.suites.research.metrics import average_accuracy, consistently_solved_rate

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

# the columns of Table 3, by item kind (the mode): the paper's three, and the in-conversation form
SETTINGS = {"challenge": "challenge", "checkpoints-self": "checkpoints w/o expert answer",
            "checkpoints-oracle": "checkpoints w/ expert answer",
            "checkpoints-oracle-multiturn": "checkpoints w/ expert answer (in conversation)"}
SHORT = {"challenge": "", "checkpoints-self": "w/o expert", "checkpoints-oracle": "w/ expert",
         "checkpoints-oracle-multiturn": "w/ expert, in conversation"}
SOLVED_AT_LEAST, SOLVED_OF = 4, 5     # 002_* Section 4.3: correct in at least 4 of 5 runs
DEFAULT_SET = "tutorial"
OWN_OPTIONS = ("mode", "problems")    # item options the table lays out itself


def problem_set(run: "RunData") -> str:
    return item_options(run.manifest).get("problems") or DEFAULT_SET


def configuration(run: "RunData") -> str:
    """'openai/gpt-5 (effort=high, code)': the model spec, its reasoning settings and tools, and any
    other option or protocol that changes what is asked (e.g. `direct` instead of the two-step answer)."""
    m = run.manifest
    protocol = str(m.protocol).split(":", 1)[0]
    spec = m.model_spec if m.model_spec != "none" else protocol
    parts = settings(m)
    if protocol == "agent":
        parts.append("code")
    elif protocol not in SETTINGS and protocol != "two-step":
        parts.append(protocol)
    options = item_options(m)
    parts += [f"{k}={v}" for k, v in sorted(options.items()) if k not in OWN_OPTIONS]
    return f"{spec} ({', '.join(parts)})" if parts else spec


def step_outcomes(r: "Result") -> Iterable[tuple[str, str]]:
    """(step id, outcome) for each step the grade names; an attempt that ended without a reply (its grade
    names no step) is that outcome (`failed`: no credit) on every step of its item."""
    detail = r.grade.detail if r.grade is not None and isinstance(r.grade.detail, Mapping) else {}
    steps = [s for s in detail.get("steps") or () if isinstance(s, Mapping)]
    if not steps:
        outcome = (r.grade.outcome if r.grade is not None else None) or "failed"
        for step in r.item.reference.get("steps") or ():
            yield str(step), outcome
    for s in steps:
        yield str(s.get("step")), str(s.get("outcome"))


Cells = dict[tuple[str, str, str, str, str], list[bool]]   # (set, config, kind, problem, step) -> runs


def collect(models: Sequence["RunData"]) -> tuple[Cells, dict[tuple[str, str, str, str, str], int], dict]:
    """Correctness per cell over repeats (graded steps only), ungraded counts per cell, step order per problem."""
    cells: Cells = defaultdict(list)
    ungraded: dict[tuple[str, str, str, str, str], int] = defaultdict(int)
    order: dict[tuple[str, str], list[str]] = defaultdict(list)   # (set, problem) -> step ids as asked
    for run in models:
        pset, config = problem_set(run), configuration(run)
        for r in sorted(run.results, key=lambda r: r.repeat):
            problem = str(r.item.reference.get("problem", r.item.id))
            for step, outcome in step_outcomes(r):
                if step not in order[(pset, problem)]:
                    order[(pset, problem)].append(step)
                key = (pset, config, r.item.kind, problem, step)
                if outcome == "ungraded":
                    ungraded[key] += 1
                else:
                    cells[key].append(outcome == "correct")
    return cells, ungraded, order


def step_accuracy(cells: Cells) -> list[dict[str, Any]]:
    """Per problem, step and setting, per configuration: correct of graded runs with the exact 95% interval."""
    kinds = list(SETTINGS)
    order = sorted(cells, key=lambda k: (k[0], k[3], k[2] != "challenge", k[4], kinds.index(k[2]) if k[2] in kinds
                                         else len(kinds), k[1]))
    return [{"set": s, "model": c, "kind": k, "name": f"{p}/{st}", **{x: v for x, v in accuracy_cell(
        f"{p}/{st}", len(cells[(s, c, k, p, st)]), sum(cells[(s, c, k, p, st)])).items() if x != "name"}}
        for (s, c, k, p, st) in order]


def table3(cells: Cells, ungraded: Mapping[tuple, int]) -> list[dict[str, Any]]:
    """Per problem set and configuration: {kind: {average, correct, n, solved, steps, runs}} (Table 3)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for kind in SETTINGS:
        runs = {(s, c, p + "/" + st): v for (s, c, k, p, st), v in cells.items() if k == kind}
        by_row: dict[tuple[str, str], dict[tuple[str, str, str], list[bool]]] = defaultdict(dict)
        for (s, c, step), v in runs.items():
            by_row[(s, c)][(c, "", step)] = v
        for (s, c), grid in by_row.items():
            fewest = min(len(v) for v in grid.values())
            avg = average_accuracy(grid)[c]
            solved = consistently_solved_rate(grid, SOLVED_AT_LEAST, SOLVED_OF)[c] if fewest >= SOLVED_OF else None
            row = out.setdefault((s, c), {"set": s, "configuration": c, "columns": {}})
            row["columns"][kind] = {"average": avg, "correct": sum(sum(v) for v in grid.values()),
                                    "n": sum(len(v) for v in grid.values()), "steps": len(grid), "fewest_runs": fewest,
                                    "consistently_solved": solved,
                                    "n_solved": None if solved is None else round(solved * len(grid))}
    for (s, c, k, _, _), n in ungraded.items():
        row = out.setdefault((s, c), {"set": s, "configuration": c, "columns": {}})
        row.setdefault("ungraded", {}).setdefault(k, 0)
        row["ungraded"][k] += n
    rows = list(out.values())
    rows.sort(key=lambda r: (r["set"], -max((v["average"] for v in r["columns"].values()), default=-1),
                             r["configuration"]))
    return rows


def table4(cells: Cells, ungraded: Mapping[tuple, int], order: Mapping[tuple[str, str], list[str]]
           ) -> list[dict[str, Any]]:
    """Per problem: columns (step, kind) in the order asked, rows per configuration of 'k/n' cells (Table 4)."""
    problems: dict[tuple[str, str], dict[str, Any]] = {}
    for (s, c, k, p, st) in [*cells, *ungraded]:
        entry = problems.setdefault((s, p), {"set": s, "problem": p, "columns": set(), "rows": defaultdict(dict)})
        entry["columns"].add((st, k))
        v = cells.get((s, c, k, p, st), [])
        u = ungraded.get((s, c, k, p, st), 0)
        entry["rows"][c][f"{st}|{k}"] = {"k": sum(v), "n": len(v), "ungraded": u}
    out = []
    kinds = list(SETTINGS)
    for (s, p), e in sorted(problems.items()):
        steps = order.get((s, p), [])
        cols = sorted(e["columns"], key=lambda sk: (sk[1] != "challenge",  # the challenge first, as the paper
                                                    steps.index(sk[0]) if sk[0] in steps else len(steps),
                                                    kinds.index(sk[1]) if sk[1] in kinds else len(kinds)))
        graded = any(cell["n"] for row in e["rows"].values() for cell in row.values())
        out.append({"set": s, "problem": p, "graded": graded,
                    "columns": [{"step": st, "kind": k, "key": f"{st}|{k}"} for st, k in cols],
                    "rows": [{"configuration": c, "cells": cells_} for c, cells_ in sorted(e["rows"].items())]})
    return out


def table6(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Per run: mean tokens per attempt by kind (input, cached input, reasoning, response) and cost (Table 6).

    Response tokens are the completion tokens less the reasoning tokens (OpenAI counts reasoning inside
    the completion); attempts without a response count too, since their tokens were spent."""
    rows = []
    for run in models:
        # every attempt once: `results` holds the failed ones too (`failures` lists them again)
        attempts = list({(a.item.id, a.repeat): a for a in [*run.failures, *run.results]}.values())
        sums = defaultdict(int)
        costs = [a.cost for a in attempts if a.cost is not None]
        for a in attempts:
            u = a.usage or {}
            sums["input"] += int(u.get("prompt_tokens", 0))
            sums["cached"] += int(u.get("cached_tokens", 0))
            sums["reasoning"] += int(u.get("reasoning_tokens", 0))
            sums["response"] += max(int(u.get("completion_tokens", 0)) - int(u.get("reasoning_tokens", 0)), 0)
        n = len(attempts)
        mean = {k: (v / n if n else None) for k, v in sums.items()}
        kind = next((a.item.kind for a in attempts), "challenge")
        rows.append({"run": run.label, "configuration": configuration(run), "protocol": run.manifest.protocol,
                     "setting": kind,
                     "attempts": n, **{f"mean_{k}": mean.get(k) for k in ("input", "cached", "reasoning", "response")},
                     "mean_total": (sums["input"] + sums["reasoning"] + sums["response"]) / n if n else None,
                     "cost_per_attempt": sum(costs) / len(costs) if costs else None,
                     "cost_total": sum(costs) if costs else None, "priced": len(costs)})
    return rows
