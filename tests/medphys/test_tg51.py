"""TG-51 generator: the protocol's equations by hand, the seed's worked item, every error mode's
direction, and worksheets whose planted errors sit where the error happens."""

from __future__ import annotations

import re

import pytest

from physbench.suites.medphys import tg51
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.tg51_physics import (
    CHAMBERS, CorrectedReading, FullCalibration, RawReadings, kq_fit, p_ion_continuous, p_ion_pulsed, p_pol, p_tp,
    pdd_pb_for, pdd_x_from_foil,
)
from physbench.suites.medphys.worksheet import Sheet, first_difference

GEN = tg51.GENERATOR

# Seed 000, "Prompts and example items": TG-51 level 3, development split, seed 0 (reference 1.018 cGy/MU).
# The item does not name the chamber; its k_Q table is that of a PTW 30013-like Farmer chamber.
SEED_ITEM = FullCalibration(
    beam_mv=15, chamber="PTW 30013", mu=100, temp_c=24.1, press_kpa=101.5, p_elec=0.9984, n_dw_gy_c=5.325e7,
    v_high=300, v_low=150, routine_positive=True, m_routine_nc=15.202, m_opposite_nc=15.270, m_low_nc=15.039,
    foil_cm=50, pdd_pb=78.5, pdd_clinical=78.6, kq_pdd=(63, 66, 71, 76, 81, 86),
    kq_values=(0.995, 0.992, 0.987, 0.978, 0.968, 0.955))

# Hand-made draws with round numbers (each is plausible: see test below)
L1 = CorrectedReading(6, "NE 2571", 100, 14.0, 0.98, 5.0)  # D = 14 x 0.98 x 5 = 68.60 cGy
L2 = RawReadings(6, "NE 2571", 100, temp_c=20.0, press_kpa=98.0, p_elec=0.999, n_dw_gy_c=5.0e7, v_high=300,
                 v_low=150, routine_positive=True, m_routine_nc=14.0, m_opposite_nc=14.028, m_low_nc=13.93, kq=0.99)


def _ref(level, p):
    return GEN.level(level).solve(p)


def _mode(name, level, p):
    return GEN.mode(name).answer(level, p)


# --- equations (AAPM TG-51 1999; Addendum 2014) -----------------------------------------------------------

def test_p_tp_is_one_at_the_reference_conditions_and_uses_kelvin():
    """TG-51 Eq. 10: P_TP = (273.2 + T)/295.2 x 101.33/P; 22 °C and 101.33 kPa give 1."""
    assert p_tp(22.0, 101.33) == pytest.approx(1.0, abs=1e-12)
    assert p_tp(24.1, 101.5) == pytest.approx(297.3 / 295.2 * 101.33 / 101.5, rel=1e-12)  # 1.005427
    assert p_tp(24.1, 101.5) == pytest.approx(1.005427, abs=1e-6)


def test_p_pol_from_magnitudes():
    """TG-51 Eq. 9 with magnitudes: (|M+| + |M-|)/(2|M|) = (15.202 + 15.270)/30.404 = 1.002237."""
    assert p_pol(15.202, 15.270) == pytest.approx(1.002237, abs=1e-6)


def test_p_ion_pulsed_and_continuous_two_voltage_formulas():
    """TG-51 Eq. 12 (pulsed): (1 - 2)/(15.202/15.039 - 2) = 1.010957; Eq. 11 (continuous):
    (1 - 4)/(1.010838 - 4) = 1.003626, smaller than the pulsed value."""
    assert p_ion_pulsed(300, 150, 15.202, 15.039) == pytest.approx(1.010957, abs=1e-6)
    assert p_ion_continuous(300, 150, 15.202, 15.039) == pytest.approx(3 / (4 - 15.202 / 15.039), rel=1e-12)
    assert p_ion_continuous(300, 150, 15.202, 15.039) == pytest.approx(1.003626, abs=1e-6)


@pytest.mark.parametrize("foil,pb,expected", [
    (50, 78.5, (0.8905 + 0.00150 * 78.5) * 78.5),  # 79.148: Eq. 13, foil at 50 cm
    (50, 73.0, (0.8905 + 0.00150 * 73.0) * 73.0),  # at the threshold the equation applies (73.000)
    (50, 72.9, 72.9),                              # below 73%: %dd(10)x = %dd(10)Pb
    (30, 78.5, (0.8116 + 0.00264 * 78.5) * 78.5),  # 79.981: Eq. 14, foil at 30 cm
    (30, 71.0, (0.8116 + 0.00264 * 71.0) * 71.0),
    (30, 70.9, 70.9),                              # below 71%
])
def test_lead_foil_equations_with_their_thresholds(foil, pb, expected):
    """TG-51 Eqs. 13-14 (PROTOCOL-FACTS; pylinac tg51.pddx agrees)."""
    assert pdd_x_from_foil(pb, foil) == pytest.approx(expected, rel=1e-12)


