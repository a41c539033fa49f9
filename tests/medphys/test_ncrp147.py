"""NCRP 147 generator: report data, the Archer model by hand, and each error mode's direction."""

from __future__ import annotations

import dataclasses
import math

import pytest

from physbench.suites.medphys import ncrp147
from physbench.suites.medphys.base import draw

GEN = ncrp147.GENERATOR

# Hand-checked draws (values as printed in a prompt).
CROSS = dict(barrier=ncrp147.BARRIERS["cross_table_wall"].label, k1_mgy=5.2, use_factor=0.09, patients_week=104,
             distance_m=2.6, occupancy_den=20, location="a public toilet", controlled=False, goal_mgy_week=0.02)
L1 = ncrp147.RequiredTransmission(**CROSS)
L2 = ncrp147.LeadSingleTvl(**CROSS, tvl_mm=0.87)
L3 = ncrp147.LeadArcher(**CROSS, alpha_per_mm=2.651, beta_per_mm=16.56, gamma=0.4585)


def _answer(mode: str, level: int, p: object) -> float:
    return GEN.mode(mode).answer(level, p)


# --- PROTOCOL-FACTS ------------------------------------------------------------------------

def test_archer_lead_fits_and_kerma_per_patient_are_the_reports_values():
    """NCRP 147 Table B.1 (primary: chest bucky 2.264/13.08/0.5600, floor or other barriers
    2.651/16.56/0.4585), Table C.1 (secondary, Rad Room all barriers 2.298/17.38/0.6193),
    Table 4.5 (K1_P 2.3 and 5.2 mGy) and Table 4.7 (K1_sec 3.4e-2 and 4.9e-2 mGy)."""
    b = ncrp147.BARRIERS
    assert b["chest_wall"].lead_fit == (2.264, 13.08, 0.5600) and b["chest_wall"].k1_mgy == 2.3
    assert b["floor"].lead_fit == (2.651, 16.56, 0.4585) and b["floor"].k1_mgy == 5.2
    assert b["cross_table_wall"].lead_fit == b["floor"].lead_fit
    assert b["side_wall"].lead_fit == (2.298, 17.38, 0.6193) and b["side_wall"].k1_mgy == 3.4e-2
    assert b["back_wall"].k1_mgy == 4.9e-2
    assert (ncrp147.GOAL_CONTROLLED_MGY_WEEK, ncrp147.GOAL_UNCONTROLLED_MGY_WEEK) == (0.1, 0.02)


# --- equations, one worked example each ------------------------------------------------------------

def test_required_transmission_by_hand():
    """NCRP 147 Sec. 4: B = P d² / (K1 U N T) = 0.02 x 2.6² / (5.2 x 0.09 x 104 x 1/20) = 0.1352/2.4336 = 0.055556."""
    assert GEN.level(1).solve(L1) == pytest.approx(0.0555556, rel=1e-6)


def test_single_tvl_lead_thickness_by_hand():
    """n = log10(1/0.055556) = 1.25527; x = 1.25527 x 0.87 mm = 1.0921 mm."""
    assert GEN.level(2).solve(L2) == pytest.approx(1.09208, abs=1e-5)


def test_archer_inversion_by_hand():
    """Archer (NCRP 147 App. A): B^-γ = 0.055556^-0.4585 = 3.7632; β/α = 6.2467;
    x = ln[(3.7632 + 6.2467)/7.2467]/(2.651 x 0.4585) = 0.32303/1.21548 = 0.26576 mm."""
    assert GEN.level(3).solve(L3) == pytest.approx(0.26576, abs=2e-5)


def test_archer_inversion_round_trips_and_starts_at_full_transmission():
    for alpha, beta, gamma in {k.lead_fit for k in ncrp147.BARRIERS.values()}:
        assert ncrp147.archer_transmission(0.0, alpha, beta, gamma) == pytest.approx(1.0)
        for x in (0.1, 0.5, 1.0, 2.5):
            b = ncrp147.archer_transmission(x, alpha, beta, gamma)
            assert ncrp147.archer_thickness(b, alpha, beta, gamma) == pytest.approx(x, rel=1e-10)


