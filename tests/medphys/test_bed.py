"""BED/EQD2 generator: the linear-quadratic formulas by hand and every error mode's direction."""

from __future__ import annotations

import math

import pytest

from physbench.suites.medphys import bed
from physbench.suites.medphys.base import draw

GEN = bed.GENERATOR


def _ref(level, p):
    return GEN.level(level).solve(p)


def _mode(name, level, p):
    return GEN.mode(name).answer(level, p)


# --- formulas (PROTOCOL-FACTS, "Linear-quadratic model") ---------------------------------------------------

def test_bed_of_textbook_regimens():
    """BED = n d (1 + d/(a/b)) (Fowler 1989): 30 x 2 Gy, a/b 10 -> 72 Gy; 3 x 18 Gy, a/b 10 -> 151.2 Gy;
    30 x 2 Gy, a/b 3 -> 100 Gy."""
    assert bed.bed(30, 2.0, 10.0) == pytest.approx(72.0)
    assert bed.bed(3, 18.0, 10.0) == pytest.approx(151.2)
    assert bed.bed(30, 2.0, 3.0) == pytest.approx(100.0)


def test_eqd2_of_textbook_regimens():
    """EQD2 = BED/(1 + 2/(a/b)): 2 Gy fractions are their own EQD2 (72/1.2 = 60 Gy); 3 x 18 Gy at a/b 10
    -> 151.2/1.2 = 126 Gy; equivalently EQD2 = D (d + a/b)/(2 + a/b) (ICRPaedia, EQDX with X = 2)."""
    assert bed.eqd2(72.0, 10.0) == pytest.approx(60.0)
    assert bed.eqd2(bed.bed(3, 18.0, 10.0), 10.0) == pytest.approx(126.0)
    assert bed.eqd2(bed.bed(5, 7.0, 3.0), 3.0) == pytest.approx(35.0 * (7.0 + 3.0) / (2.0 + 3.0))


def test_iso_effective_dose_per_fraction_is_the_positive_root():
    """n d (1 + d/(a/b)) = BED: 10 fractions for BED 48 Gy at a/b 10 -> d = (-10 + sqrt(100 + 192))/2
    = 3.5440 Gy; back-substitution gives the BED again."""
    d = bed.iso_effective_d(48.0, 10, 10.0)
    assert d == pytest.approx((-10 + math.sqrt(292)) / 2, rel=1e-12)
    assert d == pytest.approx(3.5440, abs=1e-4)
    assert bed.bed(10, d, 10.0) == pytest.approx(48.0, rel=1e-12)


# --- level 1 --------------------------------------------------------------------------------------------------

L1 = bed.BedCourse("spinal cord", 2.0, 30, 2.0, 80.0)  # d_s = 1.6 Gy


def test_level1_by_hand():
    """d = 0.800 x 2.00 = 1.60 Gy; BED = 30 x 1.6 x (1 + 1.6/2) = 86.4 Gy."""
    assert bed.violations_l1(L1) == []
    assert _ref(1, L1) == pytest.approx(86.4, rel=1e-12)


def test_level1_modes():
    ref = _ref(1, L1)
    assert _mode("no_fractionation", 1, L1) == pytest.approx(48.0)  # physical dose 30 x 1.6 < BED
    assert _mode("prescribed_dose", 1, L1) == pytest.approx(120.0)  # 30 x 2 x 2: the structure gets 80%
    assert _mode("total_for_d", 1, L1) == pytest.approx(48.0 * (1 + 48.0 / 2))  # 1200 Gy
    assert _mode("no_fractionation", 1, L1) < ref < _mode("prescribed_dose", 1, L1) < _mode("total_for_d", 1, L1)


# --- level 2 --------------------------------------------------------------------------------------------------

L2 = bed.Eqd2Course("rectal wall", 3.0, 25, 200.0, 95.0)  # d_s = 1.9 Gy
L2_HYPO = bed.Eqd2Course("rectal wall", 3.0, 5, 800.0, 50.0)  # d_s = 4.0 Gy


def test_level2_by_hand():
    """200 cGy = 2.00 Gy; d = 1.90 Gy; BED = 47.5 x (1 + 1.9/3) = 77.583 Gy; EQD2 = 77.583/(5/3) = 46.55 Gy."""
    assert bed.violations_l2(L2) == []
    assert _ref(2, L2) == pytest.approx(47.5 * (1 + 1.9 / 3) / (1 + 2 / 3), rel=1e-12)
    assert _ref(2, L2) == pytest.approx(46.55, abs=1e-9)


