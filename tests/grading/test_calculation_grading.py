"""Calculation grading: the seed's regression formats, units, the band and the outcome classes
(MedPhysBench, "Grading details" and "Evaluation setup", Outcomes)."""

import json

import pytest

from physbench.grading import CheckKey
from physbench.grading import OUTCOMES, grade_calculation

WORKING = "Working through the protocol step by step. " * 12 + "\n"  # > 400 characters


# --- the seed's regression formats ("Formats found in model outputs") ------------------------
@pytest.mark.parametrize("answer, reference", [
    (r"\boxed{17{,}273\ \text{MBq h}}", "17273 MBq h"),
    ("Final answer: 2.956 mm Al", "2.956 mm"),
    (r"\boxed{1.018\ \mathrm{cGy,MU^{-1}}}", "1.018 cGy/MU"),
    (r"\boxed{1.018\ \mathrm{cGy\,MU^{-1}}}", "1.018 cGy/MU"),
    (r"\boxed{1.018 \text{ cGy MU⁻¹}}", "1.018 cGy/MU"),
    ("Final answer: 1.018 cGy MU⁻¹", "1.018 cGy/MU"),
    (r"\boxed{0.1018\ \text{Gy/100 MU}}", "0.1018 cGy/MU"),
    ("Answer: 1.018 Gy/100 MU", "1.018 cGy/MU"),
    (r"\boxed{1.018\ \text{cGy/MU at d_max}}", "1.018 cGy/MU"),
    ("Final answer: 1.018 cGy/MU at d_max", "1.018 cGy/MU"),
    (r"\boxed{MU = \frac{180.0}{0.5678} = 317.0\ \text{MU}}", "317 MU"),
    (r"\boxed{D = 1.8 \times 0.95 = 1.71 = 1.710\ \text{Gy}}", "1.71 Gy"),
])
def test_seed_regression_formats_are_graded_correct(answer, reference):
    g = grade_calculation(WORKING + answer, reference, 0.005)
    assert g.outcome == "correct" and g.passed and g.score == 1.0, g.detail


def test_equation_chain_in_a_box_is_judged_by_its_last_value_not_its_first():
    g = grade_calculation(WORKING + r"\boxed{MU = 180/0.5 = 360 = 317\ \text{MU}}", "360 MU", 0.01)
    assert g.outcome == "wrong" and g.value == 317.0


# --- units ---------------------------------------------------------------------------------
def test_equivalent_units_convert_before_the_band_is_applied():
    g = grade_calculation(WORKING + r"\boxed{0.01018\ \text{Gy/MU}}", "1.018 cGy/MU", 0.005)
    assert g.passed and g.rel_error == pytest.approx(0.0, abs=1e-12)
    assert g.value == pytest.approx(0.01018) and g.unit == "Gy/MU"
    assert grade_calculation(WORKING + r"\boxed{1.5 mCi}", "55.5 MBq", 0.01).passed
    assert grade_calculation(WORKING + r"\boxed{250 mrem}", "2.5 mSv", 0.01).passed
    assert grade_calculation(WORKING + r"\boxed{2.5 days}", "60 h", 0.01).passed


def test_gray_answer_to_a_sievert_reference_is_wrong():
    g = grade_calculation(WORKING + r"\boxed{2.5 mGy}", "2.5 mSv", 0.01)
    assert g.outcome == "wrong" and not g.passed and "cannot be converted" in g.detail["reason"]
    assert not grade_calculation(WORKING + r"\boxed{2.5 mSv}", "2.5 mGy", 0.01).passed


def test_incompatible_unit_is_wrong():
    g = grade_calculation(WORKING + r"\boxed{317 cm}", "317 MU", 0.01)
    assert g.outcome == "wrong" and g.rel_error is None


def test_rad_answer_is_not_read_as_centigray():
    g = grade_calculation(WORKING + r"\boxed{150 rad}", "150 cGy", 0.01)
    assert not g.passed and g.outcome == "format_error"


def test_a_bare_number_fails_a_dimensional_reference():
    g = grade_calculation(WORKING + r"\boxed{317}", "317 MU", 0.01)
    assert g.outcome == "format_error" and not g.passed
    assert "bare number" in g.detail["reason"]


def test_a_bare_number_passes_a_dimensionless_reference_and_percent_converts():
    assert grade_calculation(WORKING + r"\boxed{0.987}", "0.987", 0.005).passed
    assert grade_calculation(WORKING + r"\boxed{98.7\%}", "0.987", 0.005).passed
    assert grade_calculation(WORKING + r"\boxed{0.987}", (0.987, ""), 0.005).passed
    assert not grade_calculation(WORKING + r"\boxed{0.987 MU}", "0.987", 0.005).passed


def test_a_unit_written_right_after_the_box_is_taken():
    assert grade_calculation(WORKING + r"$\boxed{317}$ MU", "317 MU", 0.01).passed
    assert grade_calculation(WORKING + r"\boxed{317}\ \text{MU}", "317 MU", 0.01).passed


# --- format errors ------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", [
    r"\boxed{1.2 - 1.3\ \text{Gy}}",
    r"\boxed{1.2 \text{ to } 1.3\ \text{Gy}}",
    r"\boxed{1.25\ \text{Gy} \text{ or } 1.30\ \text{Gy}}",
    r"\boxed{1.25\ \text{Gy}, 1.30\ \text{Gy}}",
    "Final answer: between 1.2 and 1.3 Gy",
    "The dose is between 1.2 and 1.3 Gy",
])
def test_ranges_and_alternatives_are_format_errors_even_when_one_end_is_right(answer):
    g = grade_calculation(WORKING + answer, "1.25 Gy", 0.05)
    assert g.outcome == "format_error" and not g.passed


