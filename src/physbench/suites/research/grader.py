"""Grade a formatting reply against a step's ANSWER, judge-free (002_* section 3.2, issue 15).

extract code -> check imports (only the template's modules) and the scientific policy -> run it
in the executor with the step's limits (30 s wall by default) -> compare. Every failure is an
outcome, never an exception: no_code, rejected, raised, timeout, bad_kind, wrong, correct.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from physbench.suites.research.answers import (BooleanAnswer, CompositeAnswer, FunctionAnswer, IntegerAnswer,
                                               IntervalAnswer, NumericAnswer, SetAnswer, StringAnswer,
                                               SymbolicAnswer)
from physbench.suites.research.compare import numbers_close, strings_match
from physbench.suites.research.extract import extract_code, foreign_imports
from physbench.suites.research.harness import HARNESS
from physbench.suites.research.problem import Step

OUTCOMES = ("no_code", "rejected", "raised", "timeout", "bad_kind", "wrong", "correct", "ungraded")
MAX_OPS = 5_000                # cap on the model expression before any simplify
MAX_LINES = 5_000_000          # research code loops more than a one-line solve; the wall clock still rules


def step_limits(step: Step) -> Any:
    """The step's own wall clock and memory (30 s, 1 GiB by default) for the sandbox."""
    from physbench.executor import Limits

    return Limits(wall_s=step.wall_s, cpu_s=step.wall_s, memory_mb=step.memory_mb, max_lines=MAX_LINES)
_STATUS = {"rejected": "rejected", "raised": "raised", "timeout": "timeout", "memory": "timeout",
           "line_limit": "timeout", "output_limit": "bad_kind", "bad_return": "bad_kind"}


@dataclass(frozen=True)
class StepGrade:
    outcome: str
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def correct(self) -> bool:
        return self.outcome == "correct"

    def to_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "outcome": self.outcome, **self.detail}


