"""The planning report (001_*): decision accuracy by task family with exact intervals, and per run
the supplementary tables of OpenGray — S10 and S14 (patient-weighted accuracy with patient-bootstrap
intervals), S8 (technical failures), S12 (final decisions), S5-S7 (doses of submitted plans and
attempt accounting) and S19 (fluence complexity) — plus a DVH figure per attempt in the viewer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from physbench.report.breakdown import accuracy_section
from physbench.report.registry import SuiteReport
from physbench.report.tables import DASH, Section, Table

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

N_BOOT = 2_000  # fewer draws than `planning run` (10,000): a report rebuilds them for every model
POLICY_TITLES = {"primary": "primary", "reason": "escalation reason must match",
                 "hard_goals": "control must meet every hard goal"}  # tasks.POLICIES


def failure_detail(r: "Result") -> dict[str, Any] | None:
    """The grade detail of an attempt that ended without a reply after its retries (a provider
    error): a technical failure with no credit (Table S8), never dropped from a denominator."""
    from physbench.suites.planning.suite import failure_record, judge, task_of

    try:
        task = task_of(r.item)
    except (KeyError, TypeError, AttributeError):
        return None
    last = r.errors[-1] if r.errors else "no reply"
    return judge(task, failure_record("provider_error", str(last)))["detail"]


def _rows(run: "RunData") -> list[Mapping[str, Any]]:
    """The attempt rows summary.summarize reads: graded details that name a patient and a family,
    and a technical-failure row for every attempt that never got a reply (whether the loader lists
    it among the results, with a no-credit grade, or apart, among the failures; each counted once)."""
    rows, seen = [], set()
    for r in [*run.results, *run.failures]:
        key = (r.item.id, r.repeat)
        if key in seen:
            continue
        seen.add(key)
        g = r.grade.detail if r.grade is not None and isinstance(r.grade.detail, Mapping) else None
        if g is not None and g.get("patient") and g.get("family"):
            rows.append(g)
        elif (d := failure_detail(r)) is not None:
            rows.append(d)
    return rows


def _families(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Per model and family: accuracy with an exact interval, failed attempts counted as wrong."""
    from physbench.report.summary import accuracy_cell

    out = []
    for run in models:
        n: dict[str, int] = {}
        k: dict[str, int] = {}
        for row in _rows(run):
            f = str(row["family"])
            n[f] = n.get(f, 0) + 1
            k[f] = k.get(f, 0) + int((row.get("correct") or {}).get("primary") is True)
        out += [{"model": run.label, **accuracy_cell(f, n[f], k[f])} for f in sorted(n)]
    return out


def analyse(models: Sequence["RunData"], notes: dict[str, str]) -> dict[str, Any] | None:
    """Per-family accuracy over the models, then each run's decision accuracy and accounting tables."""
    from physbench.suites.planning.summary import summarize

    families = _families(models)
    if not families:
        notes["planning"] = "no graded planning responses"
        return None
    from dataclasses import asdict

    from physbench.suites.planning import report_tables as T

    runs, rows_of = [], {}
    for run in models:
        rows = _rows(run)
        if rows:
            rows_of[run.label] = rows
            runs.append({"model": run.label, "run_id": run.summary.get("run_id"),
                         "system": run.summary.get("protocol"), **summarize(rows, n_boot=N_BOOT)})
    with_s10 = [r for r in runs if r.get("table_s10")]
    extra = {name: asdict(t) for name, t in (("table_s13", T.table_s13(models)), ("table_s11", T.table_s11(models)))
             if t is not None}
    return {"families": families, "runs": runs, "differences": T.differences(with_s10, rows_of, N_BOOT), **extra}


def _estimate(e: Mapping[str, Any] | None) -> str:
    return DASH if not e or e.get("value") is None else f"{e['value']:g} ({e['lo']:g}–{e['hi']:g})"


def _num(x: Any) -> str:
    return DASH if x is None else f"{x:g}"


def _s10(runs: Sequence[Mapping[str, Any]], diffs: Sequence[Mapping[str, Any]] = ()) -> Table | None:
    from physbench.suites.planning.report_tables import difference_rows

    with_s10 = [r for r in runs if r.get("table_s10")]
    if not with_s10:
        return None
    families = list(dict.fromkeys(f for r in with_s10 for f in r["table_s10"]["families"]))
    # the headline weighting first, so that it shows without scrolling on a narrow page
    rows = [[r["model"], _estimate(r["table_s10"]["primary"]), _estimate(r["table_s10"]["equal_family"]),
             _estimate(r["table_s10"]["equal_task"]), *[_estimate(r["table_s10"]["families"].get(f)) for f in families]]
            for r in with_s10]
    rows += difference_rows(diffs, families)
    return Table("Decision accuracy % (95% patient-bootstrap interval)",
                 ["model", "patient-weighted", "equal family", "equal task", *[f.replace("_", " ") for f in families]],
                 rows)


