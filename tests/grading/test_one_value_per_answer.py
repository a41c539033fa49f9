"""A final answer names one value: hedges, alternatives, several values and arithmetic after
the unit are format errors, never a pass; one value with harmless prose after it still passes
(MedPhysBench, "Grading details": a range or alternatives is a format error; issue 14)."""

import pytest

from physbench.grading import grade_calculation

WORKING = "Working through the protocol step by step. " * 12 + "\n"  # > 400 characters
RIGHT = "1.018 cGy/MU"
REFERENCE = "1.018 cGy/MU"

# two values in one final answer; "{a}" and "{b}" are the two values
TWO_VALUE_FORMS = [
    "{a} or {b}", "{a} or maybe {b}", "{a} (SSD), {b} (SAD)", "{a}; alternatively {b}", "{a}, i.e. {b}",
    r"{a} \newline {b}", "{a} if SSD, else {b}", "{a} - or - {b}", "{a} (other option: {b})", "{a} → {b}",
    r"{a} \to {b}", "{a} / {b}", "{a}, {b}", "{a}; {b}", "{a} and {b}", "{a} vs {b}", "{a} versus {b}",
    r"{a} \\ {b}", "{a} (or {b})", "{a}, otherwise {b}", "{a}, perhaps {b}", "{a}, possibly {b}",
    "either {a} or {b}", "{a} | {b}", r"{a} \text{ or } {b}", r"{a} \quad\text{or}\quad {b}", "{a} ({b} if SAD)",
    "{a}, but {b} if measured at SAD", "{a}; {b} for SAD", "{a} to {b}", "{a} – {b}", "{a} ... {b}",
    "{a} (alternatively, {b})", "{a}, e.g. {b}", "{a}, or rather {b}", "{a} (maybe {b})",
    "{a} or {b}, depending on the setup", "{a} instead of {b}", r"\text{SSD: } {a}, \text{SAD: } {b}",
    "{a} ⇒ {b}", r"{a} \Rightarrow {b}", "{a} ({b})", "{a}, or {b} in water", "{a} / maybe {b}", "{a}? {b}?",
    "{a} (≈ {b})", "{a} {b}", "{a}, alt. {b}", "{a} (second option {b})", "{a}. Or maybe {b}.",
    "{a} (SSD setup) and {b} (SAD setup)", "{a} for SSD; for SAD {b}", "{a} for SSD {b} for SAD",
    "{a} or perhaps {b}", "{a} (could also be {b})", "{a} -> {b}", "{a} (or possibly {b})",
    "{a} ~ {b}", "{a} [{b}]", "{a}\n{b}", "{a} or {b} (rounded)",
]
# the other value: same unit, an equivalent unit, a bare number, LaTeX
OTHER_VALUES = ["2.0 cGy/MU", "20 mGy/MU", "2.0", r"2.0\ \text{cGy/MU}"]
WRAPPERS = {"box": r"\boxed{%s}", "answer line": "Final answer: %s"}


def _fill(form: str, a: str, b: str) -> str:
    return form.replace("{a}", a).replace("{b}", b)


def test_the_corpus_of_two_value_forms_is_large():
    """Issue 14 found 14 of 29 two-answer forms passing; this corpus is at least twice that."""
    assert len(TWO_VALUE_FORMS) >= 58 and len(set(TWO_VALUE_FORMS)) == len(TWO_VALUE_FORMS)


@pytest.mark.parametrize("wrap", sorted(WRAPPERS))
@pytest.mark.parametrize("form", TWO_VALUE_FORMS)
def test_a_final_answer_with_two_values_is_a_format_error_in_either_order(form, wrap):
    if "\n" in form and wrap == "answer line":
        pytest.skip("an answer line is one line")
    for other in OTHER_VALUES:
        for a, b in ((RIGHT, other), (other, RIGHT)):
            answer = WRAPPERS[wrap] % _fill(form, a, b)
            g = grade_calculation(WORKING + answer, REFERENCE, 0.005)
            assert g.outcome == "format_error" and not g.passed, (answer, g.detail)


