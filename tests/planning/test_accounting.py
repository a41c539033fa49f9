"""Dose and decision accounting of a run (Tables S5-S7, S12, S19) from grade details."""

from __future__ import annotations

from physbench.suites.planning import accounting as A


def sub(patient, family, hard_met=6, rejected=None, spg=120.0, w_max=14.0, **endpoints):
    return {"patient": patient, "family": family, "decision": "submitted", "hard_met": hard_met, "hard_total": 6,
            "rejected": rejected, "spg": spg, "w_max": w_max, "optimize_calls": 2, "technical_failure": False,
            "endpoints": endpoints or {"External Dmax": 76.0}}


ROWS = [sub("A", "routine", **{"External Dmax": 76.0}), sub("A", "routine", **{"External Dmax": 75.0}),
        sub("B", "routine", hard_met=5, rejected="global max", spg=60.0, w_max=15.5, **{"External Dmax": 74.0}),
        {"patient": "C", "family": "routine", "decision": "escalated", "reason": "other", "optimize_calls": 0},
        {"patient": "C", "family": "overlap", "decision": None, "technical_failure": True},
        sub("A", "feasible_control", spg=200.0)]


def test_endpoints_are_patient_means_among_submitted_plans():
    """Table S5: A's two repetitions average to 75.5, then (75.5 + 74.0) / 2 = 74.75 over 2 patients."""
    assert A.dose_endpoints(ROWS, "routine") == {"External Dmax": {"mean_gy": 74.75, "patients": 2}}


def test_attempt_accounting_counts_every_eligible_attempt():
    assert A.attempt_accounting(ROWS, "routine") == {"eligible": 4, "submitted": 3, "all_hard_goals": 2, "rejected": 1}


def test_final_decisions_per_family():
    d = A.final_decisions(ROWS)
    assert d["routine"]["escalated"] == 1 and d["routine"]["reasons"] == {"other": 1} and d["routine"]["submitted"] == 3
    assert d["routine"]["median_optimizations"] == 2 and d["overlap"]["technical_failure"] == 1


def test_fluence_complexity_of_submitted_routine_and_feasible_plans():
    f = A.fluence_complexity(ROWS)
    assert f["plans"] == 4 and f["spg_median"] == 120.0 and f["spg_within_65"] == 1 and f["w_max_within_15"] == 3
    assert A.fluence_complexity([])["spg_median"] is None