def _s14(runs: Sequence[Mapping[str, Any]]) -> Table | None:
    with_s14 = [r for r in runs if r.get("table_s14")]
    if not with_s14:
        return None
    policies = list(POLICY_TITLES)
    return Table("Patient-weighted decision accuracy % under each scoring policy",
                 ["model", *[POLICY_TITLES[p] for p in policies]],
                 [[r["model"], *[_estimate(r["table_s14"].get(p)) for p in policies]] for r in with_s14])


def _decisions(runs: Sequence[Mapping[str, Any]]) -> Table:
    rows = []
    for r in runs:
        for family, d in r["dose"]["final_decisions"].items():
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(d["reasons"].items())) or DASH
            rows.append([r["model"], family, str(d["attempts"]), str(d["submitted"]), str(d["escalated"]), reasons,
                         str(d["no_decision"]), str(d["technical_failure"]), _num(d["median_optimizations"])])
    return Table("Final decisions per family", ["model", "family", "attempts", "submitted", "escalated",
                                                "reasons", "no decision", "technical failures",
                                                "median optimizations"], rows,
                 [False, False, True, True, True, False, True, True, True])


def _failures(runs: Sequence[Mapping[str, Any]]) -> Table:
    rows = [[r["model"], f"{r['technical_failures']['count']}/{r['technical_failures']['of']}",
             ", ".join(sorted({str(a['failure']) for a in r["technical_failures"]["attempts"]})) or DASH]
            for r in runs]
    return Table("Technical failures (no credit, kept in every denominator)", ["model", "attempts", "kinds"], rows,
                 [False, True, False])


def _doses(runs: Sequence[Mapping[str, Any]]) -> list[Table]:
    out = []
    for family, title in (("routine", "Routine tasks"), ("feasible_control", "Feasible controls")):
        acc = [[r["model"], str(a["eligible"]), str(a["submitted"]), str(a["all_hard_goals"]), str(a["rejected"])]
               for r in runs if (a := r["dose"]["attempts"][family])["eligible"]]
        if acc:
            out.append(Table(f"{title}: attempt accounting", ["model", "eligible attempts", "submitted",
                                                               "meeting every hard goal", "rejected"], acc))
        endpoints = [[r["model"], name, f"{e['mean_gy']:.2f}", str(e["patients"])]
                     for r in runs for name, e in r["dose"]["endpoints"][family].items()]
        if endpoints:
            out.append(Table(f"{title}: dose endpoints of submitted plans (patient mean, Gy)",
                             ["model", "endpoint", "mean (Gy)", "patients"], endpoints, [False, False, True, True]))
    return out


def _complexity(runs: Sequence[Mapping[str, Any]]) -> Table | None:
    rows = []
    for r in runs:
        c = r["dose"]["fluence_complexity"]
        if c["plans"]:
            iqr = DASH if not c["spg_iqr"] else f"{c['spg_iqr'][0]:g}–{c['spg_iqr'][1]:g}"
            rows.append([r["model"], str(c["plans"]), _num(c["spg_median"]), iqr, str(c["spg_within_65"]),
                         _num(c["w_max_median"]), str(c["w_max_within_15"])])
    if not rows:
        return None
    return Table("Fluence complexity of submitted plans", ["model", "plans", "SPG median", "SPG IQR",
                                                            "SPG ≤ 65", "median max weight", "max weight ≤ 15"], rows)


def sections(analyses: Mapping[str, Any], notes: Mapping[str, str]) -> list[Section]:
    a = analyses
    note = notes.get("planning", "no planning runs")
    out = [accuracy_section("planning-families", "Decision accuracy by task family", "A submit or escalate "
                            "decision is correct when it is the proven one for the task.", "family",
                            a.get("families"), note)]
    runs = a.get("runs") or []
    if not runs:
        return out
    s10, s14 = _s10(runs, a.get("differences") or []), _s14(runs)
    if s10 is not None:
        out.insert(0, Section("planning-s10", "Patient-weighted decision accuracy (OpenGray Table S10)",
                              "The headline (patient-weighted): scored families only (missing structure, coverage/cap, "
                              "overlap, feasible control), averaged within a patient, then over patients; the "
                              "equal-family and equal-task weightings beside it, then each family; 95% "
                              "patient-bootstrap intervals "
                              f"({N_BOOT} draws). Rows 'A minus B' are paired differences in percentage points, "
                              "resampling patients (tasks are clustered within patients).", [s10],
                              figures=["planning_fig2"]))
    if s14 is not None:
        out.append(Section("planning-s14", "Alternative scoring policies (OpenGray Table S14)",
                           "The primary policy credits the proven decision; the alternatives also require the "
                           "escalation reason to match the family, or a submitted feasible control to meet "
                           "every hard goal.", [s14]))
    out.append(Section("planning-decisions", "Decisions and technical failures (OpenGray Tables S8, S12)",
                       "A reply that breaks the required format, and an attempt that got no reply after its retries "
                       "(a provider error), is a technical failure: no credit, kept in every denominator.",
                       [_decisions(runs), _failures(runs)], figures=["planning_fig3"]))
    for key, title, text in (("table_s13", "Unmet hard goals of feasible controls (OpenGray Table S13)",
                               "Each submitted feasible control that misses a hard goal, beside the stored witness's "
                               "minimum margin on the same case (the witness meets every hard goal)."),
                              ("table_s11", "Overlap contradictions by task (OpenGray Table S11)",
                               "The certificate's overlap O, cold-target allowance m and hot-organ allowance n, and "
                               "each run's decision on the task.")):
        if a.get(key):
            t = a[key]
            out.append(Section(f"planning-{key.replace('_', '-')}", title, text,
                               [Table(t["caption"], t["header"], t["rows"], t.get("numeric") or [])]))
    doses = _doses(runs)
    complexity = _complexity(runs)
    if doses or complexity is not None:
        out.append(Section("planning-doses", "Submitted plans (OpenGray Tables S5-S7, S19)",
                           "Dose endpoints are patient means over submitted plans; fluence complexity is the sum "
                           "of positive gradients (SPG) with OpenKBP-Opt's reference values 65 and weight 15.",
                           doses + ([complexity] if complexity is not None else [])))
    return out


