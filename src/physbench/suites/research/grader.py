"""Grade a formatting reply against a step's ANSWER, judge-free (002_* section 3.2, issues 15, 33).

extract code -> check imports (only the template's modules) and the scientific policy -> run it
in the executor with the step's limits (30 s wall by default), calling the model's own `answer`
with the step's arguments: the model's code only produces a value, which leaves the sandbox as
inert data (values.py). The comparison never runs where model code ran: plain values are compared
here, anything that needs SymPy in the executor's judge process (judge.py, a fresh fork holding
only the reference). Every failure is an outcome, never an exception: no_code, rejected, raised,
timeout, line_limit, bad_kind, wrong, correct; a step whose answer is unknown is `ungraded`.
Printed output past the cap is dropped, never a verdict (issue 37 item 7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from physbench.suites.research.answer_types import FunctionAnswer, call_symbols
from physbench.suites.research.extract import extract_code, foreign_imports
from physbench.suites.research.judge import NeedsSympy, trees_verdict, verdict
from physbench.suites.research.problem import Step

OUTCOMES = ("no_code", "rejected", "raised", "timeout", "line_limit", "bad_kind", "wrong", "correct", "ungraded")
MAX_LINES = 5_000_000          # research code loops more than a one-line solve; the wall clock still rules
MAX_OUTPUT_CHARS = 65_536      # printed text kept per run; the rest is dropped and the run goes on
JUDGE_WALL_S = 20.0            # the comparison's own wall clock (simplify, sampling) and memory
JUDGE_MEMORY_MB = 1024


def step_limits(step: Step) -> Any:
    """The step's own wall clock and memory (30 s, 1 GiB by default) for the sandbox."""
    from physbench.executor import Limits

    return Limits(wall_s=step.wall_s, cpu_s=step.wall_s, memory_mb=step.memory_mb, max_lines=MAX_LINES,
                  max_output_chars=MAX_OUTPUT_CHARS, truncate_output=True)


def judge_limits() -> Any:
    from physbench.executor import Limits

    return Limits(wall_s=JUDGE_WALL_S, cpu_s=JUDGE_WALL_S, memory_mb=JUDGE_MEMORY_MB)


_STATUS = {"rejected": "rejected", "raised": "raised", "timeout": "timeout", "memory": "timeout",
           "line_limit": "line_limit", "output_limit": "bad_kind", "bad_return": "bad_kind"}


@dataclass(frozen=True)
class StepGrade:
    outcome: str
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def correct(self) -> bool:
        return self.outcome == "correct"

    def to_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "outcome": self.outcome, **self.detail}


def step_policy(step: Step) -> str:
    """The lightest sandbox policy that offers every module the step's code may import: `symbolic`
    (sympy, cmath and the standard modules; starts fast) unless numpy or scipy is wanted."""
    from physbench.executor.policy import allowed_modules
    from physbench.suites.research.problem import template_imports

    wanted = set(step.template_imports())
    if isinstance(step.answer, FunctionAnswer):
        wanted |= template_imports(step.answer.reference)
    return "symbolic" if wanted <= allowed_modules("symbolic") else "scientific"


def prepare(step: Step, reply: object, policy: str = "scientific") -> tuple[str | None, StepGrade | None]:
    """(program, early grade): an early grade when nothing needs to run."""
    from physbench.executor import check_source

    if step.answer is None:  # answer unknown (private): stored, never run here, counted apart
        return None, StepGrade("ungraded", {"official_id": step.official_id} if step.official_id else {})
    code = extract_code(reply)
    if code is None:
        return None, StepGrade("no_code")
    bad = foreign_imports(code, step.template_imports())
    if bad:
        return None, StepGrade("rejected", {"error": f"imports {bad[0]!r}, which the template does not"})
    problems = check_source(code, policy)
    if problems:
        return None, StepGrade("rejected", {"error": problems[0][:300]})
    return code, None


def grading_policy(steps: Sequence[Step]) -> str:
    """The one sandbox policy that serves every graded step of a call."""
    return "symbolic" if all(step_policy(s) == "symbolic" for s in steps if s.answer is not None) else "scientific"


