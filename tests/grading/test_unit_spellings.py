"""Unit spellings models use: both micro signs, a micro sign apart from its unit, the Unicode
slashes, and a fractionation schedule written "45 Gy/25 fx" (issue 14, "Units it does not know")."""

import pytest

from physbench.grading import grade_calculation, parse_quantity

WORKING = "Working through the protocol step by step. " * 12 + "\n"


@pytest.mark.parametrize("answer", [
    "2.5 \u00b5Sv",            # MICRO SIGN
    "2.5 \u03bcSv",            # GREEK SMALL LETTER MU
    "2.5 \u00b5 Sv", "2.5 \u03bc Sv", "2.5\u2009\u00b5Sv",
    r"2.5\,\mu\mathrm{Sv}", r"2.5\ \mu \mathrm{Sv}", r"2.5 \mu Sv", r"2.5\,\textmu Sv", r"2.5\ \upmu\text{Sv}",
    "2.5 uSv", "2.5 microsievert", "0.0025 mSv",
])
def test_microsievert_reads_with_either_micro_sign_and_with_the_sign_apart(answer):
    for ref in ("2.5 uSv", "0.0025 mSv", "2.5 \u00b5Sv", "2.5 \u03bcSv"):
        g = grade_calculation(WORKING + rf"\boxed{{{answer}}}", ref, 0.001)
        assert g.passed, (answer, ref, g.detail)


def test_a_lone_micro_sign_is_not_glued_to_a_word_that_is_not_a_unit():
    g = grade_calculation(WORKING + r"\boxed{2.5 \u00b5 bananas}", "2.5 uSv", 0.001)
    assert not g.passed


@pytest.mark.parametrize("slash", ["/", "\u2044", "\u2215", "\u00f7", "\uff0f"])
def test_fraction_and_division_slashes_divide(slash):
    """U+2044 FRACTION SLASH, U+2215 DIVISION SLASH, ÷ and the full-width solidus read as "/"."""
    assert parse_quantity(f"1.018 cGy{slash}MU") == (pytest.approx(1.018), "cGy/MU")
    assert grade_calculation(WORKING + f"\\boxed{{1.018 cGy{slash}MU}}", "1.018 cGy/MU", 0.005).passed
    assert grade_calculation(WORKING + f"\\boxed{{0.01018 Gy{slash}MU}}", "1.018 cGy/MU", 0.005).passed


@pytest.mark.parametrize("answer", ["45 Gy/25 fx", "45 Gy / 25 fractions", "45 Gy/25#", "45 Gy in 25 fractions",
                                    r"45\ \text{Gy}/25\ \text{fx}", "45 Gy over 25 fractions"])
def test_a_schedule_dose_over_fractions_states_the_total_dose(answer):
    """Decision: "45 Gy/25 fx" is the prescription notation total dose / number of fractions
    (ICRU Reports 50 and 62 write schedules so), so it states 45 Gy. A per-fraction reference and a
    total one are both doses (Gy), so the reference's dimension cannot choose a reading; the grader
    never divides the written dose by the count. A per-fraction reference of 1.8 Gy is not met."""
    assert grade_calculation(WORKING + rf"\boxed{{{answer}}}", "45 Gy", 0.005).passed
    g = grade_calculation(WORKING + rf"\boxed{{{answer}}}", "1.8 Gy", 0.005)
    assert g.outcome == "wrong" and g.value == 45.0


def test_a_dose_per_fraction_label_is_still_dropped():
    assert grade_calculation(WORKING + r"\boxed{1.8 Gy/fx}", "1.8 Gy", 0.005).passed
    assert grade_calculation(WORKING + r"\boxed{1.8 Gy per fraction}", "1.8 Gy", 0.005).passed
    assert grade_calculation(WORKING + r"\boxed{1.8 Gy \times 25 fx}", "45 Gy", 0.005).outcome == "format_error"


@pytest.mark.parametrize("text, value, unit", [
    ("101.3 kPa", 101.3, "kPa"), ("760 mmHg", 760.0, "mmHg"), ("1 atm", 1.0, "atm"), ("80 kVp", 80.0, "kVp"),
])
def test_pressures_and_peak_voltages_are_units(text, value, unit):
    """TG-51 P_TP takes pressure in kPa or mmHg; 1 atm = 101.325 kPa = 760 mmHg (NIST SP 811)."""
    assert parse_quantity(text) == (pytest.approx(value), unit)
    assert grade_calculation(WORKING + r"\boxed{760 mmHg}", "101.325 kPa", 0.0001).passed
