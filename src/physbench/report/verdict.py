"""The report's opening verdict: per item kind, how each model did and which models the tests cannot
tell apart, said in plain words (seed 000 "Statistics": exact McNemar on shared items, Holm).

A model that beats no one, or cannot be told apart from a constant reply, is said to be so: a
score such as "8/15 judged right" reads like skill until it is set beside what a reply that does
nothing gets on the same items.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from physbench.report.generic import ALPHA, pairwise, passed
from physbench.report.tables import Section, pvalue

if TYPE_CHECKING:
    from physbench.report.loading import RunData


def verdict_rows(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Per item kind: each model's correct/items, every pair's exact McNemar test (Holm within the
    kind), and whether the pair passed and failed exactly the same items."""
    by_kind: dict[str, dict[str, dict[str, bool]]] = {}
    for m in models:
        for key, r in m.responses().items():
            by_kind.setdefault(r.item.kind, {}).setdefault(m.label, {})[key] = passed(r)
    out = []
    for kind, outcomes in by_kind.items():
        result = pairwise(outcomes)
        for p in result["pairs"]:
            shared = set(outcomes[p["first"]]) & set(outcomes[p["second"]])
            p["same_items"] = bool(shared) and all(outcomes[p["first"]][k] == outcomes[p["second"]][k] for k in shared)
        out.append({"kind": kind, "alpha": result["alpha"], "models": result["models"], "pairs": result["pairs"]})
    return out


def _score(m: Mapping[str, Any]) -> str:
    return f"{m['model']} {m['n_correct']}/{m['n']}"


def pair_of(row: Mapping[str, Any], a: str, b: str) -> Mapping[str, Any] | None:
    """The test of models a and b in one kind's row (None when one of them has no such items)."""
    return next((p for p in row["pairs"] if {p["first"], p["second"]} == {a, b}), None)


def apart(p: Mapping[str, Any] | None, alpha: float) -> bool:
    """Whether the pair's test separates the two models (Holm-adjusted p below alpha)."""
    return p is not None and p["p_holm"] is not None and p["p_holm"] < alpha


def _test(p: Mapping[str, Any]) -> str:
    if p["same_items"]:
        return f"the same items right and wrong, McNemar p = {pvalue(p['p_holm'])}"
    return f"exact McNemar p = {pvalue(p['p_holm'])} after Holm, {p['n']} shared items"


def kind_sentence(row: Mapping[str, Any]) -> str:
    """One sentence on one item kind: the scores, then what the tests can and cannot tell apart."""
    models, alpha = row["models"], row["alpha"]
    scores = "; ".join(_score(m) for m in models)
    if len(models) == 1:
        return f"{row['kind']}: {scores} (one model: nothing to compare it with)."
    lead = models[0]
    unshared = [m for m in models[1:] if pair_of(row, lead["model"], m["model"]) is None]
    tied = [m for m in models[1:] if m not in unshared and not apart(pair_of(row, lead["model"], m["model"]), alpha)]
    beaten = [m for m in models[1:] if m not in tied and m not in unshared]
    parts = []
    if unshared:
        parts.append(f"{lead['model']} shares no items with " + ", ".join(m["model"] for m in unshared)
                     + " (not compared)")
    if tied:
        parts.append(f"{lead['model']} cannot be told apart from " + ", ".join(
            f"{m['model']} ({_test(pair_of(row, lead['model'], m['model']))})" for m in tied))  # type: ignore[arg-type]
    if beaten:
        parts.append(f"{lead['model']} is ahead of " + ", ".join(
            f"{m['model']} (p = {pvalue(pair_of(row, lead['model'], m['model'])['p_holm'])})"  # type: ignore[index]
            for m in beaten))
    return f"{row['kind']}: {scores}. " + "; ".join(parts) + "."


def model_sentences(rows: Sequence[Mapping[str, Any]], model: str) -> list[str]:
    """What the tests say of one model beside every other on each kind: whom it cannot be told apart from."""
    out = []
    for row in rows:
        mine = next((m for m in row["models"] if m["model"] == model), None)
        if mine is None:
            continue
        others = [m for m in row["models"] if m["model"] != model]
        unshared = [m for m in others if pair_of(row, model, m["model"]) is None]
        tied = [m for m in others if m not in unshared and not apart(pair_of(row, model, m["model"]), row["alpha"])]
        separated = [m for m in others if m not in tied and m not in unshared]
        text = f"{row['kind']}: {mine['n_correct']}/{mine['n']}"
        if unshared:
            text += "; no items in common with " + ", ".join(_score(m) for m in unshared) + " (not compared)"
        if tied:
            text += "; cannot be told apart from " + ", ".join(
                f"{_score(m)} ({_test(pair_of(row, model, m['model']))})" for m in tied)  # type: ignore[arg-type]
        if separated:
            text += "; " + ", ".join(
                f"{'ahead of' if mine['n_correct'] / mine['n'] > m['n_correct'] / m['n'] else 'behind'} {_score(m)}"
                f" (p = {pvalue(pair_of(row, model, m['model'])['p_holm'])})" for m in separated)  # type: ignore[index]
        out.append(text + ".")
    return out


def verdict_section(rows: Sequence[Mapping[str, Any]] | None) -> Section:
    """The report's first section: one sentence per item kind."""
    title = "Verdict"
    if not rows:
        return Section("verdict", title, note="no graded responses")
    text = ("What these runs show, kind by kind: correct/items of each model (first response to each item), "
            f"and which models the exact McNemar tests on shared items (Holm within a kind, α = {ALPHA}) "
            "cannot tell apart. A model not told apart from a constant or no-calculation reply has shown "
            "no skill on these items.\n\n" + "\n".join(f"- {kind_sentence(r)}" for r in rows))
    return Section("verdict", title, text)
