"""Decay generator: the decay law and the Mo-99/Tc-99m ingrowth against hand calculations; each error
mode's direction on a hand-checked draw; the facts the items print."""

from __future__ import annotations

import math

import pytest

from physbench.suites.medphys import decay
from physbench.suites.medphys.base import draw

L1 = decay.ActivityAfterTime("Tc-99m", 6.01, "h", 740.0, "MBq", 180.0, "min")
L2 = decay.TimeToActivity("F-18", 109.8, "min", 555.0, "MBq", 10.0, "mCi", "h")
L3 = decay.GeneratorIngrowth(40.0, "GBq", 6, 30, "mCi", 65.94, 6.01, 0.876)


def _answer(mode, level, p):
    return decay.GENERATOR.mode(mode).answer(level, p)


def test_activity_after_time_by_hand():
    """Decay law A = A0 2^(-t/T): 740 MBq x 2^(-3 h / 6.01 h) = 523.56 MBq (180 min = 3 h)."""
    assert decay.GENERATOR.level(1).solve(L1) == pytest.approx(523.5608, rel=1e-6)


def test_time_to_activity_by_hand():
    """t = T log2(A0/A): 555 MBq to 10.0 mCi = 370 MBq is log2(1.5) x 109.8 min = 64.23 min = 1.0705 h."""
    assert decay.GENERATOR.level(2).solve(L2) == pytest.approx(1.070481, rel=1e-6)


def test_generator_ingrowth_by_hand():
    """Bateman, daughter absent at t = 0: A_Tc = BR A_Mo(0) lT/(lT - lMo) (exp(-lMo t) - exp(-lT t)).
    40.0 GBq Mo-99, 6 h 30 min after elution: 17.790 GBq = 480.81 mCi (1 mCi = 37 MBq)."""
    assert decay.GENERATOR.level(3).solve(L3) == pytest.approx(480.8074, rel=1e-6)


def test_tc99m_ingrowth_peaks_near_23_hours_and_tends_to_transient_equilibrium():
    """Textbook facts of the Mo-99/Tc-99m pair (PROTOCOL-FACTS half-lives and branching): maximum
    Tc-99m activity about 23 h after elution (t_max = ln(lT/lMo)/(lT - lMo) = 22.85 h), and
    A_Tc/A_Mo -> BR lT/(lT - lMo) = 0.964 in transient equilibrium."""
    lam_mo, lam_tc = math.log(2) / decay.MO99_HALF_LIFE_H, math.log(2) / decay.TC99M_HALF_LIFE_H

    def a_tc(t_h):
        return decay.daughter_after_elution(1.0, lam_mo, lam_tc, t_h, decay.MO_TO_TC_BRANCHING)

    t_max = math.log(lam_tc / lam_mo) / (lam_tc - lam_mo)
    assert t_max == pytest.approx(22.85, abs=0.01)
    assert a_tc(t_max) > a_tc(t_max - 0.5) and a_tc(t_max) > a_tc(t_max + 0.5)
    assert a_tc(200.0) / math.exp(-lam_mo * 200.0) == pytest.approx(0.9638, abs=1e-4)


def test_printed_constants_are_the_protocol_facts():
    """PROTOCOL-FACTS: Tc-99m 6.01 h (6.0067), Mo-99 65.94 h, branching 0.876, 1 mCi = 37 MBq."""
    assert (decay.TC99M_HALF_LIFE_H, decay.MO99_HALF_LIFE_H, decay.MO_TO_TC_BRANCHING) == (6.01, 65.94, 0.876)
    assert decay.MBQ["mCi"] == 37.0 and decay.MBQ["GBq"] == 1000.0
    assert decay.BY_NAME["I-131"].half_life == 8.02 and decay.BY_NAME["I-131"].unit == "d"


@pytest.mark.parametrize("mode,level,p,direction", [
    ("ln2_omitted", 1, L1, -1),  # lambda = 1/T exceeds ln2/T: faster decay
    ("ln2_omitted", 2, L2, -1),  # t = ln(A0/A) T, shorter by ln 2
    ("ln2_omitted", 3, L3, +1),  # larger decay constants: faster ingrowth 6.5 h after elution
    ("log10", 1, L1, +1),        # lambda = log10(2)/T is smaller: slower decay
    ("log10", 2, L2, -1),        # log10 of the ratio is smaller than ln
    ("log10", 3, L3, -1),        # smaller decay constants: slower ingrowth
    ("time_unit", 1, L1, -1),    # 180 min read as 180 h
    ("time_unit", 2, L2, +1),    # 64.2 (minutes) reported as hours
    ("time_unit", 3, L3, -1),    # 6 h 30 min read as 6.30 h: less ingrowth
    ("activity_unit", 2, L2, +1),  # 555 (MBq) against 10.0 (mCi): ratio far too large
    ("activity_unit", 3, L3, -1),  # the number in GBq reported as mCi
    ("branching_omitted", 3, L3, +1),
    ("ratio_omitted", 3, L3, -1),   # lT/(lT - lMo) = 1.096 left out
    ("transient_equilibrium", 3, L3, +1),  # the subtracted ingrowth term dropped
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = decay.GENERATOR.level(level).solve(p)
    assert (_answer(mode, level, p) - ref) * direction > 0


def test_unit_slips_have_the_stated_size():
    """time_unit at L2 reports minutes as hours (x60); activity_unit at L3 reports GBq as mCi (/27.03);
    time_unit at L3 reads 6 h 30 min as 6.30 h."""
    assert _answer("time_unit", 2, L2) == pytest.approx(60 * decay.GENERATOR.level(2).solve(L2))
    assert _answer("activity_unit", 3, L3) == pytest.approx(decay.GENERATOR.level(3).solve(L3) * 37 / 1000)
    assert decay.elapsed_hours(L3, "time_unit") == pytest.approx(6.30)
    assert decay.elapsed_hours(L3) == pytest.approx(6.5)


def test_prompts_print_every_input_as_stored():
    for level in (1, 2, 3):
        for seed in range(20):
            p = draw(decay.GENERATOR, level, seed)
            text = decay.GENERATOR.level(level).prompt(p)
            assert decay.GENERATOR.level(level).unit(p) in text.rsplit("\n\n", 1)[1]
            if level == 3:
                assert f"{p.elapsed_h} h {p.elapsed_min:02d} min" in text and "0.876" in text
            else:
                assert f"{p.half_life:g} {p.half_life_unit}" in text


def test_samplers_mix_units_as_the_levels_require():
    for seed in range(50):
        p1 = draw(decay.GENERATOR, 1, seed)
        assert p1.elapsed_unit != p1.half_life_unit
        p2 = draw(decay.GENERATOR, 2, seed)
        assert p2.activity_unit != p2.target_unit and p2.answer_unit != p2.half_life_unit
        p3 = draw(decay.GENERATOR, 3, seed)
        assert p3.mo_unit != p3.answer_unit and 5 <= p3.elapsed_min <= 55


def test_level2_input_sensitivity_sets_the_2_percent_band():
    """Seed 000, "Verification detail": the decay band (2%) is set by level-2 items that solve for a time,
    most sensitive to input rounding when the activity ratio is near one; levels 1 and 3 derive 1%."""
    from physbench.suites.medphys.verify.bands import derive_band

    assert derive_band(decay.GENERATOR, 2, n_items=200, n_perturbations=10)["derived"] == 0.02
    assert derive_band(decay.GENERATOR, 3, n_items=100, n_perturbations=10)["derived"] == 0.01
