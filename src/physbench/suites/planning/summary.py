"""Decision accuracy of a run (OpenGray Tables S10 and S14): a thin adapter from graded attempts to
physbench.stats.weighting, which owns the weightings and the patient bootstrap.

An attempt row is a grade's detail (suite.judge): patient, family, decision, and ``correct``
under the three policies. A technical failure stays in the denominators with no credit (Fig. 2).
Table S10 uses the four scored families; ``decision_accuracy`` also reports the two unscored
ones (routine, conflicting note) per family. Values are percent.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from physbench.suites.planning.tasks import FAMILIES, POLICIES, SCORED

N_BOOT = 10_000


def _pct(x: float) -> float | None:
    return None if x != x else round(100.0 * x, 2)


def _estimate(e: Any) -> dict[str, Any]:
    return {"value": _pct(e.value), "lo": _pct(e.lo), "hi": _pct(e.hi), "n_boot": e.n_boot}


def _rows(attempts: Iterable[Mapping[str, Any]], families: Iterable[str]) -> list[Mapping[str, Any]]:
    keep = set(families)
    out = []
    for a in attempts:
        if not isinstance(a, Mapping) or a.get("family") not in keep or not a.get("patient"):
            raise ValueError("every attempt needs a patient and a known family")
        out.append(a)
    if not out:
        raise ValueError("no graded attempts of these families")
    return out


def task_table(attempts: Iterable[Mapping[str, Any]], policy: str = "primary", families: Iterable[str] = SCORED) -> Any:
    """Patients x families table of the attempts' credit under ``policy`` (repetitions averaged)."""
    from physbench.stats.weighting import TaskTable

    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    rows = _rows(attempts, families)
    credit = [1.0 if (r.get("correct") or {}).get(policy) is True else 0.0 for r in rows]
    return TaskTable.from_rows([r["patient"] for r in rows], [r["family"] for r in rows], credit)


def _shape(result: Any, order: Iterable[str]) -> dict[str, Any]:
    families = {f: {"value": _pct(v.value), "lo": _pct(v.lo), "hi": _pct(v.hi), "patients": v.patients}
                for f in order if (v := result.families.get(f)) is not None}
    return {"families": families, "primary": _estimate(result.primary), "equal_family": _estimate(result.equal_family),
            "equal_task": _estimate(result.equal_task), "patients": result.patients, "tasks": result.tasks}


def table_s10(attempts: Iterable[Mapping[str, Any]], *, n_boot: int = N_BOOT, seed: int = 0) -> dict[str, Any]:
    """Per scored family and under the three weightings, with 95% patient-bootstrap intervals."""
    from physbench.stats.weighting import decision_accuracy

    return _shape(decision_accuracy(task_table(attempts), n_boot=n_boot, seed=seed), SCORED)


def table_s14(attempts: Iterable[Mapping[str, Any]], *, n_boot: int = N_BOOT, seed: int = 0) -> dict[str, Any]:
    """Patient-weighted accuracy under the primary policy and the two alternatives."""
    from physbench.stats.weighting import decision_accuracy

    rows = list(attempts)
    return {p: _estimate(decision_accuracy(task_table(rows, p), n_boot=n_boot, seed=seed).primary) for p in POLICIES}


def difference(first: Iterable[Mapping[str, Any]], second: Iterable[Mapping[str, Any]], *, n_boot: int = N_BOOT,
               seed: int = 0) -> dict[str, Any]:
    """First minus second system on the same tasks (percentage points): Table S10's last row and
    Table S14's last column, with paired patient-bootstrap intervals."""
    from physbench.stats.weighting import decision_accuracy_difference

    a, b = list(first), list(second)
    s10 = _shape(decision_accuracy_difference(task_table(a), task_table(b), n_boot=n_boot, seed=seed), SCORED)
    s14 = {p: _estimate(decision_accuracy_difference(task_table(a, p), task_table(b, p), n_boot=n_boot, seed=seed).primary)
           for p in POLICIES}
    return {"table_s10": s10, "table_s14": s14}


def per_family(attempts: Iterable[Mapping[str, Any]]) -> dict[str, float | None]:
    """Primary-policy accuracy (percent) of every family with attempts: the patient mean, repetitions
    averaged within a patient first (no interval; Table S10 carries those)."""
    rows = _rows(attempts, FAMILIES)
    out: dict[str, float | None] = {}
    for f in FAMILIES:
        by_patient: dict[str, list[float]] = {}
        for r in rows:
            if r["family"] == f:
                by_patient.setdefault(r["patient"], []).append(1.0 if (r.get("correct") or {}).get("primary") is True else 0.0)
        if by_patient:
            out[f] = _pct(sum(sum(v) / len(v) for v in by_patient.values()) / len(by_patient))
    return out


def technical_failures(attempts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Table S8: every attempt that ended in a technical failure, and whether it is a scored task."""
    rows = list(attempts)
    fails = [{"patient": r.get("patient"), "family": r.get("family"),
              "failure": (r.get("failure") or {}).get("kind"), "primary": r.get("family") in SCORED}
             for r in rows if r.get("technical_failure")]
    return {"count": len(fails), "of": len(rows), "attempts": fails}


def summarize(attempts: Iterable[Mapping[str, Any]], *, n_boot: int = N_BOOT, seed: int = 0) -> dict[str, Any]:
    """One run's report: per-family accuracy, Tables S10 and S14, technical failures (S8), and the
    dose accounting of accounting.dose_report (S5-S7, S12, S19)."""
    from physbench.suites.planning.accounting import dose_report

    rows = list(attempts)
    scored = [r for r in rows if r.get("family") in SCORED]
    out: dict[str, Any] = {"decision_accuracy": per_family(rows), "technical_failures": technical_failures(rows),
                           "dose": dose_report(rows)}
    if scored:
        out["table_s10"] = table_s10(scored, n_boot=n_boot, seed=seed)
        out["table_s14"] = table_s14(scored, n_boot=n_boot, seed=seed)
    return out
