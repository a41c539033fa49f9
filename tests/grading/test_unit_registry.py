"""The units registry: our own definitions file, gray apart from sievert, MU a unit, no `rad`."""

import math

import pytest

from physbench.grading import convert
from physbench.grading.quantity import parse_unit
from physbench.grading.units import DEFINITIONS, pint_unit, registry, scan_unit, unit_word

# the answer units of the medphys generators: every one must parse
MEDPHYS_UNITS = ["cGy", "cGy/MU", "Gy", "MU", "cm", "mm", "mGy", "mGy cm", "MBq h", "MBq", "GBq", "mCi",
                 "h", "d", "min", "dimensionless", "", "mSv", "Sv"]


def test_registry_is_built_from_the_packaged_definitions_file():
    assert DEFINITIONS.name == "units.txt" and DEFINITIONS.is_file()
    text = DEFINITIONS.read_text()
    assert "monitor_unit = [monitor_unit] = MU" in text
    assert registry() is registry()  # one registry, built once


@pytest.mark.parametrize("unit", MEDPHYS_UNITS)
def test_every_medphys_answer_unit_parses_and_converts_to_itself(unit):
    assert parse_unit(unit) is not None
    assert convert(2.5, unit, unit) == pytest.approx(2.5)


def test_gray_never_converts_to_sievert_either_way():
    assert convert(1.0, "Gy", "Sv") is None
    assert convert(1.0, "mSv", "mGy") is None
    assert convert(1.0, "cGy", "rem") is None


def test_sievert_family_still_converts_among_itself():
    """NIST SP 811 (2008): 1 rem = 0.01 Sv."""
    assert convert(1.0, "rem", "mSv") == pytest.approx(10.0)
    assert convert(250.0, "mrem", "mSv") == pytest.approx(2.5)
    assert convert(1.0, "Sv", "mSv") == pytest.approx(1000.0)


def test_gray_family_converts_including_joule_per_kilogram():
    assert convert(1.0, "Gy", "cGy") == pytest.approx(100.0)
    assert convert(1.0, "J/kg", "Gy") == pytest.approx(1.0)
    assert convert(1.0, "Gy/MU", "cGy/MU") == pytest.approx(100.0)


def test_rad_is_not_taken_as_a_dose():
    assert unit_word("rad") is None
    assert convert(150.0, "rad", "cGy") is None
    assert convert(150.0, "rads", "Gy") is None


def test_monitor_unit_is_a_dimension_of_its_own():
    mu = pint_unit("monitor_unit")
    assert mu is not None and not mu.dimensionless
    assert convert(100.0, "MU", "") is None
    assert convert(100.0, "MU", "s") is None
    assert convert(3.0, "MUs", "MU") == pytest.approx(3.0)
    assert convert(1.0, "monitor units", "MU") == pytest.approx(1.0)


def test_activity_time_and_old_activity_units():
    """1 Ci = 3.7e10 Bq exactly (NIST SP 811, 2008)."""
    assert convert(1.0, "mCi", "MBq") == pytest.approx(37.0)
    assert convert(1.0, "GBq h", "MBq h") == pytest.approx(1000.0)
    assert convert(24.0, "MBq h", "MBq d") == pytest.approx(1.0)
    assert convert(1.0, "MBq h", "MBq s") == pytest.approx(3600.0)
    assert convert(1.0, "MBq h", "") is None  # cumulated activity is not a bare number here


def test_dose_length_product_and_thickness_with_material():
    assert convert(1.0, "mGy cm", "mGy mm") == pytest.approx(10.0)
    assert convert(2.956, "mm Al", "mm") == pytest.approx(2.956)
    assert convert(3.0, "mm Pb", "cm") == pytest.approx(0.3)


def test_cgy_per_mu_spellings_are_one_unit():
    for spelling in ["cGy/MU", "cGy MU^-1", "cGy MU⁻¹", "cGy per MU", "cGy·MU⁻¹", r"\mathrm{cGy\,MU^{-1}}"]:
        assert convert(1.0, spelling, "cGy/MU") == pytest.approx(1.0), spelling


def test_count_in_a_denominator_is_a_factor_not_a_multiplier():
    assert convert(1.0, "Gy/100 MU", "cGy/MU") == pytest.approx(1.0)
    assert convert(1.0, "cGy per 100 MU", "cGy/MU") == pytest.approx(0.01)
    assert convert(1.0, "Gy/(100 MU)", "cGy/MU") == pytest.approx(1.0)


def test_percent_is_a_pure_number_and_degrees_are_not():
    assert convert(95.0, "%", "") == pytest.approx(0.95)
    assert convert(1.0, "deg", "") is None


def test_ambiguous_symbols_resolve_to_the_unprefixed_unit():
    # pint could also read "Gy" as giga-year and "MU" as mega-U (air-kerma strength)
    assert unit_word("Gy") == "gray"
    assert unit_word("MU") == "monitor_unit"
    assert unit_word("cGy") == "centigray"


def test_capitalised_long_names_are_read_in_lower_case():
    assert convert(1.0, "Gray", "cGy") == pytest.approx(100.0)
    assert convert(2.0, "Hours", "min") == pytest.approx(120.0)


def test_unknown_and_numeric_units_are_invalid():
    assert parse_unit("furlongs") is None
    assert parse_unit("mGy 100 cm") is None
    assert convert(1.0, "bananas", "Gy") is None
    assert convert(math.nan, "Gy", "cGy") is None


def test_scanner_stops_at_prose_and_drops_a_dangling_operator():
    s = "cGy/MU, which is fine"
    u = scan_unit(s, 0)
    assert u.expr == "centigray/monitor_unit" and s[u.end:] == ", which is fine"
    u = scan_unit("MU / fraction", 0)
    assert u.shown == "MU"


def test_scanner_refuses_a_number_inside_the_unit():
    assert scan_unit("mGy 100 cm", 0).invalid


def test_scanner_has_a_token_bound():
    u = scan_unit(" Gy" * 10_000, 0)
    assert u.end < 200


def test_parsed_units_are_cached_so_pint_parses_each_unit_once():
    from physbench.grading.units import conversion_factor

    convert(1.0, "mGy cm", "mGy mm")
    parses, factors = pint_unit.cache_info().misses, conversion_factor.cache_info().misses
    for _ in range(50):
        assert convert(1.0, "mGy cm", "mGy mm") == pytest.approx(10.0)
    assert pint_unit.cache_info().misses == parses
    assert conversion_factor.cache_info().misses == factors