def test_an_invalid_unit_with_a_number_inside_is_a_format_error():
    g = grade_calculation(WORKING + r"\boxed{1.2\ \text{mGy 100 cm}}", "120 mGy cm", 0.01)
    assert g.outcome == "format_error"


# --- the band -----------------------------------------------------------------------------------
def test_pass_means_inside_the_relative_band():
    assert grade_calculation(WORKING + r"\boxed{101.9 cGy}", "100 cGy", 0.02).passed
    g = grade_calculation(WORKING + r"\boxed{102.1 cGy}", "100 cGy", 0.02)
    assert g.outcome == "wrong" and g.rel_error == pytest.approx(0.021)


def test_a_value_exactly_on_the_band_edge_passes():
    assert grade_calculation(WORKING + r"\boxed{1.01 Gy}", "1 Gy", 0.01).passed
    assert grade_calculation(WORKING + r"\boxed{0.99 Gy}", "1 Gy", 0.01).passed


def test_a_zero_reference_uses_the_band_as_an_absolute_tolerance():
    assert grade_calculation(WORKING + r"\boxed{0.001\%}", "0 %", 0.01).passed
    assert not grade_calculation(WORKING + r"\boxed{5\%}", "0 %", 0.01).passed


def test_reference_forms_are_equivalent():
    text = WORKING + r"\boxed{1.018 cGy/MU}"
    for ref in ["1.018 cGy/MU", CheckKey(value=1.018, unit="cGy/MU"), (1.018, "cGy/MU")]:
        assert grade_calculation(text, ref, 0.005).passed


def test_bad_reference_or_band_is_a_programming_error():
    with pytest.raises(ValueError):
        grade_calculation("x", "1.0 furlongs", 0.01)
    with pytest.raises(ValueError):
        grade_calculation("x", "1.0 cGy", -0.1)
    with pytest.raises(ValueError):
        grade_calculation("x", CheckKey(value=None, unit="cGy"), 0.01)


# --- outcome classes ----------------------------------------------------------------------------
def test_policy_notice_is_blocked():
    notice = ("This request triggered restrictions on violative cyber content and was blocked "
              "under Anthropic's Usage Policy.")
    assert grade_calculation(notice, "1 Gy", 0.01).outcome == "blocked"
    assert grade_calculation("", "1 Gy", 0.01, finish_reason="content_filter").outcome == "blocked"


def test_short_output_without_box_or_answer_line_stopped_short():
    assert grade_calculation("We", "1 Gy", 0.01).outcome == "stopped_short"
    assert grade_calculation("The dose at 5 cm is", "1 Gy", 0.01).outcome == "stopped_short"
    assert grade_calculation("", "1 Gy", 0.01).outcome == "stopped_short"


def test_short_output_with_a_right_bare_answer_still_passes():
    assert grade_calculation("317 MU", "317 MU", 0.01).outcome == "correct"
    assert grade_calculation(r"\boxed{316 MU}", "317 MU", 0.001).outcome == "wrong"  # a box is an answer


def test_token_limit_without_an_answer_is_truncated_but_a_boxed_answer_is_graded():
    cut = WORKING + "so D = 1.2 Gy and then"
    assert grade_calculation(cut, "1.2 Gy", 0.01, finish_reason="length").outcome == "truncated"
    g = grade_calculation(WORKING + r"\boxed{1.2 Gy} Let me double-check", "1.2 Gy", 0.01, finish_reason="length")
    assert g.outcome == "correct"


def test_long_output_without_any_number_is_no_answer():
    g = grade_calculation("I am not able to compute this. " * 20, "1 Gy", 0.01)
    assert g.outcome == "no_answer" and not g.passed


def test_every_outcome_is_a_known_class_and_the_grade_is_json():
    for text in ["", "x", WORKING, WORKING + r"\boxed{1 Gy}", WORKING + r"\boxed{1-2 Gy}", WORKING + r"\boxed{2 Gy}"]:
        g = grade_calculation(text, "1 Gy", 0.01)
        assert g.outcome in OUTCOMES
        json.dumps(g.to_dict(), allow_nan=False)
        assert g.passed == (g.score == 1.0) == (g.outcome == "correct")


def test_non_string_text_is_graded_not_raised():
    assert grade_calculation(None, "1 Gy", 0.01).outcome == "stopped_short"  # type: ignore[arg-type]


def test_dimensionless_reference_can_be_written_several_ways():
    for ref in [(0.95, ""), (0.95, "dimensionless"), CheckKey(value=0.95, unit=None), "0.95"]:
        assert grade_calculation(WORKING + r"\boxed{0.95}", ref, 0.005).passed
        assert grade_calculation(WORKING + r"\boxed{95\%}", ref, 0.005).passed


@pytest.mark.parametrize("reason", ["length", "LENGTH", "max_tokens", "MAX_TOKENS"])
def test_finish_reasons_for_the_token_limit_are_recognised(reason):
    assert grade_calculation(WORKING, "1 Gy", 0.01, finish_reason=reason).outcome == "truncated"


@pytest.mark.parametrize("reason", ["content_filter", "safety", "SAFETY", "refusal"])
def test_finish_reasons_of_a_provider_filter_are_blocked_unless_an_answer_came_first(reason):
    assert grade_calculation(WORKING + "so D =", "1 Gy", 0.01, finish_reason=reason).outcome == "blocked"
    assert grade_calculation(WORKING + r"\boxed{1 Gy}", "1 Gy", 0.01, finish_reason=reason).outcome == "correct"