def test_level2_modes():
    ref = _ref(2, L2)
    bed_gy = 47.5 * (1 + 1.9 / 3)
    expected = {
        "no_fractionation": 47.5,                            # d < 2 Gy: physical dose above the EQD2
        "prescribed_dose": 50.0,                             # 25 x 2 Gy in 2 Gy fractions
        "eqd2_ab10": bed_gy / 1.2,                           # a/b 3 < 10: smaller denominator, higher
        "bed_as_eqd2": bed_gy,                               # BED > EQD2
        "total_for_d": 47.5 * (1 + 47.5 / 3) / (1 + 2 / 3),  # far higher
    }
    for name, value in expected.items():
        assert _mode(name, 2, L2) == pytest.approx(value, rel=1e-12), name
        assert _mode(name, 2, L2) > ref, name


def test_level2_fractionation_ignored_is_low_for_large_fractions():
    """5 x 4.00 Gy at a/b 3: EQD2 = 20 x (1 + 4/3)/(5/3) = 28 Gy, but the physical dose is 20 Gy."""
    assert _ref(2, L2_HYPO) == pytest.approx(28.0, rel=1e-12)
    assert _mode("no_fractionation", 2, L2_HYPO) == pytest.approx(20.0)


# --- level 3 --------------------------------------------------------------------------------------------------

L3 = bed.Replan("the tumour (head and neck squamous cell carcinoma)", 10.0, 35, 2.0, 15, 10)
L3_MORE = bed.Replan("late-responding normal tissue within the target", 3.0, 20, 3.0, 5, 25)


def test_level3_by_hand():
    """Remaining BED 20 x 2 x 1.2 = 48 Gy in 10 fractions: d = 3.5440 Gy; the whole course keeps its BED."""
    assert bed.violations_l3(L3) == []
    d = _ref(3, L3)
    assert d == pytest.approx((-10 + math.sqrt(292)) / 2, rel=1e-12)
    whole = bed.bed(15, 2.0, 10.0) + bed.bed(10, d, 10.0)
    assert whole == pytest.approx(bed.bed(35, 2.0, 10.0), rel=1e-12)


def test_level3_modes():
    ref = _ref(3, L3)
    expected = {
        "no_fractionation": 20 * 2.0 / 10,                              # 4.0 Gy: physical dose matched
        "quadratic_sign": (10 + math.sqrt(292)) / 2,                    # 13.544 Gy
        "total_dose_reported": 10 * ref,                                # 35.44 Gy
        "delivered_ignored": (-10 + math.sqrt(100 + 4 * 10 * 84 / 10)) / 2,  # full 84 Gy in 10 fractions
    }
    for name, value in expected.items():
        assert _mode(name, 3, L3) == pytest.approx(value, rel=1e-12), name
        assert _mode(name, 3, L3) > ref, name


def test_level3_physical_matching_is_low_when_the_new_fractions_are_smaller():
    """15 remaining 3 Gy fractions (BED 15 x 3 x 2 = 90 Gy at a/b 3) re-planned into 25:
    d^2 + 3d - 10.8 = 0, d = (-3 + sqrt(52.2))/2 = 2.1125 Gy; physical matching gives 45/25 = 1.8 Gy, lower."""
    d = _ref(3, L3_MORE)
    assert d == pytest.approx((-3 + math.sqrt(52.2)) / 2, rel=1e-12)
    assert bed.bed(25, d, 3.0) == pytest.approx(bed.bed(15, 3.0, 3.0), rel=1e-12)
    assert _mode("no_fractionation", 3, L3_MORE) == pytest.approx(1.8)
    assert _mode("no_fractionation", 3, L3_MORE) < d


# --- prompts --------------------------------------------------------------------------------------------------

def test_prompts_state_inputs_and_the_formula_only_at_level1():
    assert "BED = n × d × (1 + d/(α/β))" in bed.prompt_l1(L1)
    text2 = bed.prompt_l2(L2)
    assert "200 cGy" in text2 and "95.0%" in text2 and "3.0 Gy" in text2 and "BED =" not in text2
    text3 = bed.prompt_l3(L3)
    for printed in ("Planned number of fractions: 35", "2.00 Gy", "Fractions already delivered: 15",
                    "Number of new fractions for the rest of the course: 10", "10.0 Gy", "three significant"):
        assert printed in text3, printed
    assert "sqrt" not in text3 and "√" not in text3


def test_sampled_draws_have_every_level_3_mode_moving():
    for seed in range(30):
        p = draw(GEN, 3, seed)
        assert p.n_delivered >= 1 and p.n_new != p.n_planned - p.n_delivered
        assert _mode("delivered_ignored", 3, p) > _ref(3, p)
        assert _mode("quadratic_sign", 3, p) == pytest.approx(_ref(3, p) + p.alpha_beta_gy, rel=1e-12)