def test_lead_foil_inverse_used_by_the_sampler_round_trips():
    for foil in (50, 30):
        for x in (74.0, 77.7, 81.9):
            assert pdd_x_from_foil(pdd_pb_for(x, foil), foil) == pytest.approx(x, rel=1e-12)


@pytest.mark.parametrize("chamber,coefficients", [
    ("PTW 30013", (0.9652, 2.141, -2.623)), ("NE 2571", (0.9882, 1.486, -2.140)),
    ("Exradin A12", (1.0146, 0.777, -1.666)), ("IBA CC13", (0.9515, 2.455, -2.768)),
    ("Exradin A19", (0.9934, 1.384, -2.125)),
])
def test_addendum_table_i_fits(chamber, coefficients):
    """TG-51 Addendum Table I: k_Q = A + B 1e-3 x + C 1e-5 x^2 (PROTOCOL-FACTS; pylinac's table agrees)."""
    assert CHAMBERS[chamber][:3] == coefficients
    a, b, c = coefficients
    for x in (63.0, 74.5, 86.0):
        assert kq_fit(chamber, x) == pytest.approx(a + b * 1e-3 * x + c * 1e-5 * x * x, rel=1e-12)
    assert 0.94 < kq_fit(chamber, 86.0) < kq_fit(chamber, 63.0) < 1.0


def test_sampled_kq_tables_stay_as_close_to_the_fit_as_the_seed_items_table():
    """The seed's printed table (0.995 ... 0.955) lies within 0.25% of the PTW 30013 fit; sampled
    tables stay within 0.3% of their chamber's fit and decrease with %dd(10)x."""
    for x, k in zip(SEED_ITEM.kq_pdd, SEED_ITEM.kq_values):
        assert k == pytest.approx(kq_fit("PTW 30013", x), rel=2.5e-3)
    for seed in range(50):
        p = draw(GEN, 3, seed)
        for x, k in zip(p.kq_pdd, p.kq_values):
            assert k == pytest.approx(kq_fit(p.chamber, x), rel=3e-3)
        assert all(b < a for a, b in zip(p.kq_values, p.kq_values[1:]))


# --- worked references ----------------------------------------------------------------------------------

def test_seed_item_tg51_level3_reproduces_1_018_cgy_per_mu():
    """Seed 000, TG-51 L3 dev seed 0: P_TP 1.005427, P_pol 1.002237, P_ion 1.010957, M 15.4618 nC,
    %dd(10)x 79.148, k_Q 0.971705, D_w(10)/MU 0.800042 cGy/MU, output 0.800042/0.786 = 1.018 cGy/MU."""
    assert tg51.violations_l3(SEED_ITEM) == []
    ref = _ref(3, SEED_ITEM)
    assert ref == pytest.approx(1.017865, abs=2e-6)
    assert round(ref, 3) == 1.018


def test_level1_by_hand():
    """D_w = M k_Q N_D,w (TG-51 Eq. 3) = 14.000 nC x 0.980 x 5.000 cGy/nC = 68.60 cGy."""
    assert tg51.violations_l1(L1) == []
    assert _ref(1, L1) == pytest.approx(68.6, rel=1e-12)


def test_level2_by_hand():
    """P_TP = (293.2/295.2)(101.33/98.0) = 1.026974; P_pol = 28.028/28 = 1.001; P_ion = 1/(2 - 14/13.93)
    = 1.005051; M = 14 x 1.026974 x 1.001 x 1.005051 x 0.999 = 14.45024 nC; D = M x 0.990 x 5.000 = 71.5287 cGy."""
    assert tg51.violations_l2(L2) == []
    assert _ref(2, L2) == pytest.approx(71.52869, abs=1e-4)


# --- every error mode moves the answer the way its description says -------------------------------------

def test_level1_modes():
    ref = _ref(1, L1)
    assert _mode("kq_omitted", 1, L1) == pytest.approx(ref / 0.98, rel=1e-12)  # k_Q < 1 omitted: higher
    assert _mode("ndw_unit_slip", 1, L1) == pytest.approx(100 * ref, rel=1e-12)
    assert _mode("transposed_final", 1, L1) == 86.6  # 68.60 -> 86.60


