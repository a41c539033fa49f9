"""The research report (002_* Section 4): accuracy per checkpoint with exact intervals, and per model
the average accuracy and the consistently-solved rate over repeats (solved in 4 of 5 runs)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.report.registry import SuiteReport
from physbench.report.tables import Section
from physbench.suites.research.metrics import average_accuracy, consistently_solved_rate
from physbench.suites.research.report_sections import steps_section, table3_section, table4_section, table6_section
from physbench.suites.research.report_tables import collect, step_accuracy, step_outcomes, table3, table4, table6
from physbench.suites.research.report_viewer import conversation_blocks, facet_values

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result


def step_results(r: "Result") -> Iterable[tuple[str, bool]]:
    """(problem/step, correct) for each graded step the grade names; `ungraded` steps are counted apart."""
    problem = str(r.item.reference.get("problem", r.item.id))
    for step, outcome in step_outcomes(r):
        if outcome != "ungraded":
            yield f"{problem}/{step}", outcome == "correct"


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any] | None:
    if not any(r.results for r in models):
        notes["research"] = "no graded research responses"
        return None
    cells, ungraded, order = collect(models)
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
    return {"steps": step_accuracy(cells), "table3": table3(cells, ungraded),
            "grid": table4(cells, ungraded, order), "tokens": table6(models),
            "metrics": [{"model": m, "average_accuracy": avg[m], "runs": fewest[m],
                         "consistently_solved": solved[m] if fewest[m] >= 5 else None} for m in avg]}


def sections(analyses: Mapping[str, Any], notes: Mapping[str, str]) -> list[Section]:
    a = analyses
    return [table3_section(a.get("table3") or [], notes.get("research"), notes.get("research-consistency")),
            steps_section(a.get("steps") or []),
            table4_section(a.get("grid") or []), table6_section(a.get("tokens") or [])]


def answer_text(r: "Result") -> str:
    """'2/3 correct; checkpoint-2: no_code': the correct steps, then each step that was not (short for the list)."""
    steps = list(step_outcomes(r))
    graded = [o for _, o in steps if o != "ungraded"]
    head = f"{graded.count('correct')}/{len(graded)} correct" if graded else "ungraded"
    rest = [f"{step}: {o}" for step, o in steps if o not in ("correct", "ungraded")]
    return "; ".join([head, ", ".join(rest)] if rest else [head])[:300]


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
    # every turn in order as text blocks; the generic list of turns would repeat the replies
    return {"blocks": [*blocks, *conversation_blocks(r)], "turns": []}


REPORT = SuiteReport(suite="research", analyse=analyse, sections=sections, answer_text=answer_text, detail=detail,
                     facets=("problem", "step", "repeat"), facet_values=facet_values,
                     outcomes={"no_code": "no fenced code block in the formatting reply",
                               "rejected": "the sandbox refused the filled template (a construct it forbids, or an attempt to "
                                           "change a module or class)",
                               "raised": "the filled template raised when run",
                               "timeout": "the filled template ran past its step's wall clock",
                               "line_limit": "the filled template executed more lines than the grader allows",
                               "bad_kind": "the template returned a value of the wrong type for the answer"})
