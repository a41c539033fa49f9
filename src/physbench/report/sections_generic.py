"""Sections of the report that fit any suite: runs, pairwise tests, repeated runs, outcomes, run details."""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

from physbench.grading.types import OUTCOMES, outcome_meaning
from physbench.report.markdown import scored_text
from physbench.report.summary import tokens_text
from physbench.report.tables import DASH, Section, Table, frac, number, pct, pct_ci, plural, pvalue


def truncated_share(s: Mapping[str, Any]) -> str:
    """'25 (83.3%)': responses cut off at the token limit, of those graded."""
    k = s["outcomes"].get("truncated", 0)
    return f"{k} ({pct(k / s['n_done'])}%)" if s["n_done"] else DASH


def runs_section(summaries: Sequence[Mapping[str, Any]], models: Sequence[Mapping[str, Any]]) -> Section:
    rows = []
    for s, m in zip(summaries, models):
        rows.append([m["label"], s["run_id"], s["suite"], s["split"], s["protocol"], f"{s['n_done']}/{s['n_attempts']}",
                     str(s.get("n_failed", 0)), str(s["repeats"]), truncated_share(s),
                     pct_ci(s["accuracy"], s["ci_low"], s["ci_high"])])
    table = Table("Runs: responses graded of the attempts planned (items × repeats), attempts that ended without a "
                  "reply after their retries (failed: no credit), responses cut off at the token limit, and accuracy "
                  "over every graded or failed attempt, all kinds pooled (exact 95% CI).",
                  ["model", "run", "suite", "split", "protocol", "graded/planned", "failed", "repeats", "truncated",
                   "accuracy % (95% CI)"], rows, [False] * 5 + [True] * 5)
    text = ("A response is graded when the model replied, whatever the reply; an attempt that got no reply after its "
            "retries counts as failed, no credit, and stays in every denominator. Accuracy is the share of graded "
            "and failed attempts that were correct. The first run of each model, split and protocol gives the main "
            "analyses, with its first response to each item; later runs and repeats enter the repeated-run "
            "tables. The outcomes and their meanings are listed under Outcomes.")
    return Section("runs", "Runs", text, [table])


def pairwise_section(pw: Mapping[str, Any] | None, note: str | None) -> Section:
    kind = "" if pw is None or pw["kind"] == "all" else pw["kind"]  # the kinds the suites compare
    title = f"Pairwise comparisons of {kind} accuracy".replace("  ", " ")
    if pw is None:
        return Section("pairwise", title, note=note)
    letters = Table("Models in order of accuracy; models that share a letter are not separated by the tests.",
                    ["model", "items", "correct", "accuracy % (95% CI)", "letters"],
                    [[m["model"], str(m["n"]), str(m["n_correct"]), pct_ci(m["accuracy"], m["ci_low"], m["ci_high"]),
                      m["letters"]] for m in pw["models"]], [False, True, True, True, False])
    pairs = Table("Every pair on its shared items: items solved by one model only, exact McNemar p, and p after "
                  "Holm's adjustment over all pairs.",
                  ["first", "second", "items", "first only", "second only", "p", "p (Holm)"],
                  [[p["first"], p["second"], str(p["n"]), str(p["first_only"]), str(p["second_only"]), pvalue(p["p"]),
                    pvalue(p["p_holm"])] for p in pw["pairs"]], [False, False] + [True] * 5)
    text = (f"Exact McNemar tests between every pair of models on the {kind + ' ' if kind else ''}items both answered, with "
            f"Holm's adjustment over the pairs; letters by the insert-and-absorb display at α = {pw['alpha']}.")
    if pw.get("untested"):  # a paired test needs shared items: the others are not tested, and not separated
        text += f" {len(pw['untested'])} pairs share no graded item and are not tested; " + sharing_groups(pw)
    return Section("pairwise", title, text, [letters, pairs])


def sharing_groups(pw: Mapping[str, Any]) -> str:
    """'tests only within these groups of models that share items: {a, b}; {c}.' (linked by shared items)."""
    group = {m["model"]: m["model"] for m in pw["models"]}

    def root(m: str) -> str:
        while group[m] != m:
            m = group[m]
        return m

    for p in pw["pairs"]:
        group[root(p["first"])] = root(p["second"])
    members: dict[str, list[str]] = {}
    for m in group:
        members.setdefault(root(m), []).append(m)
    return "tests only within these groups: " + "; ".join("{" + ", ".join(g) + "}" for g in members.values()) + "."


