"""Band edges (issue 35, item 2): a threshold decision on a printed value is exact. 28 mg/dL of BUN
is 28, not 27.999999999999996; a value converted to its own unit is untouched; writing the same
quantity in a decimal multiple of its unit (mg/L for mg/dL) never changes any calculator's answer."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.clincalc import synth, synth_values, units
from physbench.suites.clincalc.calculators import CALCULATORS, compute
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.errata import errata

MALE_60 = {"age": [60, "years"], "sex": "Male"}


@pytest.mark.parametrize("formulas", ["clinical", "benchmark"])
def test_glasgow_blatchford_bun_of_exactly_28_scores_the_4_point_band(formulas):
    base = {"Heart Rate or Pulse": [80, "beats per minute"], "sex": "Male", "Hemoglobin": [14, "g/dL"],
            "Systolic Blood Pressure": [120, "mm Hg"]}
    assert compute(27, {**base, "Blood Urea Nitrogen (BUN)": [28, "mg/dL"]}, formulas) == 4
    assert compute(27, {**base, "Blood Urea Nitrogen (BUN)": [280, "mg/L"]}, formulas) == 4
    assert compute(27, {**base, "Blood Urea Nitrogen (BUN)": [27.9, "mg/dL"]}, formulas) == 3


def _sofa(creatinine: list) -> int:
    return compute(43, {"PaO2": [95, "mm Hg"], "FiO2": [21, "%"], "Bilirubin": [0.5, "mg/dL"],
                        "Platelet count": [200000, "µL"], "creatinine": creatinine})


def test_sofa_creatinine_of_exactly_3_5_scores_3_renal_points_in_either_unit():
    assert _sofa([3.5, "mg/dL"]) - _sofa([1.0, "mg/dL"]) == 3
    assert _sofa([35, "mg/L"]) == _sofa([3.5, "mg/dL"])
    assert _sofa([3.49, "mg/dL"]) - _sofa([1.0, "mg/dL"]) == 2


def test_apache_creatinine_points_at_exactly_3_5_mg_dl():
    from physbench.suites.clincalc.calculators import apache
    from physbench.suites.clincalc.entities import Entities
    cr = Entities({"creatinine": [3.5, "mg/dL"]}).conc("creatinine", "mg/dL", "creatinine")
    assert cr == 3.5 and apache.creatinine_points(cr, False) == 4


def test_ckd_epi_male_creatinine_of_exactly_0_9_is_flagged_by_the_kappa_erratum():
    kappa = next(e for e in errata() if e.when == "ckd_epi_male_low_creatinine")
    assert kappa.applies(0, "", {**MALE_60, "creatinine": [0.9, "mg/dL"]})
    assert not kappa.applies(0, "", {**MALE_60, "creatinine": [0.91, "mg/dL"]})


@settings(max_examples=300, derandomize=True)
@given(st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False),
       st.sampled_from(["mg/dL", "g/dL", "mmol/L", "µmol/L", "mEq/L", "g/L"]))
def test_a_value_converted_to_its_own_unit_is_untouched(value, unit):
    assert units.convert_concentration(value, unit, unit, "sodium") == value


@settings(max_examples=200, derandomize=True)
@given(st.integers(min_value=1, max_value=100_000), st.integers(min_value=0, max_value=3))
def test_a_printed_decimal_survives_a_decimal_change_of_unit(digits, places):
    printed = Fraction(digits, 10 ** places)
    in_mg_l = float(printed * 10)
    assert units.convert_concentration(in_mg_l, "mg/L", "mg/dL") == float(printed)
    assert units.weight_kg(float(printed * 1000), "g") == float(printed)


# ---- every calculator, swept over the printed grid of each quantity it reads --------------

# a decimal multiple of each unit the synthetic set prints: (unit, factor to multiply the value by)
RESCALED = {"mg/dL": ("mg/L", 10), "g/dL": ("g/L", 10), "mEq/L": ("mEq/dL", Fraction(1, 10)),
            "mmol/L": ("µmol/L", 1000), "µmol/L": ("mmol/L", Fraction(1, 1000)), "kg": ("g", 1000),
            "cm": ("m", Fraction(1, 100)), "µL": ("L", 10 ** 6), "mm^3": ("L", 10 ** 6)}


def _grid(spec: synth_values.Quantity) -> list[Fraction]:
    """Printed values from lo to hi: the spec's decimals, coarsened to at most ~150 points on round steps."""
    lo, hi = Fraction(repr(spec.lo)), Fraction(repr(spec.hi))
    for step in (Fraction(1, 10 ** spec.decimals), *(Fraction(m) * Fraction(10) ** k
                                                     for k in range(-2, 6) for m in (1, 5))):
        if step >= Fraction(1, 10 ** spec.decimals) and (hi - lo) / step <= 150:
            break
    start = (lo / step).__ceil__() * step
    return [start + i * step for i in range(int((hi - start) / step) + 1)]


