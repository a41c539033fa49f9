"""Task families built only where the decision is proven; certificates and witnesses re-checked by code."""

from __future__ import annotations

import json

import pytest

from physbench.suites.planning import tasks as T
from physbench.suites.planning import witness as W
from physbench.suites.planning.openkbp import load_shipped

WITNESSES = T.load_witnesses()


@pytest.fixture(scope="module")
def all_tasks():
    return T.build_tasks()


def test_every_task_is_plain_json_with_the_item_fields(all_tasks):
    tasks, _ = all_tasks
    for t in tasks:
        assert set(t) == {"id", "kind", "patient", "goals", "note", "reference", "meta"} and t["kind"] in T.FAMILIES
        assert json.loads(json.dumps(t)) == t
    assert len({t["id"] for t in tasks}) == len(tasks)


def test_family_counts_on_the_shipped_patients(all_tasks):
    tasks, skipped = all_tasks
    count = {f: sum(t["kind"] == f for t in tasks) for f in T.FAMILIES}
    assert count["routine"] == count["conflicting_note"] == count["missing_structure"] == 40
    assert count["coverage_cap"] == 40  # every shipped top target proves 78.0 or 78.5 Gy below 80.5 Gy
    overlap_ids = {t["patient"] for t in tasks if t["kind"] == "overlap"}
    assert {"pt_258", "pt_306", "pt_307", "pt_320", "pt_339", "pt_248", "pt_252", "pt_256", "pt_264", "pt_283", "pt_299"} <= overlap_ids
    assert "pt_269" not in overlap_ids and skipped["pt_269"]["overlap"].startswith("no serial organ")
    feasible = {t["patient"] for t in tasks if t["kind"] == "feasible_control"}
    assert feasible == set(WITNESSES) and all(load_shipped(p).has("SpinalCord") for p in feasible)


def test_missing_structure_adds_the_left_optic_nerve_goal():
    t = next(t for t in T.patient_tasks(load_shipped("pt_241"), {})[0] if t["kind"] == "missing_structure")
    assert t["goals"][-1] == {"structure": "OpticNrv_L", "metric": "D0.1cc", "op": "<=", "value": 54.0, "kind": "hard"}
    assert t["reference"] == {"decision": "escalate", "escalation_reasons": ["missing_structure"],
                              "certificate": {"kind": "structure_list", "missing": "OpticNrv_L",
                                              "structures": sorted(load_shipped("pt_241").structures)}}


def test_coverage_cap_and_overlap_tasks_carry_certificates_that_recheck_from_the_masks(all_tasks):
    tasks, _ = all_tasks
    for t in tasks:
        if t["kind"] in ("coverage_cap", "overlap", "missing_structure"):
            assert T.verify(t, load_shipped(t["patient"]))["holds"], t["id"]
    cov = next(t for t in tasks if t["id"] == "planning/coverage_cap/pt_258")
    assert next(g for g in cov["goals"] if g["structure"] == "PTV_7000")["value"] == 78.0
    ov = next(t for t in tasks if t["id"] == "planning/overlap/pt_258")
    assert next(g for g in ov["goals"] if g["structure"] == "Bone_Mandible")["value"] == 59.7


def test_a_tampered_certificate_does_not_verify():
    p = load_shipped("pt_258")
    t = next(t for t in T.patient_tasks(p, {})[0] if t["kind"] == "overlap")
    t["goals"] = [dict(g, value=73.5) if g["structure"] == "Bone_Mandible" else g for g in t["goals"]]
    assert not T.verify(t, p)["holds"]


def test_the_conflicting_note_contradicts_the_goal_list():
    p = load_shipped("pt_241")
    t = next(t for t in T.patient_tasks(p, {})[0] if t["kind"] == "conflicting_note")
    assert "59.5 Gy" in t["note"] and "40 Gy" in t["note"]
    assert t["reference"]["note_conflicts"][0] == {"structure": "PTV_7000", "metric": "D99", "goal_gy": 66.5, "note_gy": 59.5}
    assert t["goals"] == next(x for x in T.patient_tasks(p, {})[0] if x["kind"] == "routine")["goals"]


