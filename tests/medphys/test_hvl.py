"""HVL generator: narrow-beam attenuation worked by hand, the first-HVL interpolation, the facts it
relies on (NIST mu/rho, regulatory minimum HVL) and the direction of every error mode."""

from __future__ import annotations

import dataclasses
import math

import pytest

from physbench.suites.medphys import hvl
from physbench.suites.medphys.base import draw

G = hvl.GENERATOR

L1_MU = hvl.NarrowBeamTransmission("aluminium", 60, "mu", 0.7498, 0.0, 5.0)
L1_HVL = hvl.NarrowBeamTransmission("aluminium", 60, "hvl", 0.0, 9.24, 18.5)
L2_MU = hvl.ThicknessForTarget("aluminium", 60, "mu", 0.7498, 0.0, 10.0, 1000.0)
L2_HVL = hvl.ThicknessForTarget("aluminium", 60, "hvl", 0.0, 9.24, 8.0, 1000.0)
# readings at 0-4 mm Al; half of 4.000 mGy lies between 2.300 (2 mm) and 1.800 (3 mm)
L3 = hvl.FirstHvl(80, (0.0, 1.0, 2.0, 3.0, 4.0), (4.000, 3.000, 2.300, 1.800, 1.450))


def test_nist_attenuation_coefficients_of_aluminium():
    """NIST (Hubbell & Seltzer) mu/rho of Al: 60 keV 0.2778, 100 keV 0.1704 cm^2/g; rho = 2.699 g/cm^3,
    so mu(60 keV) = 0.7498 /cm and HVL = 10 ln2 / mu = 9.24 mm."""
    assert hvl.mu_of("aluminium", 60) == pytest.approx(0.7498, abs=1e-4)
    assert hvl.mu_of("aluminium", 100) == pytest.approx(0.4599, abs=1e-4)
    assert 10 * math.log(2) / hvl.mu_of("aluminium", 60) == pytest.approx(9.24, abs=0.005)
    assert hvl.mu_of("water", 60) == pytest.approx(0.2059)
    assert hvl.violations_l1(L1_MU) == [] and hvl.violations_l1(L1_HVL) == []


def test_transmission_from_mu_by_hand():
    """T = exp(-mu x) = exp(-0.7498 /cm x 0.50 cm) = exp(-0.3749) = 0.68736 (e^-0.375 = 0.687289, times e^0.0001)."""
    assert G.level(1).solve(L1_MU) == pytest.approx(0.68736, abs=1e-5)


def test_transmission_from_hvl_by_hand():
    """T = 0.5^(x/HVL) = 0.5^(18.5/9.24) = 0.5^2.00216 = 0.24963."""
    assert G.level(1).solve(L1_HVL) == pytest.approx(0.24963, abs=1e-5)


def test_thickness_for_target_by_hand():
    """x = ln(K0/K)/mu = ln(10/1)/0.7498 cm = 3.07094 cm = 30.709 mm; x = HVL log2(K0/K) = 9.24 x 3 = 27.72 mm."""
    assert G.level(2).solve(L2_MU) == pytest.approx(30.709, abs=1e-3)
    assert G.level(2).solve(L2_HVL) == pytest.approx(27.72, abs=1e-9)


def test_first_hvl_log_linear_by_hand():
    """x = 2 + (3 - 2) ln(2.300/2.000)/ln(2.300/1.800) = 2 + 0.139762/0.245122 = 2.5702 mm."""
    assert G.level(3).solve(L3) == pytest.approx(2.5702, abs=1e-4)


def test_regulatory_minimum_hvl_table():
    """21 CFR 1020.30 Table 1 (other X-ray systems): 80 kVp 2.3 mm Al, 120 kVp 3.2; 95 kVp interpolates
    to 2.6 mm, the value the regulation's footnote gives."""
    assert hvl.min_hvl_mm(80) == pytest.approx(2.3)
    assert hvl.min_hvl_mm(120) == pytest.approx(3.2)
    assert hvl.min_hvl_mm(95) == pytest.approx(2.6)


@pytest.mark.parametrize("seed", range(30))
def test_generated_beams_harden_and_meet_the_minimum_hvl(seed):
    p = draw(G, 3, seed)
    x, k = p.added_al_mm, p.air_kerma_mgy
    mus = [math.log(k[j] / k[j + 1]) / (x[j + 1] - x[j]) for j in range(len(x) - 1)]
    assert mus[-1] < mus[0]  # the effective attenuation coefficient falls as the beam hardens
    assert hvl.min_hvl_mm(p.kvp) <= G.level(3).solve(p) <= 7.0
    single = G.mode("single_exponential").answer(3, p)
    assert single > G.level(3).solve(p)