@pytest.mark.parametrize("answer", [
    "1.018 cGy/MU at d_max", "1.018 cGy/MU at 10 cm depth", "1.018 cGy/MU (rounded to 4 significant figures)",
    "1.018 cGy/MU (4 s.f.)", "1.018 cGy/MU, which is within 2% of the nominal value",
    "1.018 cGy/MU (i.e. 10.18 mGy/MU)", "1.018 cGy/MU (or 0.01018 Gy/MU)", "1.018 cGy/MU for a 10 x 10 cm field",
    "1.018 cGy/MU at 100 cm SSD", "1.018 cGy/MU (step 7)", "1.018 cGy/MU in water at 10 cm",
    "1.018 cGy/MU ± 0.5%", "1.018 ± 0.005 cGy/MU", "1.018 cGy/MU (TG-51)", "1.018 cGy/MU per TG-51",
    "1.018 cGy/MU for the 6 MV beam", "1.018 cGy/MU (Co-60 calibration)", "1.018 cGy/MU, as required by TG-51",
    r"1.018\ \text{cGy/MU (at } d_{\max}\text{)}", "1.018 cGy/MU.",
    "1.018 cGy/MU. This is within 1.5% of the 1.0 cGy/MU nominal output.", "1.018 cGy/MU (10.18 mGy/MU)",
    "1.018 cGy/MU (≈ 1.02 cGy/MU)", "1.0177 cGy/MU (1.018 cGy/MU to 4 significant figures)",
    "1.018 cGy/MU for a 10×10 cm² field at 100 cm SSD", "1.018 cGy/MU, per NCRP Report 151",
    "1.018 cGy/MU (the reading at 20 °C and 101.3 kPa)", "1.018 cGy/MU, measured with 2 chambers",
    "1.018 cGy/MU (3 decimal places)", "1.018 cGy/MU for 18 MV photons", "1.018 cGy/MU (beam quality at 80 kVp)",
])
@pytest.mark.parametrize("wrap", sorted(WRAPPERS))
def test_one_value_with_harmless_prose_after_it_still_passes(answer, wrap):
    g = grade_calculation(WORKING + WRAPPERS[wrap] % answer, REFERENCE, 0.005)
    assert g.outcome == "correct", (answer, g.detail)


@pytest.mark.parametrize("text", [
    "The output is 1.018 cGy/MU or maybe 2.0 cGy/MU.",
    "The output is 2.0 cGy/MU or maybe 1.018 cGy/MU.",
    "The output is 2.0 cGy/MU, or it could be 1.018 cGy/MU.",
    "D = 2.0 cGy/MU or maybe D = 1.018 cGy/MU",
    r"\boxed{2.0 cGy/MU} or \boxed{1.018 cGy/MU}",
    r"2.0 cGy/MU or perhaps \boxed{1.018 cGy/MU}",
    r"\boxed{1.018 cGy/MU} or maybe 2.0 cGy/MU",
    r"\boxed{1.018 cGy/MU} (or 2.0 cGy/MU with SAD)",
])
def test_a_hedge_around_the_graded_value_in_its_sentence_is_a_format_error(text):
    """Whatever the source (last number, equation, box), another value offered in the same
    sentence, before or after the one graded, makes the answer two values."""
    g = grade_calculation(WORKING + text, REFERENCE, 0.005)
    assert g.outcome == "format_error", g.detail


def test_an_aside_before_the_answer_is_not_an_alternative():
    text = WORKING + r"With 2.0 Gy prescribed (or maybe more), the output is \boxed{1.018 cGy/MU}."
    assert grade_calculation(text, REFERENCE, 0.005).passed
    text = WORKING + "D = 2.0 Gy. Or maybe not. The output is \\boxed{1.018 cGy/MU}."
    assert grade_calculation(text, REFERENCE, 0.005).passed


def test_an_earlier_box_in_another_sentence_is_superseded_not_an_alternative():
    text = WORKING + r"First I got \boxed{2.0 cGy/MU}. After the correction: \boxed{1.018 cGy/MU}."
    assert grade_calculation(text, REFERENCE, 0.005).passed


# --- arithmetic after the unit ---------------------------------------------------------------
@pytest.mark.parametrize("answer, reference", [
    (r"\boxed{1.8 Gy \times 25}", "1.8 Gy"), (r"\boxed{1.8 Gy \times 25}", "45 Gy"),
    (r"\boxed{1.8\ \text{Gy} \times 25 \text{ fractions}}", "1.8 Gy"), ("Final answer: 2 Gy x 30", "2 Gy"),
    (r"\boxed{1.8 Gy + 0.2 Gy}", "1.8 Gy"), (r"\boxed{1.8 Gy \cdot 25}", "1.8 Gy"), (r"\boxed{317 MU * 2}", "317 MU"),
    (r"\boxed{317 MU^2 \times 2}", "317 MU"), (r"$\boxed{1.8\ \text{Gy}} \times 25$", "1.8 Gy"),
    (r"\boxed{180/0.5678}", "317 MU"), (r"\boxed{1.018 cGy/MU \times 10^{3} \times 2}", "1018 cGy/MU"),
])
def test_arithmetic_after_the_answer_is_a_format_error_never_the_first_factor(answer, reference):
    g = grade_calculation(WORKING + answer, reference, 0.01)
    assert g.outcome == "format_error" and not g.passed, g.detail


@pytest.mark.parametrize("answer", [r"\boxed{1.018 cGy/MU \times 10^{3}}", "Final answer: 1.018 cGy/MU × 10³",
                                    r"\boxed{1.018\ \mathrm{cGy/MU} \cdot 10^{3}}", "Answer: 1.018 cGy/MU x 10^3"])