def repeats_section(rows: Sequence[Mapping[str, Any]] | None, consistency: Sequence[Mapping[str, Any]] | None,
                    note: str | None) -> Section:
    title = "Repeated runs"
    if not rows and not consistency:
        return Section("repeats", title, note=note)
    tables = []
    if rows:
        tables.append(Table(
            "Items answered in both runs (n): share passed in each, exact McNemar p (Holm over the comparisons "
            "of the same kind), Cohen's κ on pass or fail, items failed again of those failed first, and of "
            "those the ones whose two wrong values agree within the band; κ on the verdict for checks "
            "(no verdict = not flagged).",
            ["comparison", "kind", "n", "run 1 %", "run 2 %", "p", "p (Holm)", "κ", "failed again", "same value",
             "verdict κ"],
            [[r["comparison"], r["kind"], str(r["n"]), pct(r["first_rate"]), pct(r["second_rate"]), pvalue(r["p"]),
              pvalue(r["p_holm"]), number(r["kappa"]), frac(r["failed_again"], r["failed_first"]),
              frac(r["same_value"], r["failed_again"]) if r["same_value"] is not None else DASH,
              number(r["flagged_kappa"])] for r in rows], [False, False] + [True] * 9))
    if consistency:
        ks = sorted({int(k) for r in consistency for k in r["solved_at_least"]})
        tables.append(Table(
            "Consistency: items solved in at least k of the n runs (repeats and later runs of the same model), "
            "beside the accuracy averaged over runs.",
            ["model", "kind", "runs", "items", "mean accuracy %"] + [f"≥{k}" for k in ks],
            [[r["model"], r["kind"], str(r["runs"]), str(r["items"]), pct(r["mean_accuracy"])]
             + [str(r["solved_at_least"].get(str(k), DASH)) for k in ks] for r in consistency],
            [False, False] + [True] * (3 + len(ks))))
    text = ("Two runs of the same items, compared item by item (MedPhysBench paper, Table 14; consistency as in "
            "the CritPt paper).")
    return Section("repeats", title, text, tables)


def outcomes_section(rows: Sequence[Mapping[str, Any]], suite_outcomes: Mapping[str, str] | None = None) -> Section:
    """Responses by outcome per model and kind, and what each outcome means (the suites' own included)."""
    title = "Outcomes"
    if not rows:
        return Section("outcomes", title, note="no graded responses")
    named = list(dict.fromkeys([*OUTCOMES, *(o for r in rows for o in r["outcomes"])]))  # a suite's own outcomes last
    used = [o for o in named if any(r["outcomes"].get(o) for r in rows)] or ["correct"]
    table = Table("Responses by outcome; every outcome stays in the denominators.",
                  ["model", "kind", "n"] + used,
                  [[r["model"], r["kind"], str(r["n"])] + [str(r["outcomes"].get(o, 0)) for o in used] for r in rows],
                  [False, False] + [True] * (1 + len(used)))
    meanings = Table("What each outcome means (the ones these runs did not reach are listed too).", ["outcome", "meaning"],
                     [[o, outcome_meaning(o, suite_outcomes)] for o in named], [False, False])
    return Section("outcomes", title, "", [table, meanings])


def run_detail_sections(summaries: Sequence[Mapping[str, Any]], models: Sequence[Mapping[str, Any]],
                        grouped_suites: Collection[str] = ()) -> list[Section]:
    """One section per run: the basic summary (accuracy by kind and by group, outcomes, tokens, errors);
    the by-group table is left out for suites whose own sections break accuracy down by group."""
    out = []
    for s, m in zip(summaries, models):
        lines = [f"run {s['run_id']} in {s['run_dir']}, protocol {s['protocol']}, started {s['started_at']}, "
                 f"physbench {s['package_version']}" + (f" at {s['git_revision'][:12]}" if s.get("git_revision") else "")]
        lines.append(f"accuracy {pct_ci(s['accuracy'], s['ci_low'], s['ci_high'])} %: {s['n_correct']} correct of "
                     f"{scored_text(s)} ({s['n_attempts']} planned: "
                     f"{plural(s['n_items'], 'item')} × {plural(s['repeats'], 'repeat')})"
                     + (f"; {truncated_share(s)} cut off at the token limit" if s["n_done"] else ""))
        lines.append(f"tokens: {tokens_text(s)}")
        tables = []
        groups = [] if s["suite"] in grouped_suites else s["by_group"]
        for name, cells in (("kind", s["by_kind"]), ("group", groups)):
            if cells:
                tables.append(Table(f"Accuracy by {name}", [name, "n", "correct", "accuracy % (95% CI)"],
                                    [[c["name"], str(c["n"]), str(c["n_correct"]),
                                      pct_ci(c["accuracy"], c["ci_low"], c["ci_high"])] for c in cells]))
        if s["errors"]:
            tables.append(Table("Most frequent errors", ["error", "count"],
                                [[e["error"], str(e["count"])] for e in s["errors"]]))
        out.append(Section(f"run-{s['run_id']}", f"{s['suite']} ({s['split']}) × {m['label']}",
                           "\n".join(lines), tables))
    return out