def test_level2_modes_by_hand():
    ref = _ref(2, L2)
    ptp = 293.2 / 295.2 * 101.33 / 98.0
    pion = 1 / (2 - 14.0 / 13.93)
    expected = {
        "pressure_inverted": ref / ptp * (293.2 / 295.2) * (98.0 / 101.33),  # P < 101.33: lower
        "temperature_celsius": ref / ptp * (20.0 / 22) * (101.33 / 98.0),     # T/22 < 293.2/295.2: lower
        "reference_20c": ref * 295.2 / 293.2,                                 # higher
        "pion_continuous": ref / pion * 3 / (4 - 14.0 / 13.93),               # lower
        "pion_ratio_inverted": ref / pion * (-1) / (13.93 / 14.0 - 2),        # P_ion < 1: lower
        "pion_omitted": ref / pion,                                           # lower
        "ppol_omitted": ref / 1.001,                                          # P_pol > 1: lower
        "pelec_omitted": ref / 0.999,                                         # P_elec < 1: higher
        "kq_omitted": ref / 0.99,                                             # higher
        "ndw_unit_slip": ref * 100,
    }
    for name, value in expected.items():
        assert _mode(name, 2, L2) == pytest.approx(value, rel=1e-9), name
    assert _mode("pressure_inverted", 2, L2) < ref and _mode("temperature_celsius", 2, L2) < ref
    assert _mode("pion_continuous", 2, L2) < ref and _mode("pion_ratio_inverted", 2, L2) < ref
    assert _mode("transposed_final", 2, L2) == 17.53  # 71.53 -> 17.53 (first unequal pair 7,1)


def test_level3_modes_on_the_seed_item():
    """Directions on the seed item: P = 101.5 kPa > 101.33, P_pol > 1, P_elec < 1, %dd(10)x > %dd(10)Pb,
    nearest k_Q row 81 (k_Q 0.968 < 0.9717), PDD(10) 78.6% < %dd(10)x 79.15%."""
    p, ref = SEED_ITEM, _ref(3, SEED_ITEM)
    kq = 0.978 + (0.968 - 0.978) * (pdd_x_from_foil(78.5, 50) - 76) / 5
    ptp = p_tp(24.1, 101.5)
    exact = {
        "pressure_inverted": ref * (101.5 / 101.33) ** 2,
        "reference_20c": ref * 295.2 / 293.2,
        "temperature_celsius": ref / ptp * (24.1 / 22) * (101.33 / 101.5),
        "pion_omitted": ref / p_ion_pulsed(300, 150, 15.202, 15.039),
        "pion_continuous": ref / p_ion_pulsed(300, 150, 15.202, 15.039) * p_ion_continuous(300, 150, 15.202, 15.039),
        "ppol_omitted": ref / p_pol(15.202, 15.270),
        "pelec_omitted": ref / 0.9984,
        "kq_omitted": ref / kq,
        "kq_nearest_row": ref / kq * 0.968,
        "ndw_unit_slip": ref * 100,
        "output_at_10cm": ref * 0.786,
        "pddx_for_dmax": ref * 78.6 / pdd_x_from_foil(78.5, 50),
    }
    for name, value in exact.items():
        assert _mode(name, 3, p) == pytest.approx(value, rel=1e-9), name
    higher = ("pressure_inverted", "temperature_celsius", "reference_20c", "pelec_omitted", "foil_conversion_omitted",
              "kq_omitted", "ndw_unit_slip", "transposed_final")
    lower = ("pion_continuous", "pion_ratio_inverted", "pion_omitted", "ppol_omitted", "other_foil_position",
             "kq_nearest_row", "output_at_10cm", "pddx_for_dmax")
    assert set(higher) | set(lower) == {m.name for m in GEN.modes_at(3)}
    for name in higher:
        assert _mode(name, 3, p) > ref, name
    for name in lower:
        assert _mode(name, 3, p) < ref, name
    assert _mode("transposed_final", 3, p) == 1.108  # 1.018 -> 1.108 (a leading 0 is never swapped in)


def test_foil_modes_use_the_wrong_beam_quality():
    """Foil omitted: k_Q at %dd(10)Pb = 78.5 (0.9750); other position: k_Q at Eq. 14's 79.98 (0.9700)."""
    ref = _ref(3, SEED_ITEM)
    kq = 0.978 + (0.968 - 0.978) * (pdd_x_from_foil(78.5, 50) - 76) / 5
    kq_pb = 0.978 + (0.968 - 0.978) * (78.5 - 76) / 5
    kq_30 = 0.978 + (0.968 - 0.978) * (pdd_x_from_foil(78.5, 30) - 76) / 5
    assert _mode("foil_conversion_omitted", 3, SEED_ITEM) == pytest.approx(ref / kq * kq_pb, rel=1e-9)
    assert _mode("other_foil_position", 3, SEED_ITEM) == pytest.approx(ref / kq * kq_30, rel=1e-9)


def test_below_the_foil_threshold_the_foil_modes_change_nothing():
    """A 6 MV beam with %dd(10)Pb 66.5% < 71%: %dd(10)x = %dd(10)Pb for both foil positions."""
    p = FullCalibration(**{**SEED_ITEM.__dict__, "beam_mv": 6, "pdd_pb": 66.5, "pdd_clinical": 66.6})
    ref = _ref(3, p)
    assert _mode("foil_conversion_omitted", 3, p) == ref
    assert _mode("other_foil_position", 3, p) == ref