def test_plausibility_rules():
    assert hvl.violations_l1(dataclasses.replace(L1_MU, mu_per_cm=0.9))  # not the NIST value
    assert hvl.violations_l1(dataclasses.replace(L1_MU, hvl_mm=9.24))  # both coefficients printed
    assert hvl.violations_l3(dataclasses.replace(L3, air_kerma_mgy=(4.0, 1.9, 1.5, 1.2, 1.0)))  # half in 1st pair
    assert hvl.violations_l3(dataclasses.replace(L3, kvp=80, air_kerma_mgy=(4.0, 2.9, 2.1, 1.5, 1.1)))  # HVL < 2.3


@pytest.mark.parametrize("mode,level,p,expected", [
    ("mu_cm_with_mm", 1, L1_MU, math.exp(-0.7498 * 5.0)),        # mu x with x in mm: 0.0235
    ("base10", 1, L1_MU, 10 ** (-0.3749)),                          # 0.4218
    ("point_one_pow_n", 1, L1_HVL, 0.1 ** (18.5 / 9.24)),           # 0.0099
    ("mu_as_inverse_hvl", 1, L1_HVL, math.exp(-18.5 / 9.24)),       # 0.1351
    ("mu_cm_with_mm", 2, L2_MU, math.log(10) / 0.7498),             # 3.071 "mm"
    ("base10", 2, L2_MU, 10 * math.log10(10) / 0.7498),             # 13.34 mm
    ("point_one_pow_n", 2, L2_HVL, 9.24 * math.log10(8)),           # 8.34 mm
    ("mu_as_inverse_hvl", 2, L2_HVL, 9.24 * math.log(8)),           # 19.21 mm
    ("linear_interpolation", 3, L3, 2 + (2.3 - 2.0) / (2.3 - 1.8)),  # 2.600 mm
    ("non_bracketing_pair", 3, L3, 1 + math.log(3.0 / 2.0) / math.log(3.0 / 2.3)),  # 2.526 mm
    ("single_exponential", 3, L3, 4 * math.log(2) / math.log(4.0 / 1.45)),  # 2.732 mm
])
def test_error_modes_by_hand(mode, level, p, expected):
    assert G.mode(mode).answer(level, p) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("mode,level,p,direction", [
    ("mu_cm_with_mm", 1, L1_MU, -1),        # ten times the attenuation
    ("base10", 1, L1_MU, -1),               # 10^-a < e^-a
    ("point_one_pow_n", 1, L1_HVL, -1),     # 0.1^n < 0.5^n
    ("mu_as_inverse_hvl", 1, L1_HVL, -1),   # e^-n < 2^-n
    ("mu_cm_with_mm", 2, L2_MU, -1),        # a length in cm reported as mm
    ("base10", 2, L2_MU, -1),               # log10 < ln
    ("point_one_pow_n", 2, L2_HVL, -1),     # HVL log10 < HVL log2
    ("mu_as_inverse_hvl", 2, L2_HVL, -1),   # HVL ln < HVL log2
    ("linear_interpolation", 3, L3, +1),    # the readings are convex in thickness: the chord lies above
    ("non_bracketing_pair", 3, L3, -1),     # the thinner pair attenuates more (softer beam)
    ("single_exponential", 3, L3, +1),      # the hardened tail lowers the average attenuation
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = G.level(level).solve(p)
    assert (G.mode(mode).answer(level, p) - ref) * direction > 0


@pytest.mark.parametrize("mode,level,p", [("mu_cm_with_mm", 1, L1_HVL), ("base10", 2, L2_HVL),
                                          ("point_one_pow_n", 1, L1_MU), ("mu_as_inverse_hvl", 2, L2_MU)])
def test_a_mode_for_the_other_coefficient_returns_the_reference(mode, level, p):
    """The mu modes cannot occur on an item that prints the HVL (and vice versa)."""
    assert G.mode(mode).answer(level, p) == G.level(level).solve(p)


def test_prompts_print_every_input_as_stored():
    text = G.level(3).prompt(L3)
    assert "| 3.0 | 1.800 |" in text and "80 kVp" in text and "log-linear" in text
    assert "μ = 0.7498 cm⁻¹" in G.level(2).prompt(L2_MU) and "1000 µGy" in G.level(2).prompt(L2_MU)
    assert "HVL = 9.24 mm" in G.level(1).prompt(L1_HVL) and "18.5 mm" in G.level(1).prompt(L1_HVL)
