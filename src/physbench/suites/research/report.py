"""The research report (002_* Section 4): accuracy per checkpoint with exact intervals, and per model
the average accuracy and the consistently-solved rate over repeats (solved in 4 of 5 runs)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.report.breakdown import accuracy_by, accuracy_section
from physbench.report.registry import SuiteReport
from physbench.report.tables import Section, Table, pct
from physbench.suites.research.metrics import average_accuracy, consistently_solved_rate

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result


def step_results(r: "Result") -> Iterable[tuple[str, bool]]:
    """(problem/step, correct) for each step the grade names; an attempt without a reply (no steps
    graded) counts as wrong on every step of its item."""
    detail = r.grade.detail if r.grade is not None else {}
    problem = str(r.item.reference.get("problem", r.item.id))
    steps = [s for s in detail.get("steps") or () if isinstance(s, Mapping)]
    if not steps:
        for step in r.item.reference.get("steps") or ():
            yield f"{problem}/{step}", False
    for s in steps:
        yield f"{problem}/{s.get('step')}", s.get("correct") is True


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any] | None:
    steps = accuracy_by(models, step_results)
    if not steps:
        notes["research"] = "no graded research responses"
        return None
    runs: dict[tuple[str, str, str], list[bool]] = defaultdict(list)
    for run in models:
        for r in run.results:
            for name, correct in step_results(r):
                problem, _, step = name.partition("/")
                runs[(run.label, problem, step)].append(correct)
    avg, solved = average_accuracy(runs), consistently_solved_rate(runs)
    fewest = {m: min(len(v) for (model, _, _), v in runs.items() if model == m) for m in avg}
    if any(n < 5 for n in fewest.values()):
        notes["research-consistency"] = "the consistently-solved rate needs 5 runs of every step (--repeats 5)"
    return {"steps": steps, "metrics": [{"model": m, "average_accuracy": avg[m], "runs": fewest[m],
                                         "consistently_solved": solved[m] if fewest[m] >= 5 else None} for m in avg]}


def sections(analyses: Mapping[str, Any], notes: Mapping[str, str]) -> list[Section]:
    a = analyses
    metrics = Table("CritPt metrics", ["model", "runs per step", "average accuracy %",
                                       "consistently solved % (4 of 5 runs)"],
                    [[m["model"], str(m["runs"]), pct(m["average_accuracy"]), pct(m["consistently_solved"])]
                     for m in a["metrics"]])
    steps = accuracy_section("research-steps", "Accuracy per step", "Each challenge or checkpoint graded on its "
                             "own; a step counts once per repeat.", "problem/step", a["steps"], "no graded steps")
    return [Section("research", "Research metrics", "Average accuracy is the mean over steps and repeats; a step "
                    "is consistently solved when at least 4 of its first 5 runs are correct (fewer runs count "
                    "as misses)." + (f" Here: {notes['research-consistency']}." if "research-consistency" in notes
                                     else ""), [metrics]), steps]


def answer_text(r: "Result") -> str:
    steps = [s for s in (r.grade.detail.get("steps") or ()) if isinstance(s, Mapping)] if r.grade else []
    return ", ".join(f"{s.get('step')}: {s.get('outcome')}" for s in steps)[:300]


def detail(r: "Result") -> dict[str, Any]:
    """The viewer's expert panel: per step, the outcome, what the filled template returned and the
    expected answer (the conversation and the extracted code are in the turns)."""
    from physbench.suites.research.oracle import expected_text
    from physbench.suites.research.suite import SUITE

    try:
        expected = {s.id: expected_text(s) for s in SUITE.steps_of(r.item)[1]}
    except Exception:  # a problem set no longer on this machine: show what the grade holds
        expected = {}
    steps = [s for s in (r.grade.detail.get("steps") or ()) if isinstance(s, Mapping)] if r.grade else []
    blocks = [{"title": f"Step {s.get('step')}",
               "fields": [["outcome", s.get("outcome")], ["returned", s.get("value")],
                          ["expected", expected.get(str(s.get("step")), "–")]]} for s in steps]
    return {"blocks": blocks}


REPORT = SuiteReport(suite="research", analyse=analyse, sections=sections, answer_text=answer_text, detail=detail,
                     outcomes={"no_code": "no fenced code block in the formatting reply",
                               "rejected": "the sandbox refused the filled template (a construct it forbids, or an attempt to "
                                           "change a module or class)",
                               "raised": "the filled template raised when run",
                               "timeout": "the filled template ran past its step's wall clock",
                               "line_limit": "the filled template executed more lines than the grader allows",
                               "bad_kind": "the template returned a value of the wrong type for the answer"})