def test_high_attenuation_tvl_is_the_limit_of_the_archer_curve():
    """Deep in the barrier B ∝ exp(−αx), so one more TVL = ln10/α divides B by 10."""
    alpha, beta, gamma = ncrp147.BARRIERS["floor"].lead_fit
    tvl = ncrp147.high_attenuation_tvl(alpha)
    assert tvl == pytest.approx(0.8686, abs=1e-4)
    ratio = ncrp147.archer_transmission(6.0, alpha, beta, gamma) / ncrp147.archer_transmission(6.0 + tvl, alpha,
                                                                                              beta, gamma)
    assert ratio == pytest.approx(10.0, rel=1e-3)


def test_prompts_print_the_inputs():
    text = GEN.level(3).prompt(L3)
    for printed in ("5.2 mGy", "0.09", "104", "2.6 m", "1/20", "0.02 mGy/week", "| 2.651 | 16.56 | 0.4585 |"):
        assert printed in text, printed
    assert "\\boxed{value mm}" in text
    assert "\\boxed{value}" in GEN.level(1).prompt(L1)
    assert "0.87 mm" in GEN.level(2).prompt(L2)


# --- error modes: direction on hand-checked draws ---------------------------------------------------

@pytest.mark.parametrize("mode,level,p,direction", [
    ("distance_not_squared", 1, L1, -1),  # d = 2.6 m > 1: P d < P d², smaller transmission
    ("u_omitted", 1, L1, -1),  # U = 1 instead of 0.09
    ("t_omitted", 1, L1, -1),  # T = 1 instead of 1/20
    ("distance_not_squared", 2, L2, +1),  # smaller B: thicker lead
    ("u_omitted", 2, L2, +1),
    ("t_omitted", 2, L2, +1),
    ("natural_log", 2, L2, +1),  # ln = 2.303 log10
    ("distance_not_squared", 3, L3, +1),
    ("u_omitted", 3, L3, +1),
    ("t_omitted", 3, L3, +1),
    ("alpha_beta_swapped", 3, L3, -1),  # β > α: dividing by βγ gives a thinner barrier
    ("log10_in_archer", 3, L3, -1),  # log10 = ln/2.303
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = GEN.level(level).solve(p)
    wrong = _answer(mode, level, p)
    assert (wrong - ref) * direction > 0.01 * ref


def test_use_factor_mode_does_not_apply_to_secondary_barriers():
    p = draw(GEN, 3, 0)
    side = ncrp147.LeadArcher(**{**p.__dict__, "barrier": ncrp147.BARRIERS["side_wall"].label, "k1_mgy": 3.4e-2,
                                 "use_factor": 1.0, "alpha_per_mm": 2.298, "beta_per_mm": 17.38, "gamma": 0.6193})
    assert _answer("u_omitted", 3, side) == pytest.approx(GEN.level(3).solve(side))


def test_public_draws_are_in_the_reports_range():
    for level in (1, 2, 3):
        for seed in range(50):
            value = GEN.level(level).solve(draw(GEN, level, seed))
            assert math.isfinite(value)
            assert (1e-5 <= value <= 0.3) if level == 1 else (0.05 <= value <= 6.0)


def test_every_level2_draw_needs_a_unit_conversion():
    """Seed 000: every level-2 item needs at least one unit conversion. Each L2 prompt prints one input in a
    unit other than the formula's (P in µGy/week, d in cm or K1 in µGy), and the answer is unchanged."""
    from physbench.suites.medphys.base import draw
    from physbench.suites.medphys.ncrp147 import CONVERSIONS, GENERATOR

    spec = GENERATOR.level(2)
    seen = set()
    for seed in range(60):
        p = draw(GENERATOR, 2, seed)
        text = spec.prompt(p)
        seen.add(p.converted)
        marker = {"goal_ugy": "µGy/week (air kerma)", "distance_cm": " cm\n", "kerma_ugy": " µGy\n"}[p.converted]
        assert marker in text, (seed, p.converted)
        plain = dataclasses.replace(p, converted="")
        assert "µGy" not in spec.prompt(plain) and spec.solve(plain) == spec.solve(p)
    assert seen == set(CONVERSIONS)