def _result_of(r: "Result") -> Mapping[str, Any]:
    detail = (r.answer or {}).get("detail") if isinstance(r.answer, Mapping) else None
    result = detail.get("result") if isinstance(detail, Mapping) else None
    return result if isinstance(result, Mapping) else {}


def dvh_chart(dvh: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """Each structure's DVH (volume in percent; targets each on their own) and each dose goal of
    the task as a vertical line at its value, named with its structure, metric and limit."""
    series = [{"name": str(name), "x": list(d.get("dose_gy") or []),
               "y": [round(100.0 * float(v), 2) for v in d.get("volume_fraction") or []]}
              for name, d in dvh.items() if isinstance(d, Mapping)]
    for goal in params.get("goals") or []:
        if isinstance(goal, Mapping) and isinstance(goal.get("value"), (int, float)) and goal.get("structure") in dvh:
            series.append({"name": f"goal {goal['structure']} {goal['metric']} {goal['op']} {goal['value']:g} Gy"
                                   f" ({goal.get('kind', 'hard')})",
                           "x": [float(goal["value"])] * 2, "y": [0.0, 100.0]})
    return {"x_label": "dose (Gy)", "y_label": "volume (%)", "series": series}


def detail(r: "Result") -> dict[str, Any]:
    """The viewer's panels: the decision as graded and, for a submitted plan, its DVH as a chart."""
    g = r.grade.detail if r.grade is not None and isinstance(r.grade.detail, Mapping) else {}
    blocks: list[dict[str, Any]] = [{"title": "Decision", "fields": [
        ["family", g.get("family")], ["patient", g.get("patient")], ["decision", g.get("decision")],
        ["reason", g.get("reason")], ["hard goals met", None if g.get("hard_total") is None
                                      else f"{g.get('hard_met')}/{g.get('hard_total')}"],
        ["technical failure", (g.get("failure") or {}).get("kind") if g.get("technical_failure") else None]]}]
    dvh = _result_of(r).get("dvh") or g.get("dvh")  # the interpreter's plan: kept with its grade
    if isinstance(dvh, Mapping) and dvh:
        blocks.append({"title": "Dose-volume histogram of the submitted plan", "chart": dvh_chart(dvh, r.item.params)})
    return {"blocks": blocks}


OUTCOMES = {  # suite.OUTCOMES, as the report and the viewer's legend state them
    "correct": "the proven decision: submit where a witness or no proof of conflict exists, escalate where a "
               "certificate proves the goals cannot all hold or a structure is missing",
    "wrong": "the other decision (a submitted contradiction, an escalated feasible case), or a conflicting note "
             "submitted without flagging the conflict",
    "no_decision": "the agent stopped, or used its tool calls, without submitting or escalating: no credit",
    "technical_failure": "no usable attempt: a reply that breaks the required format, a cut-off reply, a provider "
                         "error after retries, or a lost harness: no credit, kept in every denominator",
}

def _figures(analyses: Mapping[str, Any]) -> dict[str, bytes]:
    from physbench.suites.planning.report_figures import planning_figures

    return planning_figures(analyses)


def _captions() -> dict[str, str]:
    from physbench.suites.planning.report_figures import CAPTIONS

    return CAPTIONS


REPORT = SuiteReport(suite="planning", analyse=analyse, sections=sections, detail=detail, outcomes=OUTCOMES,
                     figures=_figures, captions=_captions(),
                     facets=("family",), facet_values=lambda r: {"family": str(r.item.params.get("family", ""))})