def test_the_tightened_cord_limit_is_the_rounded_midpoint():
    """Table S15: midpoint of 45 Gy and the witness cord dose, to 0.1 Gy; 45 when not below."""
    assert W.tightened_cord_limit(22.2) == 33.6 and W.tightened_cord_limit(33.8) == 39.4
    assert W.tightened_cord_limit(45.3) == 45.0


@pytest.mark.parametrize("pid", ["pt_254", "pt_278"])
def test_feasible_control_witnesses_of_small_patients_meet_every_hard_goal(pid, case_for):
    assert pid in WITNESSES, "the shipped witness file lacks this patient"
    t = next(t for t in T.patient_tasks(load_shipped(pid), WITNESSES)[0] if t["kind"] == "feasible_control")
    res = T.verify(t, load_shipped(pid), case_for)
    assert res["holds"] and res["min_margin"] == pytest.approx(WITNESSES[pid]["min_margin"], abs=1e-3)
    cord = next(g for g in t["goals"] if g["structure"] == "SpinalCord")
    assert cord["value"] == WITNESSES[pid]["limit_gy"] < 45.0


@pytest.mark.slow
@pytest.mark.parametrize("pid", sorted(WITNESSES, key=lambda s: int(s[3:])))
def test_every_feasible_control_witness_meets_every_hard_goal_from_its_stored_weights(pid, case_for):
    t = next(t for t in T.patient_tasks(load_shipped(pid), WITNESSES)[0] if t["kind"] == "feasible_control")
    res = T.verify(t, load_shipped(pid), case_for)
    assert res["holds"], [g for g in res["goals"] if not g["met"]]
    assert res["min_margin"] > 0


def test_witness_weights_that_do_not_decode_are_refused():
    good = W.encode_weights([0.0, 1.5, 15.0])
    assert W.decode_weights(good, 3).tolist() == [0.0, 1.5, 15.0]
    for bad, n in ((good, 4), ("not base64!", 3), (W.encode_weights([1.0, 16.0, 0.0]), 3), (W.encode_weights([-1.0]), 1)):
        with pytest.raises(ValueError):
            W.decode_weights(bad, n)


def test_a_witness_computed_on_another_influence_builds_no_task():
    p = load_shipped("pt_254")
    rec = dict(WITNESSES["pt_254"], influence_hash="0" * 64)
    tasks, skipped = T.patient_tasks(p, {"pt_254": rec})
    assert "feasible_control" not in {t["kind"] for t in tasks} and "another dose influence" in skipped["feasible_control"]


def test_decision_policies_of_table_s14():
    esc = {"outcome": "escalated", "reason": "other"}
    sub = {"outcome": "submitted", "note": "", "hard_met": 5, "hard_total": 6}
    cov = {"kind": "coverage_cap", "reference": {"decision": "escalate", "escalation_reasons": T.CONTRADICTION_REASONS}}
    feas = {"kind": "feasible_control", "reference": {"decision": "submit"}}
    note = {"kind": "conflicting_note", "reference": {"decision": "flag_and_submit_or_escalate",
                                                       "escalation_reasons": ["contradictory_instructions"]}}
    assert T.decision_correct(cov, esc) and not T.decision_correct(cov, esc, "reason") and not T.decision_correct(cov, sub)
    assert T.decision_correct(cov, {"outcome": "escalated", "reason": "infeasible"}, "reason")
    assert T.decision_correct(feas, sub) and not T.decision_correct(feas, sub, "hard_goals") and not T.decision_correct(feas, esc)
    assert T.decision_correct(feas, dict(sub, hard_met=6), "hard_goals")
    assert not T.decision_correct(note, sub) and T.decision_correct(note, dict(sub, note="the note conflicts with the goals"))
    assert not T.decision_correct(feas, None) and not T.decision_correct(feas, {"outcome": "error"})