# --- worksheets ------------------------------------------------------------------------------------------

def test_worksheet_steps_show_formula_numbers_and_result():
    sheet = Sheet(display=True)
    final = tg51.full_chain(SEED_ITEM, sheet)
    text = sheet.render()
    assert ("P_TP = [(273.2 + T)/295.2] × (101.33/P) = [(273.2 + 24.1)/295.2] × (101.33/101.5) = 1.0054"
            in text)
    assert "P_ion = (1 − V_H/V_L)/(M_H/M_L − V_H/V_L) = (1 − 300/150)/(15.202/15.039 − 300/150) = 1.0110" in text
    assert "%dd(10)x = (0.8905 + 0.00150 × %dd(10)Pb) × %dd(10)Pb = (0.8905 + 0.00150 × 78.5) × 78.5 = 79.15 %" in text
    assert text.splitlines()[-1].endswith("= 1.018 cGy/MU") and float(final) == 1.018


# (mode, step keys where the error may first show, depending on the layout)
WHERE = {
    "pressure_inverted": {"p_tp"}, "temperature_celsius": {"p_tp"}, "reference_20c": {"t_ref", "p_tp"},
    "pion_continuous": {"p_ion"}, "pion_ratio_inverted": {"ion_ratio", "p_ion"},
    "pion_omitted": {"m_corr", "corrections"},
    "ppol_omitted": {"m_corr", "corrections"}, "pelec_omitted": {"m_corr", "corrections"},
    "foil_conversion_omitted": {"pdd_x", "kq"},  # "kq" when a layout merges %dd(10)x into that step
    "other_foil_position": {"pdd_x", "kq"}, "kq_nearest_row": {"kq"}, "kq_omitted": {"dose", "d10", "d10_mu", "dmax"},
    "ndw_unit_slip": {"n_dw"}, "output_at_10cm": {"dmax"}, "pddx_for_dmax": {"dmax"},
    "transposed_final": {"dose", "dmax"},
}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_planted_worksheets_show_the_error_where_it_happens(level):
    spec = GEN.level(level)
    for seed in range(12):
        p = draw(GEN, level, seed)
        for variant in (None, seed, 100 + seed):
            correct = Sheet(display=True, variant=variant)
            spec.worksheet(p, correct)
            for m in GEN.modes_at(level):
                planted = Sheet(display=True, variant=variant)
                final = spec.worksheet(p, planted, m.name)
                assert len({s.key for s in planted.steps}) == len(planted.steps)
                assert final == pytest.approx(m.answer(level, p), rel=3e-3), (m.name, seed, variant)
                step = first_difference(correct.steps, planted.steps)
                if step is None:  # the mode changes nothing on this draw (e.g. below the foil threshold)
                    assert m.answer(level, p) == pytest.approx(spec.solve(p), rel=1e-12)
                    continue
                assert planted.steps[step - 1].key in WHERE[m.name], (m.name, seed, variant)


_WORD = re.compile(r"[A-Za-z][A-Za-z_']+")


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_word_appears_only_in_planted_worksheets(level):
    """Structural cue (seed 000): every word of a planted worksheet also occurs in correct worksheets."""
    spec = GEN.level(level)
    correct_words: set[str] = set()
    planted_words: set[str] = set()
    for seed in range(40):
        p = draw(GEN, level, seed)
        for variant in range(4):
            sheet = Sheet(display=True, variant=1000 * seed + variant)
            spec.worksheet(p, sheet)
            correct_words |= {w.lower() for w in _WORD.findall(sheet.render())}
        for m in GEN.modes_at(level):
            sheet = Sheet(display=True, variant=1000 * seed)
            spec.worksheet(p, sheet, m.name)
            planted_words |= {w.lower() for w in _WORD.findall(sheet.render())}
    assert planted_words <= correct_words, planted_words - correct_words


def test_prompts_print_the_params_and_leave_out_protocol_knowledge():
    text = tg51.prompt_l3(SEED_ITEM)
    for printed in ("15.202", "15.270", "15.039", "24.1 °C", "101.5 kPa", "0.9984", "5.325 × 10^7 Gy/C",
                    "%dd(10)Pb: 78.5%", "PDD(10) = 78.6%", "| 81 | 0.968 |", "50 cm from the phantom surface",
                    "pulsed", "cGy/MU", "four significant figures"):
        assert printed in text, printed
    for secret in ("22 °C", "295.2", "0.8905", "0.00150", "73%"):
        assert secret not in text, secret
    assert "P_TP" not in tg51.prompt_l2(L2) and "Gy/C" in tg51.prompt_l2(L2)
