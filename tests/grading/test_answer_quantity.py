"""Reading one answer string: LaTeX and Unicode removed, digit groups joined, labels dropped,
ranges and alternatives refused (MedPhysBench, "Grading details")."""

import pytest

from physbench.grading import parse_quantity
from physbench.grading.normalize import clean
from physbench.grading.quantity import read_quantity


@pytest.mark.parametrize("text, value, unit", [
    # LaTeX formatting
    (r"1.018\ \text{cGy/MU}", 1.018, "cGy/MU"),
    (r"\mathrm{1.018\,cGy/MU}", 1.018, "cGy/MU"),
    (r"1.018\ \mathrm{c\text{Gy}/MU}", 1.018, "cGy/MU"),       # nested braces
    (r"1.018 {\rm cGy/MU}", 1.018, "cGy/MU"),
    (r"1.018\;\text{cGy}\cdot\text{MU}^{-1}", 1.018, "cGy MU^-1"),
    (r"$1.018$ cGy/MU", 1.018, "cGy/MU"),
    (r"1.018 \frac{\text{cGy}}{\text{MU}}", 1.018, "cGy/MU"),
    (r"1.2 \times 10^{3}\ \text{MBq}", 1200.0, "MBq"),
    (r"1.2\cdot10^{-3} Gy", 0.0012, "Gy"),
    ("1.2 × 10⁻³ Gy", 0.0012, "Gy"),
    ("1.2e-3 Gy", 0.0012, "Gy"),
    # digit groups
    (r"17{,}273\ \text{MBq h}", 17273.0, "MBq h"),
    ("17,273 MBq h", 17273.0, "MBq h"),
    ("17\u2009273 MBq h", 17273.0, "MBq h"),
    (r"17\,273 MBq h", 17273.0, "MBq h"),
    ("1,234,567.5 Bq", 1234567.5, "Bq"),
    # superscripts and inverse units
    ("1.018 cGy MU⁻¹", 1.018, "cGy MU^-1"),
    ("3.5 cm²", 3.5, "cm^2"),
    ("3.5 cm2", 3.5, "cm^2"),
    ("1.018 cGy MU-1", 1.018, "cGy MU^-1"),
    # uncertainty stripped
    ("1.23 ± 0.02 Gy", 1.23, "Gy"),
    (r"(1.23 \pm 0.02)\ \text{Gy}", 1.23, "Gy"),
    ("1.23 Gy ± 0.02 Gy", 1.23, "Gy"),
    ("1.23 Gy +/- 2%", 1.23, "Gy"),
    # labels that do not change the unit
    ("2 Gy per fraction", 2.0, "Gy"),
    ("317 MU/fx", 317.0, "MU"),
    ("45 Gy EQD2", 45.0, "Gy"),
    (r"45\ \text{Gy}_{\text{EQD2}}", 45.0, "Gy"),
    ("45 EQD2 Gy", 45.0, "Gy"),
    (r"60\ \text{Gy}_{10}", 60.0, "Gy"),
    (r"60\ \text{Gy}_{\alpha/\beta=10}", 60.0, "Gy"),
    ("60 Gy₁₀", 60.0, "Gy"),
    ("60 Gy (α/β = 3 Gy)", 60.0, "Gy"),
    ("1.018 cGy/MU at d_max", 1.018, "cGy/MU"),
    (r"1.018\ \text{cGy/MU at } d_{\max}", 1.018, "cGy/MU"),
    ("2.956 mm Al", 2.956, "mm"),
    ("3 mm Pb", 3.0, "mm"),
    ("1.2 mm W", 1.2, "mm"),          # tungsten, not watt
    ("54.3 cm of concrete", 54.3, "cm"),
    # aliases
    ("317 monitor units", 317.0, "MU"),
    ("317 Monitor Units", 317.0, "MU"),
    ("1.018 cGy per MU", 1.018, "cGy/MU"),
    ("1.0e4 MBq·h", 1.0e4, "MBq h"),
    ("1.0e4 MBq-h", 1.0e4, "MBq h"),
    ("12 hours", 12.0, "hours"),
    ("95%", 95.0, "%"),
    ("95 percent", 95.0, "percent"),
    (r"95\%", 95.0, "%"),
    ("0.98 (dimensionless)", 0.98, ""),
    ("−5.2 %", -5.2, "%"),
    ("**54.3 cm**", 54.3, "cm"),
    # a count in a denominator is folded into the value
    ("1.018 Gy/100 MU", 0.01018, "Gy/MU"),
    (r"1.018\ \mathrm{Gy}/(100\ \mathrm{MU})", 0.01018, "Gy/MU"),
])
def test_answer_strings_read_as_value_and_unit(text, value, unit):
    assert parse_quantity(text) == (pytest.approx(value), unit)


@pytest.mark.parametrize("text, reason", [
    ("1.2-1.3 Gy", "range"),
    ("1.2 – 1.3 Gy", "range"),
    ("1.2 to 1.3 Gy", "range"),
    ("between 1.2 and 1.3 Gy", "range"),
    ("317 MU or 318 MU", "alternatives"),
    ("317 or 318 MU", "alternatives"),
    ("1.2 Gy, 1.3 Gy", "alternatives"),
    ("1.2 Gy / 1.3 Gy", "alternatives"),
    ("1.2 Gy; 1.3 Gy", "alternatives"),
    ("1,5 Gy", "alternatives"),           # an ambiguous decimal comma is not a digit group
    ("1.2 mGy 100 cm", "number inside the unit"),
    ("1.2 mGy*100 cm", "number inside the unit"),
    ("180/0.5678", "expression"),
    ("9**9**9 m", "expression"),
    ("2 + 3 Gy", "expression"),
    ("317 MU 318", "second number"),
    ("1e999 Gy", "finite"),
])
def test_ranges_alternatives_and_numbers_in_units_are_format_errors(text, reason):
    r = read_quantity(text)
    assert r is not None and r.error is not None and reason in r.error
    assert parse_quantity(text) is None


def test_one_value_restated_in_another_unit_is_not_alternatives():
    r = read_quantity("1.23 Gy (or 123 cGy)")
    assert r.error is None and r.value == pytest.approx(1.23)
    assert read_quantity("1.23 Gy or 123 cGy").error is None
    assert read_quantity("1.23 Gy or 125 cGy").error is not None


def test_unknown_unit_leaves_a_bare_number_and_trailing_prose_is_ignored():
    r = read_quantity("150 rad")
    assert r.value == 150.0 and r.unit == "" and r.rest.strip() == "rad"
    r = read_quantity("317 MU, which rounds to the nearest MU")
    assert r.error is None and r.unit == "MU"


def test_parse_quantity_needs_exactly_one_quantity():
    assert parse_quantity("317 MU which is fine") is None
    assert parse_quantity("MU 317") is None
    assert parse_quantity("no number") is None
    assert parse_quantity("") is None
    assert parse_quantity(None) is None  # type: ignore[arg-type]
    assert parse_quantity("0.95") == (0.95, "")


def test_text_without_a_number_reads_as_nothing():
    assert read_quantity("none") is None
    assert read_quantity("NaN Gy") is None
    assert read_quantity("inf") is None


def test_clean_is_bounded_in_size():
    assert len(clean("1 " * 100_000)) <= 600