def _points(answer: SymbolicAnswer, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    pts = []
    for _ in range(answer.samples):
        row = []
        for name in answer.symbols.args:
            lo, hi = answer.symbols.sampling_range(name)
            x = rng.randint(int(lo) + 1, int(hi) - 1) if answer.symbols.is_integer(name) else rng.uniform(lo, hi)
            row.append(f"{x:.6f}" if isinstance(x, float) else str(x))
        pts.append(row)
    return pts


def prepare(step: Step, reply: object, seed: int = 0) -> tuple[str | None, str, tuple, StepGrade | None]:
    """(program, call, args, early grade): an early grade when nothing needs to run."""
    from physbench.executor import check_source

    if step.answer is None:  # answer unknown (private): stored, never run here, counted apart
        return None, "", (), StepGrade("ungraded", {"official_id": step.official_id} if step.official_id else {})
    code = extract_code(reply)
    if code is None:
        return None, "", (), StepGrade("no_code")
    bad = foreign_imports(code, step.template_imports())
    if bad:
        return None, "", (), StepGrade("rejected", {"error": f"imports {bad[0]!r}, which the template does not"})
    problems = check_source(code, "scientific")
    if problems:
        return None, "", (), StepGrade("rejected", {"error": problems[0][:300]})
    program = code + HARNESS
    if isinstance(step.answer, SymbolicAnswer):
        a = step.answer
        return program, "physbench_symbolic", (a.expr.replace("^", "**"), a.symbols.spec(), _points(a, seed),
                                               a.rtol, MAX_OPS), None
    if isinstance(step.answer, FunctionAnswer):
        return program, "physbench_tests", (), None
    return program, "physbench_value", (), None


def grade_steps(steps: Sequence[Step], replies: Sequence[object], executor: Any = None,
                seed: int = 0) -> list[StepGrade]:
    """Grade each (step, reply) pair; the sandbox runs are batched through `executor.map`."""
    from physbench.executor import default_executor

    ex = executor or default_executor("scientific")
    prepared = [prepare(s, r, seed) for s, r in zip(steps, replies)]
    out: list[StepGrade | None] = [p[3] for p in prepared]
    batch: dict[tuple[str, float], list[int]] = {}
    for i, (step, prep) in enumerate(zip(steps, prepared)):
        if out[i] is not None:
            continue
        if isinstance(step.answer, FunctionAnswer):
            out[i] = _grade_function(ex, step, prep[0])
        else:
            batch.setdefault((prep[1], (step.wall_s, step.memory_mb)), []).append(i)
    for (call, _), idx in batch.items():  # one executor.map per (harness call, limits)
        limits = step_limits(steps[idx[0]])
        try:
            results = ex.map([(prepared[i][0], prepared[i][2]) for i in idx], call, (), limits)
        except Exception as exc:  # a broken sandbox worker is an outcome, not a crash of grading
            for i in idx:
                out[i] = StepGrade("raised", {"error": f"sandbox: {exc}"[:300]})
            continue
        for i, res in zip(idx, results):
            out[i] = _judge(steps[i], res)
    return [g if g is not None else StepGrade("raised") for g in out]


def _judge(step: Step, res: Any) -> StepGrade:
    if res.status != "ok":
        return StepGrade(_STATUS.get(res.status, "raised"), {"error": (res.error or res.status)[:300]})
    if isinstance(step.answer, SymbolicAnswer):
        v = res.value if isinstance(res.value, dict) else {}
        verdict = v.get("verdict") if v.get("verdict") in ("correct", "wrong", "bad_kind") else "bad_kind"
        return StepGrade(verdict, {k: str(x)[:300] for k, x in v.items() if k != "verdict"})
    outcome = match_value(step.answer, res.value)
    return StepGrade(outcome, {"value": repr(res.value)[:300]})


def match_value(answer: Any, value: Any) -> str:
    """'correct', 'wrong' or 'bad_kind' for a plain value returned by the harness."""
    if isinstance(answer, NumericAnswer):
        if isinstance(value, bool) or not isinstance(value, (int, float, complex)):
            return "bad_kind"
        return "correct" if numbers_close(value, answer.value, answer.rtol, answer.atol) else "wrong"
    if isinstance(answer, IntegerAnswer):
        if isinstance(value, bool) or not isinstance(value, int):
            return "bad_kind"
        return "correct" if value == answer.value else "wrong"
    if isinstance(answer, BooleanAnswer):
        if not isinstance(value, bool):
            return "bad_kind"
        return "correct" if value == answer.value else "wrong"
    if isinstance(answer, StringAnswer):
        if not isinstance(value, str):
            return "bad_kind"
        ok = any(strings_match(value, s, answer.case_sensitive) for s in (answer.value, *answer.aliases))
        return "correct" if ok else "wrong"
    if isinstance(answer, CompositeAnswer):
        if not isinstance(value, (list, tuple)):
            return "bad_kind"
        if len(value) != len(answer.parts):
            return "wrong"
        results = [match_value(p, v) for p, v in zip(answer.parts, value)]
        return "correct" if all(r == "correct" for r in results) else "wrong"
    if isinstance(answer, SetAnswer):
        return _match_set(answer, value)
    if isinstance(answer, IntervalAnswer):
        return _match_interval(answer, value)
    return "bad_kind"


def _match_set(answer: SetAnswer, value: Any) -> str:
    items = value.get("set") if isinstance(value, dict) else value
    if not isinstance(items, (list, tuple)):
        return "bad_kind"
    kind = {"numeric": NumericAnswer, "integer": IntegerAnswer, "string": StringAnswer}[answer.element_type]

    def same(x: Any, e: Any) -> bool:
        part = kind(e, answer.rtol, answer.atol) if kind is NumericAnswer else kind(e)
        return match_value(part, x) == "correct"

    if not answer.multiset:
        distinct: list[Any] = []
        for x in items:
            if not any(same(x, d) if not isinstance(d, str) or kind is StringAnswer else x == d for d in distinct):
                distinct.append(x)
        items = distinct
    if len(items) != len(answer.elements):
        return "wrong"
    left = list(answer.elements)
    for x in items:
        hit = next((j for j, e in enumerate(left) if same(x, e)), None)
        if hit is None:
            return "wrong"
        left.pop(hit)
    return "correct"


def _match_interval(answer: IntervalAnswer, value: Any) -> str:
    raw = value.get("interval") if isinstance(value, dict) else value
    if not isinstance(raw, (list, tuple)) or len(raw) not in (2, 4):
        return "bad_kind"

    def end(x: Any, e: float | None) -> bool:
        if e is None:
            return isinstance(x, float) and x in (float("inf"), float("-inf")) or x is None
        return numbers_close(x, e, answer.rtol, answer.atol)

    if not (end(raw[0], answer.lower) and end(raw[1], answer.upper)):
        return "wrong"
    if answer.closed is not None and len(raw) == 4 and tuple(raw[2:]) != answer.closed:
        return "wrong"
    return "correct"


def _grade_function(ex: Any, step: Step, program: str) -> StepGrade:
    a = step.answer
    limits = step_limits(step)
    jobs = [(program, tuple(t)) for t in a.tests] + [(a.reference + HARNESS, tuple(t)) for t in a.tests]
    try:
        results = ex.map(jobs, "physbench_call", (), limits)
    except Exception as exc:
        return StepGrade("raised", {"error": f"sandbox: {exc}"[:300]})
    n = len(a.tests)
    for i, (got, ref) in enumerate(zip(results[:n], results[n:])):
        if not ref.ok:
            return StepGrade("raised", {"error": f"reference failed on test {i}: {ref.error}"[:300]})
        if not got.ok:
            return StepGrade(_STATUS.get(got.status, "raised"), {"error": (got.error or "")[:300], "test": i})
        outcome = _close_tree(got.value, ref.value, a.rtol, a.atol)
        if outcome != "correct":
            return StepGrade(outcome, {"test": i, "value": repr(got.value)[:200], "expected": repr(ref.value)[:200]})
    return StepGrade("correct", {"tests": n})


def _close_tree(got: Any, ref: Any, rtol: float, atol: float) -> str:
    if isinstance(ref, (list, tuple)):
        if not isinstance(got, (list, tuple)):
            return "bad_kind"
        if len(got) != len(ref):
            return "wrong"
        for g, r in zip(got, ref):
            o = _close_tree(g, r, rtol, atol)
            if o != "correct":
                return o
        return "correct"
    if isinstance(ref, bool) or isinstance(ref, str):
        return "correct" if got == ref else ("wrong" if type(got) is type(ref) else "bad_kind")
    if isinstance(got, bool) or not isinstance(got, (int, float, complex)):
        return "bad_kind"
    return "correct" if numbers_close(got, ref, rtol, atol) else "wrong"
