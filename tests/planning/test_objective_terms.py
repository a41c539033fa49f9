"""The anchor's five objective terms and its plan metrics (001_*; OpenGray's harness): worked
examples of uniform_dose, dvh_max, V_xGy, Paddick's CI and the D5/D95 HI, and the tools that take them."""

from __future__ import annotations

import numpy as np
import pytest

from physbench.suites.planning import optimizer as O
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.openkbp import Patient
from physbench.suites.planning.plan_quality import plan_metric
from physbench.suites.planning.tools import TERM_TYPES


def test_the_five_terms_are_the_anchors():
    assert TERM_TYPES == O.TERMS == ("min_dose", "max_dose", "mean_dose", "uniform_dose", "dvh_max")


def test_uniform_dose_penalises_any_difference_from_its_level_and_counts_voxels_off_the_grid():
    """doses 68 and 72 Gy, level 70, priority 2, a third voxel outside the grid (dose 0):
    f = 2/3 (2^2 + 2^2 + 70^2) = 3272; gradient 2 * 2/3 * (d - 70) = -8/3, +8/3."""
    f, g = O.term_penalty(O.Term("PTV_7000", "uniform_dose", 70.0, 2.0), np.array([68.0, 72.0]), 3, 1)
    assert f == pytest.approx(3272.0) and g == pytest.approx([-8 / 3, 8 / 3])


def test_dvh_max_pushes_down_only_the_voxels_between_its_level_and_the_dose_at_the_allowed_fraction():
    """doses 10, 20, 30, 40, level 15, at most half the volume above it: D at 50 % is 25 Gy, so only
    the voxel at 20 Gy is penalised: f = 4/4 * 5^2 = 25, gradient 2 * 4/4 * 5 = 10 on it alone.
    Allowing 80 % above 15 Gy (75 % are) costs nothing."""
    d = np.array([10.0, 20.0, 30.0, 40.0])
    f, g = O.term_penalty(O.Term("Larynx", "dvh_max", 15.0, 4.0, 0.5), d, 4, 0)
    assert f == pytest.approx(25.0) and g == pytest.approx([0.0, 10.0, 0.0, 0.0])
    f, g = O.term_penalty(O.Term("Larynx", "dvh_max", 15.0, 4.0, 0.8), d, 4, 0)
    assert f == 0.0 and not g.any()


def test_the_first_three_terms_keep_their_formulas():
    d = np.array([60.0, 75.0])
    assert O.term_penalty(O.Term("S", "min_dose", 70.0, 1.0), d, 3, 1)[0] == pytest.approx((100 + 4900) / 3)
    assert O.term_penalty(O.Term("S", "max_dose", 70.0, 1.0), d, 2, 0)[0] == pytest.approx(25 / 2)
    f, g = O.term_penalty(O.Term("S", "mean_dose", 60.0, 1.0), d, 2, 0)
    assert f == pytest.approx(7.5**2) and g == pytest.approx([7.5, 7.5])


@pytest.mark.parametrize("term, vf", [("dvh_max", None), ("dvh_max", 1.0), ("dvh_max", 0.0), ("max_dose", 0.5)])
def test_a_volume_fraction_belongs_to_dvh_max_and_lies_strictly_between_0_and_1(term, vf):
    with pytest.raises(ValueError, match="volume_fraction"):
        O.Term("Larynx", term, 40.0, 1.0, vf)


def _case() -> Case:
    """Ten External voxels; PTV_7000 the first four, the mandible voxels 4-5."""
    p = Patient("pt_x", (2.0, 2.0, 2.5), np.arange(10, dtype=np.int64),
                {"PTV_7000": np.arange(4, dtype=np.int64), "Mandible": np.array([4, 5], dtype=np.int64)})
    return Case(p, lambda: None)  # metrics read only the masks


DOSE = np.array([72.0, 71.0, 69.0, 70.0, 70.0, 10.0, 0.0, 0.0, 0.0, 0.0])


def test_paddick_ci_v_gy_and_hi_by_hand():
    """TV 4 target voxels, 3 of them at >= 70 Gy (TV_PIV), 4 External voxels at >= 70 Gy (PIV):
    CI = 3^2 / (4 * 4) = 0.5625. V70Gy of the target = 3/4 = 75 %. HI = D5/D95 with numpy's linear
    percentiles of 69, 70, 71, 72: D5 = 71.85, D95 = 69.15."""
    case = _case()
    assert plan_metric(case, DOSE, "PTV_7000", "CI") == (pytest.approx(0.5625), "ratio")
    assert plan_metric(case, DOSE, "PTV_7000", "V70Gy") == (pytest.approx(75.0), "%")
    assert plan_metric(case, DOSE, "Mandible", "V20Gy") == (pytest.approx(50.0), "%")
    assert plan_metric(case, DOSE, "PTV_7000", "HI") == (pytest.approx(71.85 / 69.15), "ratio")
    assert plan_metric(case, DOSE, "PTV_7000", "Dmax") == (72.0, "Gy")


def test_ci_and_hi_off_a_target_or_undefined_are_refused_in_a_sentence():
    case = _case()
    with pytest.raises(ValueError, match="targets only"):
        plan_metric(case, DOSE, "Mandible", "CI")
    with pytest.raises(ValueError, match="D95 is zero"):
        plan_metric(case, np.zeros(10), "PTV_7000", "HI")
    with pytest.raises(ValueError, match="unknown metric"):
        plan_metric(case, DOSE, "PTV_7000", "V70")


def test_the_tools_take_the_new_terms_and_metrics(case_for):
    from physbench.suites.planning.harness import PlanningHarness
    from physbench.suites.planning.tasks import patient_tasks

    case = case_for("pt_278")
    h = PlanningHarness(patient_tasks(case.patient, {})[0][0], case, solver=O.SolverConfig(max_iter=30))
    bad = h.call("set_objectives", {"objectives": [{"structure": "Parotid_L", "term": "dvh_max", "level": 30,
                                                     "priority": 5}]})
    assert bad["valid"] is False and "volume_fraction" in bad["problems"][0]
    obj = h.call("set_objectives", {"objectives": [
        {"structure": "PTV_7000", "term": "uniform_dose", "level": 70, "priority": 10},
        {"structure": "Parotid_L", "term": "dvh_max", "level": 30, "priority": 5, "volume_fraction": 0.3}]})
    assert obj["valid"], obj
    plan = h.call("optimize", {"objective_id": obj["objective_id"]})
    assert plan["plan_id"] == "plan_1", plan
    got = h.call("get_metrics", {"plan_id": "plan_1", "metrics": [
        {"structure": "PTV_7000", "metric": "CI"}, {"structure": "PTV_7000", "metric": "HI"},
        {"structure": "Parotid_L", "metric": "V30Gy"}, {"structure": "Parotid_L", "metric": "CI"}]})["values"]
    assert 0 < got[0]["value"] <= 1 and got[0]["unit"] == "ratio"
    assert got[1]["value"] >= 1 and 0 <= got[2]["value"] <= 100 and got[2]["unit"] == "%"
    assert got[3]["value"] is None and "targets only" in got[3]["error"]
    assert h.call("get_case_summary")["objective_terms"] == list(TERM_TYPES)
