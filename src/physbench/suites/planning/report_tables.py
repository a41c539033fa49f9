"""Planning report tables beside Table S10: the system-difference rows (Table S10's last row, paired
patient bootstrap), the unmet hard goals of submitted feasible controls (Table S13) and the
per-task overlap decisions (Table S11). Rows are grade details (suite.judge) plus, for S11 and
S13, each attempt's item (its goals and certificate)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from physbench.report.tables import DASH, Table

if TYPE_CHECKING:
    from physbench.report.loading import RunData

TOL_GY = 0.05  # goals.TOL_GY (Table S15)


def _estimate(e: Mapping[str, Any] | None) -> str:
    return DASH if not e or e.get("value") is None else f"{e['value']:+g} ({e['lo']:g} to {e['hi']:g})"


def differences(runs: Sequence[Mapping[str, Any]], rows_of: Mapping[str, list[Mapping[str, Any]]], n_boot: int
                ) -> list[dict[str, Any]]:
    """First minus second for each pair of runs on the same scored tasks (interpreter before agent
    when both are there, as the paper orders them), in percentage points."""
    from physbench.suites.planning.summary import difference
    from physbench.suites.planning.tasks import SCORED

    order = {"direct": 0, "agent": 1, "opengray-agent": 1}
    ranked = sorted(runs, key=lambda r: order.get(str(r.get("system")), 2))
    out = []
    for i, a in enumerate(ranked):
        for b in ranked[i + 1:]:
            ra = [r for r in rows_of[a["model"]] if r.get("family") in SCORED]
            rb = [r for r in rows_of[b["model"]] if r.get("family") in SCORED]
            try:
                d = difference(ra, rb, n_boot=n_boot)
            except ValueError:  # not the same patients and families: no paired difference
                continue
            out.append({"label": f"{a['model']} minus {b['model']}", "first": a["model"], "second": b["model"], **d})
    return out


def _short(label: str, most: int = 20) -> str:
    return label if len(label) <= most else label[: most - 1] + "…"


def difference_rows(diffs: Sequence[Mapping[str, Any]], families: Sequence[str]) -> list[list[str]]:
    """Rows to append under Table S10 (the three weightings, then each family's difference); each side of
    the label cut to 20 characters, so the table fits a 1000 px page (report.json keeps it whole)."""
    rows = []
    for d in diffs:
        s10 = d["table_s10"]
        label = " minus ".join(_short(side) for side in (d.get("first"), d.get("second")) if side) or d["label"]
        rows.append([label, _estimate(s10["primary"]), _estimate(s10["equal_family"]), _estimate(s10["equal_task"]),
                     *[_estimate(s10["families"].get(f)) for f in families]])
    return rows


def _witness_margin(item: Any) -> str:
    cert = (item.reference or {}).get("certificate") if isinstance(item.reference, Mapping) else None
    m = cert.get("min_margin") if isinstance(cert, Mapping) else None
    return DASH if not isinstance(m, (int, float)) else f"{m:.2f}"


def table_s13(models: Sequence["RunData"]) -> Table | None:
    """Unmet hard goals of submitted feasible controls: the goal, the achieved value, how far
    outside the 0.05 Gy tolerance, and the stored witness's minimum margin on the same case."""
    runs_of: dict[tuple[str, ...], list[int]] = {}  # a row, and the runs (repeats) that gave it
    for run in models:
        for r in sorted(run.results, key=lambda x: x.repeat):
            g = r.grade.detail if r.grade is not None and isinstance(r.grade.detail, Mapping) else {}
            if g.get("family") != "feasible_control" or g.get("decision") != "submitted":
                continue
            goals = {f"{x['structure']} {x['metric']}": x for x in r.item.params.get("goals", [])}
            for name in g.get("unmet_hard") or []:
                goal, achieved = goals.get(name), (g.get("endpoints") or {}).get(name)
                if goal is None or not isinstance(achieved, (int, float)):
                    continue
                beyond = (achieved - goal["value"] - TOL_GY) if goal["op"] == "<=" else (goal["value"] - TOL_GY - achieved)
                row = (run.label, str(g.get("patient")), f"{name} {goal['op']} {goal['value']:g} Gy",
                       f"{achieved:.2f}", f"{beyond:.2f}", _witness_margin(r.item))
                runs_of.setdefault(row, []).append(r.repeat + 1)
    if not runs_of:
        return None
    body = [[*row[:2], ", ".join(map(str, runs)), *row[2:]] for row, runs in runs_of.items()]
    return Table("Unmet hard goals of submitted feasible controls (Gy)",
                 ["model", "patient", "runs", "goal", "achieved", "beyond tolerance", "witness minimum margin"], body,
                 [False, False, False, False, True, True, True])


def table_s11(models: Sequence["RunData"]) -> Table | None:
    """Each overlap task: its certificate's counts and every run's decision (repeats in order)."""
    tasks: dict[str, dict[str, Any]] = {}
    decisions: dict[tuple[str, str], list[str]] = {}
    for run in models:
        for r in sorted(run.results, key=lambda x: x.repeat):
            g = r.grade.detail if r.grade is not None and isinstance(r.grade.detail, Mapping) else {}
            if g.get("family") != "overlap":
                continue
            cert = (r.item.reference or {}).get("certificate") or {}
            tasks.setdefault(str(g.get("patient")), cert)
            decisions.setdefault((str(g.get("patient")), run.label), []).append(str(g.get("decision") or DASH))
    if not tasks:
        return None
    labels = list(dict.fromkeys(run.label for run in models))
    body = []
    for patient in sorted(tasks):
        c = tasks[patient]
        counts = [str(c.get(k, DASH)) for k in ("O", "m", "n")]
        margin = str(c["O"] - c["m"] - c["n"]) if all(isinstance(c.get(k), int) for k in ("O", "m", "n")) else DASH
        body.append([patient, *counts, margin, *[", ".join(decisions.get((patient, m), [DASH])) for m in labels]])
    return Table("Overlap contradictions by task: certificate counts and decisions",
                 ["patient", "O", "m", "n", "count margin", *labels], body,
                 [False, True, True, True, True, *[False] * len(labels)])