def _quantities(calc_id: int, entities: dict) -> list[str]:
    return [n for n, v in entities.items() if isinstance(v, list) and len(v) == 2 and v[1] in RESCALED
            and isinstance(synth_values.spec_for(calc_id, n), synth_values.Quantity)
            and synth_values.spec_for(calc_id, n).unit == v[1]]


def _answer(calc_id: int, entities: dict, formulas: str):
    try:
        return compute(calc_id, entities, formulas)
    except EntityError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("formulas", ["clinical", "benchmark"])
@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_every_band_edge_is_decided_on_the_printed_value(calc_id, formulas):
    """For each quantity the calculator reads, every printed value on its grid (edges included: BUN
    28, creatinine 0.9, 1.2, 2.0, 3.5, platelets 50 000 ...) gives the same answer in a decimal multiple of
    its unit; floating-point conversion fails this at the edges (28 mg/dL -> 27.999999999999996)."""
    rng = random.Random(calc_id)
    entities = synth.draw_entities(CALCULATORS[calc_id], rng)
    checked = 0
    for name in _quantities(calc_id, entities):
        spec = synth_values.spec_for(calc_id, name)
        unit = spec.unit
        other, factor = RESCALED[unit]
        for printed in _grid(spec):
            a = _answer(calc_id, {**entities, name: [float(printed), unit]}, formulas)
            b = _answer(calc_id, {**entities, name: [float(printed * factor), other]}, formulas)
            assert a == b, (name, str(printed), unit, a, b)
            checked += 1
    assert checked or not _quantities(calc_id, entities) or calc_id == 49


def test_a_pao2_fio2_ratio_of_printed_values_is_exact():
    """56 mm Hg at 28% is a ratio of 200 (floating point gives 199.99999999999997, inside the benchmark's
    (199, 200) gap, where the benchmark's own rounding sees 200)."""
    from physbench.suites.clincalc.calculators.critical import pao2_fio2_ratio

    assert pao2_fio2_ratio(56, 28) == 200.0
    sofa = {"PaO2": [56, "mm Hg"], "FiO2": [28, "%"], "Bilirubin": [0.5, "mg/dL"], "Platelet count": [200000, "µL"],
            "creatinine": [1.0, "mg/dL"]}
    assert compute(43, sofa, {"sofa-ratio-199-200"}) == compute(43, sofa, "clinical")
    assert compute(43, {**sofa, "FiO2": 0.28}, "clinical") == compute(43, sofa, "clinical")  # a bare fraction too


def test_cockcroft_gault_weight_class_uses_the_exact_bmi():
    """71.961 kg at 170 cm is a BMI of exactly 24.9 (floating point: 24.900000000000002), normal weight:
    the lesser of ideal and actual weight, not the adjusted weight."""
    from physbench.suites.clincalc.calculators.body import ideal_body_weight_kg
    from physbench.suites.clincalc.calculators.renal import cockcroft_gault_weight_kg

    assert cockcroft_gault_weight_kg(False, 71.961, 170) == min(ideal_body_weight_kg(False, 170), 71.961)


def test_meld_takes_a_bilirubin_of_zero_as_its_floor_of_one():
    meld = {"creatinine": [1.0, "mg/dL"], "international normalized ratio": 1.0, "Sodium": [137, "mEq/L"]}
    assert compute(23, {**meld, "Bilirubin": [0, "mg/dL"]}) == compute(23, {**meld, "Bilirubin": [1.0, "mg/dL"]})
