"""Metric conventions of OpenKBP-Opt's dose_evaluation_class.py and OpenGray Table S15."""

from __future__ import annotations

import numpy as np
import pytest

from physbench.suites.planning import metrics as M
from physbench.suites.planning.openkbp import load_shipped


def test_d99_is_the_first_percentile_with_linear_interpolation():
    """Table S15 / OpenKBP: D99 = np.percentile(dose, 1). For 0..100 Gy in 101 voxels that is 1 Gy;
    for 0, 10, 20, 30 Gy the first percentile sits at position 0.03: 0.3 Gy."""
    assert M.d_percent(np.arange(101.0), 99) == pytest.approx(1.0)
    assert M.d_percent(np.array([30.0, 0.0, 20.0, 10.0]), 99) == pytest.approx(0.3)


def test_d01cc_uses_round_of_a_tenth_cc_over_the_voxel_volume():
    """OpenKBP: n = max(1, round(100 mm^3 / voxel mm^3)); D0.1cc = percentile(100 - 100 n / N).
    Voxels of 4.688 x 4.688 x 3 mm (65.93 mm^3) give n = round(1.517) = 2; with doses 1..100 Gy
    the percentile 98 sits at position 97.02: 98.02 Gy, between the 3rd and 2nd hottest voxels."""
    voxel_cc = 4.688 * 4.688 * 3.0 / 1000.0
    assert M.cc_voxels(0.1, voxel_cc) == 2
    assert M.d_cc(np.arange(1.0, 101.0), 0.1, voxel_cc) == pytest.approx(98.02)
    assert M.cc_voxels(0.1, 1.0) == 1  # a voxel bigger than 0.1 cc still counts one


def test_dmean_and_dmax():
    d = np.array([1.0, 2.0, 6.0])
    assert M.value(M.parse_metric("Dmean"), d, 0.05) == 3.0 and M.value(M.parse_metric("Dmax"), d, 0.05) == 6.0


def test_a_target_is_merged_with_the_higher_prescription_targets():
    """OpenKBP merge_targets: PTV56 is the union of the PTV56, PTV63 and PTV70 masks."""
    p = load_shipped("pt_289")
    merged = M.merged_target(p, "PTV_5600")
    union = np.union1d(np.union1d(p.mask("PTV_5600"), p.mask("PTV_6300")), p.mask("PTV_7000"))
    assert np.array_equal(merged, union) and merged.size == 14045
    assert np.array_equal(M.merged_target(p, "PTV_7000"), p.mask("PTV_7000"))


def test_voxels_outside_the_possible_dose_mask_count_as_zero_dose(case_for):
    case = case_for("pt_254")
    rows, outside = case.rows("SpinalCord", merge=False)
    assert outside > 0
    dose = np.full(case.influence.voxels.size, 10.0)
    sd = case.structure_dose(dose, "SpinalCord", merge=False)
    assert sd.size == rows.size + outside and (sd == 0).sum() == outside
    assert case.metric(dose, "SpinalCord", "Dmean") == pytest.approx(10.0 * rows.size / sd.size)


@pytest.mark.parametrize("bad", ["D100", "D0", "V20Gy", "Dmin", "D-1cc", "", "D99 ", "D" + "9" * 40])
def test_unknown_metrics_are_refused(bad):
    if bad == "D99 ":
        assert M.parse_metric(bad).name == "D99"
        return
    with pytest.raises(ValueError):
        M.parse_metric(bad)