def test_a_power_of_ten_after_the_unit_is_applied_exactly(answer):
    """Scientific notation split by the unit: 1.018 × 10^3 cGy/MU = 1018 cGy/MU, in decimal
    arithmetic, so the value is the float nearest 1018 (not 1.018 * 1000.0 rounded twice)."""
    g = grade_calculation(WORKING + answer, "1018 cGy/MU", 0.001)
    assert g.passed and g.value == 1018.0
    assert grade_calculation(WORKING + answer, REFERENCE, 0.005).outcome == "wrong"


def test_a_negative_power_of_ten_after_the_unit_is_applied():
    g = grade_calculation(WORKING + r"\boxed{2.5 Gy \times 10^{-3}}", "2.5 mGy", 0.001)
    assert g.passed and g.value == 0.0025


# --- exponents out of range --------------------------------------------------------------------
@pytest.mark.parametrize("answer", [r"\boxed{7e-10005 Gy}", r"\boxed{7e10005 Gy}", r"\boxed{7 \times 10^{-10005} Gy}",
                                    r"\boxed{7 \times 10^{10005} Gy}", "Final answer: 7E-10005 Gy", r"\boxed{1e-400 Gy}",
                                    r"\boxed{1.018 cGy/MU \times 10^{-400}}"])
@pytest.mark.parametrize("reference", ["7 Gy", "10005 Gy", "0 Gy"])
def test_an_exponent_that_overflows_or_underflows_is_a_format_error(answer, reference):
    """Decision: a nonzero number whose exponent underflows to zero (or to a subnormal, which has
    lost its digits) or overflows to infinity cannot be compared with anything: format error.
    It is never read as the digits after the "e" (7e-10005 is not 10005)."""
    g = grade_calculation(WORKING + answer, reference, 0.01)
    assert g.outcome == "format_error" and g.value != 10005.0, g.detail


def test_small_and_large_exponents_in_range_are_read():
    assert grade_calculation(WORKING + r"\boxed{7e-5 Gy}", "0.07 mGy", 0.001).passed
    assert grade_calculation(WORKING + r"\boxed{7 \times 10^{-300} Gy}", "7e-300 Gy", 0.001).passed
    assert grade_calculation(WORKING + r"\boxed{0 Gy}", "0 Gy", 0.01).passed
    assert grade_calculation(WORKING + r"\boxed{0.000e-5000 Gy}", "0 Gy", 0.01).passed  # zero is zero


# --- empty boxes -------------------------------------------------------------------------------
@pytest.mark.parametrize("empty", [r"\boxed{}", r"\boxed{ }", r"\boxed{\ }", r"\boxed{\text{}}", r"\boxed{\,}",
                                   r"$\boxed{}$", r"\boxed{{}}"])
def test_a_trailing_empty_box_does_not_hide_the_real_boxed_answer(empty):
    """Decision: an empty box states nothing (most often the instruction "put the answer in
    \\boxed{}" echoed), so it neither answers nor withdraws an answer; the last box with content counts."""
    g = grade_calculation(WORKING + r"The output is \boxed{1.018 cGy/MU}." + "\nFormat: " + empty, REFERENCE, 0.005)
    assert g.passed and g.detail["source"] == "boxed"
    g = grade_calculation(WORKING + r"The output is \boxed{2.0 cGy/MU}." + "\n" + empty, REFERENCE, 0.005)
    assert g.outcome == "wrong"


def test_only_empty_boxes_fall_through_to_the_other_sources():
    g = grade_calculation(WORKING + "Final answer: 1.018 cGy/MU\n" + r"\boxed{}", REFERENCE, 0.005)
    assert g.passed and g.detail["source"] == "answer_line"


@pytest.mark.parametrize("answer, one_value", [
    ("1.23 Gy (or 123 cGy)", True), ("1.23 Gy, i.e. 1230 mGy", True), ("317.4 MU (≈ 317 MU)", True),
    ("1.2345 Gy (1.23 Gy)", True), ("317 MU or 317.4 MU", False), ("1.0177 cGy/MU → 1.018 cGy/MU", False),
    ("99.5 Gy (100 Gy)", False), ("1 Gy (0.6 Gy)", False), ("1.23 Gy or 125 cGy", False),
])
def test_a_restatement_is_one_value_only_when_it_states_the_same_value(answer, one_value):
    """After a word of choice ("or", "i.e.", "→") only the same value in another unit is a
    restatement; without one, rounding to at least 3 significant figures also is."""
    g = grade_calculation(WORKING + rf"\boxed{{{answer}}}", answer.split(" (")[0].split(" or ")[0].split(",")[0]
                          .split(" →")[0], 0.02)
    assert (g.outcome == "correct") is one_value, g.detail
    if not one_value:
        assert g.outcome == "format_error"
