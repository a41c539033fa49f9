"""The basic numbers of a run: accuracy with exact intervals, overall, by kind and by group.

An attempt that ended without a reply after its retries (`n_failed`) is no credit: accuracy is
over `n_scored` = graded + failed attempts, never over the graded ones alone.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable

from physbench.grading.types import FAILED, OUTCOMES
from physbench.report.intervals import exact_interval
from physbench.runner.progress import attempt_tokens
from physbench.runner.records import item_group

if TYPE_CHECKING:
    from physbench.runner.results import Graded, Result, RunReader


def accuracy_cell(name: str, n: int, correct: int) -> dict[str, Any]:
    """{name, n, n_correct, accuracy, ci_low, ci_high}; accuracy and bounds are None for n = 0."""
    lo, hi = exact_interval(correct, n)
    return {"name": name, "n": n, "n_correct": correct, "accuracy": correct / n if n else None,
            "ci_low": lo, "ci_high": hi}


def _cells(pairs: Iterable[tuple[str, bool]]) -> list[dict[str, Any]]:
    n: Counter[str] = Counter()
    k: Counter[str] = Counter()
    for name, passed in pairs:
        n[name] += 1
        k[name] += int(passed)
    return [accuracy_cell(name, n[name], k[name]) for name in sorted(n)]


def summarise(reader: "RunReader") -> dict[str, Any]:
    """One run's summary: the `--json` object of `physbench report` (and of `physbench eval`)."""
    m = reader.manifest
    outcomes: Counter[str] = Counter({o: 0 for o in OUTCOMES})
    kinds: list[tuple[str, bool]] = []
    groups: list[tuple[str, bool]] = []
    tokens = {"prompt": 0, "completion": 0, "total": 0}
    cost = 0.0
    priced = False
    n_done = n_correct = n_ungraded = 0
    for r in reader.graded():  # from the attempts' columns: no item or grade JSON is decoded
        n_done += 1
        n_correct += r.passed
        outcomes[r.outcome or "ungraded"] += 1
        _add_tokens(tokens, r)
        if r.cost is not None:
            cost, priced = cost + r.cost, True
        if r.outcome == "ungraded":  # a response whose answer is not known here: counted apart
            n_ungraded += 1
            continue
        kinds.append((r.kind, r.passed))
        if r.group is not None:
            groups.append((r.group, r.passed))
    failures = list(reader.failures())
    for f in failures:  # an attempt that ended without a reply: no credit, in every denominator
        outcomes[FAILED] += 1
        kinds.append((f.item.kind, False))
        group = item_group(f.item)
        if group is not None:
            groups.append((group, False))
        _add_tokens(tokens, f)
    n_scored = n_done - n_ungraded + len(failures)
    overall = accuracy_cell("all", n_scored, n_correct)
    summary: dict[str, Any] = {
        "run_id": m.run_id, "run_dir": str(reader.run_dir), "model": m.model_spec, "suite": m.suite,
        "split": m.split, "protocol": m.protocol, "repeats": m.repeats, "n_items": m.n_items,
        "n_attempts": m.n_items * m.repeats, "n_done": n_done, "n_failed": len(failures), "n_scored": n_scored,
        "n_correct": n_correct,
        **({"n_ungraded": n_ungraded} if n_ungraded else {}),  # responses whose answer is not known here
        "accuracy": overall["accuracy"], "ci_low": overall["ci_low"], "ci_high": overall["ci_high"],
        "outcomes": {o: n for o, n in outcomes.items() if o in OUTCOMES or n},  # `failed` only where there are some
        "n_errors": len(failures), "errors": _top_errors(failures),
        "tokens": tokens, "cost_usd": cost if priced else None,
        "by_kind": _cells(kinds), "by_group": _cells(groups),
        "started_at": m.started_at, "package_version": m.package_version, "git_revision": m.git_revision,
    }
    if m.model_info.get("endpoints"):  # a run over several endpoints: each one's requests and failures
        summary["endpoints"] = m.model_info["endpoints"]
    return summary


def _add_tokens(tokens: dict[str, int], r: "Result | Graded") -> None:
    usage = r.usage
    tokens["prompt"] += usage.get("prompt_tokens", 0)
    tokens["completion"] += usage.get("completion_tokens", 0)
    tokens["total"] += attempt_tokens(usage)  # prompt + completion, as the progress line counts them
    for key, name in (("cached_tokens", "cached"), ("reasoning_tokens", "reasoning")):  # where the endpoint reports them
        if usage.get(key):
            tokens[name] = tokens.get(name, 0) + usage[key]


def tokens_text(s: dict[str, Any]) -> str:
    """'1,200 prompt (200 cached), 300 completion (100 reasoning); cost 0.0100 USD' for a summary."""
    t = s["tokens"]
    cached = f" ({t['cached']:,} cached)" if t.get("cached") else ""
    reasoning = f" ({t['reasoning']:,} reasoning)" if t.get("reasoning") else ""
    cost = f"; cost {s['cost_usd']:.4f} USD" if s.get("cost_usd") is not None else ""
    return f"{t['prompt']:,} prompt{cached}, {t['completion']:,} completion{reasoning}{cost}"


def _top_errors(failures: list["Result"], limit: int = 5) -> list[dict[str, Any]]:
    """The most frequent final error messages of failed attempts."""
    counts = Counter((r.errors[-1] if r.errors else "unknown error")[:200] for r in failures)
    return [{"error": msg, "count": n} for msg, n in counts.most_common(limit)]
