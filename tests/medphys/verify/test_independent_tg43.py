"""The second TG-43 solver reads every input from the prompt, reproduces hand calculations and
the generator's references, and measures the seed's distance-rounding check."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect, solve_prompt
from physbench.suites.medphys.verify.independent import tg43
from physbench.suites.medphys.reference import reference_of

TABLE = """| r (cm) | Radial dose function g_P(r) | 1-D anisotropy function φ_an(r) |
|---|---|---|
| 0.5 | 0.998 | 0.965 |
| 1.0 | 1.000 | 0.970 |
| 1.5 | 1.002 | 0.972 |
| 2.0 | 1.004 | 0.980 |
| 3.0 | 1.006 | 0.982 |
| 4.0 | 1.005 | 0.984 |
| 5.0 | 1.002 | 0.986 |
| 6.0 | 0.996 | 0.988 |"""
UNIT_U = "U (1 U = 1 cGy cm² h⁻¹)"
QUESTION = ("Calculate {what}, in cGy. Give at least three significant figures and write the final answer as "
            "\\boxed{{value cGy}}.")


def _level1(distance: str = "2.0") -> str:
    return (f"An HDR brachytherapy treatment uses an Ir-192 source in water (full scatter conditions). The source "
            f"stops at one dwell position.\n\n- Air-kerma strength S_K: 40000 {UNIT_U}\n"
            f"- Dose-rate constant Λ: 1.109 cGy h⁻¹ U⁻¹\n- Dwell time: 36.0 s\n"
            f"- Distance from the source centre to the point: {distance} cm\n\n"
            f"Source data for this Ir-192 source model:\n\n{TABLE}\n\n"
            "Use the TG-43U1 one-dimensional (point-source) formalism: dose rate D'(r) = S_K × Λ × (r0/r)² × "
            "g_P(r) × φ_an(r), with r0 = 1 cm.\n\n" + QUESTION.format(what="the dose to water at the point from this dwell"))


def test_level1_point_source_dose() -> None:
    """40000 U × 1.109 cGy h⁻¹ U⁻¹ × (1/2)² × 1.004 × 0.980 × 0.01 h = 109.117 cGy (by hand)."""
    value, unit = tg43.solve(1, _level1())
    assert unit == "cGy"
    assert value == pytest.approx(40000 * 1.109 * 0.25 * 1.004 * 0.980 * 0.01, rel=1e-12)
    assert value == pytest.approx(109.117, rel=1e-5)


def test_level1_untabulated_distance_without_interpolation_rule_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="interpolation"):
        tg43.solve(1, _level1(distance="2.5"))


def test_level1_without_point_source_geometry_is_a_prompt_defect() -> None:
    prompt = _level1().replace("one-dimensional (point-source) formalism", "one-dimensional formalism")
    with pytest.raises(PromptDefect, match="point-source"):
        tg43.solve(1, prompt)


def _level3(point: str = "x = 1.0 cm, y = 0.0 cm, z = 0.0 cm", dwells: tuple[str, ...] = ("0.0", "1.0"),
            count: str = "two", cal: str = "20 February 2024", treat: str = "1 March 2024") -> str:
    lines = "\n".join(f"- Dwell {i}: at z = {z} cm, dwell time 36.0 s" for i, z in enumerate(dwells, start=1))
    return ("An HDR brachytherapy treatment uses an Ir-192 source in water (full scatter conditions). A straight "
            "catheter runs along the z-axis (x = 0, y = 0, coordinates in cm), and the source stops at "
            f"{count} dwell positions in it.\n\n- Air-kerma strength S_K on the calibration certificate: 40000 {UNIT_U}\n"
            f"- Calibration date: {cal}\n- Treatment date: {treat} (same time of day as the calibration)\n"
            f"- Half-life of Ir-192: 73.83 d\n- Dose-rate constant Λ: 1.109 cGy h⁻¹ U⁻¹\n{lines}\n"
            f"- Point P: {point}\n\nSource data for this Ir-192 source model:\n\n{TABLE}\n\n"
            "Use the TG-43U1 one-dimensional formalism with the point-source geometry factor (r0 = 1 cm). Treat each "
            "dwell as a point source at its dwell position. Compute each source-to-point distance to at least three "
            "significant figures. Where a distance is not tabulated, interpolate g_P(r) and φ_an(r) each linearly in r between the neighbouring rows.\n\n"
            + QUESTION.format(what="the total dose to water at point P from the dwells on the treatment date"))


def test_level3_geometry_interpolation_and_decay_over_a_leap_day() -> None:
    """20 Feb → 1 Mar 2024 is 10 days (2024 is a leap year); r = 1 cm and √2 cm;
    g_P(√2) = 1.000 + 0.004 (√2 − 1), φ_an(√2) = 0.970 + 0.004 (√2 − 1) by linear interpolation."""
    s_k = 40000 * math.exp(-math.log(2) * 10 / 73.83)
    w = (math.sqrt(2) - 1.0) / 0.5
    g, phi = 1.000 + w * 0.002, 0.970 + w * 0.002
    expected = s_k * 1.109 * 0.01 * (1.000 * 0.970 + 0.5 * g * phi)
    value, unit = tg43.solve(3, _level3())
    assert unit == "cGy"
    assert value == pytest.approx(expected, rel=1e-12)


def test_level3_distance_outside_the_table_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="outside"):
        tg43.solve(3, _level3(point="x = 0.2 cm, y = 0.0 cm, z = 0.0 cm"))


def test_level3_dwell_count_must_match_the_text() -> None:
    with pytest.raises(PromptDefect, match="number of dwell positions"):
        tg43.solve(3, _level3(count="three"))


def test_level3_without_time_of_day_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="time"):
        tg43.solve(3, _level3().replace(" (same time of day as the calibration)", ""))


def test_distance_rounding_options() -> None:
    """r = √1.01 = 1.00499 cm: three significant figures give 1.00 cm, 0.01 cm gives 1.00 cm too;
    r = √0.33 = 0.57446 cm: 0.574 (3 sf) and 0.57 (0.01 cm)."""
    assert tg43.round_distance(math.sqrt(1.01), "3sf") == 1.00
    assert tg43.round_distance(math.sqrt(0.33), "3sf") == 0.574
    assert tg43.round_distance(math.sqrt(0.33), "0.01cm") == 0.57
    assert tg43.round_distance(math.sqrt(0.33), None) == math.sqrt(0.33)
    with pytest.raises(ValueError):
        tg43.solve(3, _level3(), distance_rounding="2sf")


def test_rounding_check_measures_the_change_of_a_hand_made_item() -> None:
    """One dwell at r = √1.01 cm rounded to 1.00 cm: the dose changes by (1.01 g φ(1)/g φ(√1.01)) − 1 ≈ 1.0%."""
    prompt = _level3(point="x = 1.0 cm, y = 0.0 cm, z = 0.1 cm", dwells=("0.0",), count="one")
    exact = tg43.solve(3, prompt)[0]
    report = tg43.distance_rounding_check(lambda seed: (prompt, exact), n=1, start=0)
    r = math.sqrt(1.01)
    w = (r - 1.0) / 0.5
    ratio = 1.01 * (1.000 * 0.970) / ((1.000 + 0.002 * w) * (0.970 + 0.002 * w))
    assert report["3sf"]["max"] == pytest.approx(ratio - 1, rel=1e-9)
    assert report["0.01cm"]["max"] == pytest.approx(ratio - 1, rel=1e-9)
    assert report["max_rel_diff_vs_reference"] == 0.0


def test_rounding_check_on_public_items() -> None:
    def public(seed: int) -> tuple[str, float]:
        item = calculation_item("tg43", 3, seed)
        return item.messages[-1].content, float(reference_of(item).value)

    report = tg43.distance_rounding_check(public, n=60, start=0)
    assert report["draws"] == 60
    assert report["max_rel_diff_vs_reference"] < 1e-6
    for mode in ("3sf", "0.01cm"):
        assert 0 <= report[mode]["p99"] <= report[mode]["max"] <= report[mode]["max_single_dwell"] * 1.0000001 + 1e-12


@settings(max_examples=60, deadline=None)
@given(level=st.sampled_from([1, 2, 3]), seed=st.integers(0, 500), edits=st.integers(1, 6), salt=st.integers(0, 10**6))
def test_mangled_prompts_raise_only_prompt_defects(level: int, seed: int, edits: int, salt: int) -> None:
    """Hostile or damaged text never crashes the solvers: an answer or a PromptDefect."""
    rng = random.Random(salt)
    for generator in ("tg43", "decay", "mird"):
        chars = list(calculation_item(generator, level, seed).messages[-1].content)
        for _ in range(edits):
            chars[rng.randrange(len(chars))] = rng.choice("0123456789 -.:|x×^(){}\\\n")
        try:
            solve_prompt(generator, level, "".join(chars))
        except PromptDefect:
            pass