def grade_steps(steps: Sequence[Step], replies: Sequence[object], executor: Any = None,
                seed: int = 0, workers: int = 2) -> list[StepGrade]:
    """Grade each (step, reply) pair; sandbox runs and judge calls are batched across the workers.
    Without `executor`, the shared pool of the steps' policy is used, started with `workers`
    sandboxes when this call is the first (a one-reply command asks for one)."""
    from physbench.executor import default_executor

    policy = getattr(executor, "policy", None) or grading_policy(steps)
    prepared = [prepare(s, r, policy) for s, r in zip(steps, replies)]
    out: list[StepGrade | None] = [p[1] for p in prepared]
    if executor is None and any(g is None for g in out):  # one shared pool; none when nothing runs
        executor = default_executor(policy, workers)  # later calls (an eval's items) reuse it
    ex = executor
    batch: dict[tuple[float, int], list[int]] = {}
    for i, (step, (program, early)) in enumerate(zip(steps, prepared)):
        if early is not None:
            continue
        if isinstance(step.answer, FunctionAnswer):
            out[i] = _grade_function(ex, step, program or "")
        else:
            batch.setdefault((step.wall_s, step.memory_mb), []).append(i)
    pending: list[tuple[int, Any]] = []
    for idx in batch.values():  # one executor.map per set of limits
        try:
            results = ex.map([(prepared[i][0], call_symbols(steps[i].answer).call_args()) for i in idx],
                             "answer", (), step_limits(steps[idx[0]]))
        except Exception as exc:  # a broken sandbox worker is an outcome, not a crash of grading
            for i in idx:
                out[i] = StepGrade("raised", {"error": f"sandbox: {exc}"[:300]})
            continue
        for i, res in zip(idx, results):
            if res.status != "ok":
                out[i] = _failed(res)
                continue
            try:
                out[i] = _graded(verdict(steps[i].answer, res.value, seed), res.value)
            except NeedsSympy:
                pending.append((i, res.value))
    for (i, value), res in zip(pending, _judge(ex, [("answer", steps[i].answer.to_dict(), value, seed)
                                                     for i, value in pending])):
        out[i] = _graded(res.value, value) if res.status == "ok" else _failed(res, "comparison: ")
    return [g if g is not None else StepGrade("raised") for g in out]


def _judge(ex: Any, calls: list[tuple[Any, ...]]) -> list[Any]:
    """One judge result per call: the calls go in a few batches (one fork each, one per worker);
    a batch that fails as a whole, and any call in it that raised, is judged again on its own."""
    from physbench.executor import ExecResult

    if not calls:
        return []
    workers = max(1, len(getattr(ex, "worker_pids", lambda: [0, 0])()))
    size = -(-len(calls) // workers)
    chunks = [calls[k:k + size] for k in range(0, len(calls), size)]
    out: list[Any] = [None] * len(calls)
    try:
        batches = ex.judge_map("research_batch", [(chunk,) for chunk in chunks], judge_limits())
    except Exception as exc:
        return [ExecResult("raised", error=f"sandbox: {exc}")] * len(calls)
    alone: list[int] = []
    for c, res in enumerate(batches):
        base = c * size
        values = res.value if res.ok and isinstance(res.value, list) and len(res.value) == len(chunks[c]) else None
        for k in range(len(chunks[c])):
            v = values[k] if values is not None else None
            if isinstance(v, dict) and "retry" not in v:
                out[base + k] = ExecResult("ok", v)
            else:
                alone.append(base + k)
    if alone:
        try:
            for i, res in zip(alone, ex.judge_map("research", [calls[i] for i in alone], judge_limits())):
                out[i] = res
        except Exception as exc:
            for i in alone:
                out[i] = ExecResult("raised", error=f"sandbox: {exc}")
    return out


def _failed(res: Any, prefix: str = "") -> StepGrade:
    return StepGrade(_STATUS.get(res.status, "raised"), {"error": (prefix + (res.error or res.status))[:300]})


def _graded(v: Any, value: Any) -> StepGrade:
    v = v if isinstance(v, dict) else {}
    outcome = v.get("verdict") if v.get("verdict") in ("correct", "wrong", "bad_kind") else "bad_kind"
    detail = {"value": repr(value)[:300]}
    if v.get("why"):
        detail["why"] = str(v["why"])[:300]
    return StepGrade(outcome, detail)


def match_value(answer: Any, value: Any) -> str:
    """'correct', 'wrong' or 'bad_kind' for a plain value (no SymPy text in it), compared here."""
    try:
        return verdict(answer, value)["verdict"]
    except NeedsSympy:
        return "bad_kind"


def _grade_function(ex: Any, step: Step, program: str) -> StepGrade:
    a = step.answer
    limits = step_limits(step)
    jobs = [(program, tuple(t)) for t in a.tests] + [(a.reference, tuple(t)) for t in a.tests]
    try:
        results = ex.map(jobs, "answer", (), limits)
    except Exception as exc:
        return StepGrade("raised", {"error": f"sandbox: {exc}"[:300]})
    n = len(a.tests)
    pending = []
    for i, (got, ref) in enumerate(zip(results[:n], results[n:])):
        if not ref.ok:
            return StepGrade("raised", {"error": f"reference failed on test {i}: {ref.error}"[:300]})
        if not got.ok:
            return StepGrade(_STATUS.get(got.status, "raised"), {"error": (got.error or "")[:300], "test": i})
        try:
            v = trees_verdict(got.value, ref.value, a.rtol, a.atol)
        except NeedsSympy:
            pending.append((i, got.value, ref.value))
            continue
        if v["verdict"] != "correct":
            return StepGrade(v["verdict"], {"test": i, "value": repr(got.value)[:200], "expected": repr(ref.value)[:200]})
    for (i, g, r), res in zip(pending, _judge(ex, [("trees", g, r, a.rtol, a.atol) for _, g, r in pending])):
        if not res.ok:
            return _failed(res, "comparison: ")
        if res.value.get("verdict") != "correct":
            return StepGrade(res.value.get("verdict", "bad_kind"), {"test": i, "value": repr(g)[:200],
                                                                    "expected": repr(r)[:200]})
    return StepGrade("correct", {"tests": n})
