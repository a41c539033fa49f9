"""The independent HVL solver: hand-worked narrow-beam examples at each level, generated
items, and prompts it must refuse."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.verify.independent import PromptDefect, solve_prompt

NARROW = ("A narrow beam of monoenergetic photons falls perpendicularly on a slab. The geometry is "
          "narrow-beam (good geometry): scattered photons do not reach the detector.\n\n")


def _level1(coefficient: str, thickness: str = "9.04 mm") -> str:
    return (
        NARROW + "- Photon energy: 40 keV\n- Slab material: aluminium\n"
        f"- Slab thickness: {thickness}\n- {coefficient}\n\n"
        "Calculate the narrow-beam transmission through the slab, that is the fraction of the incident "
        "photons that pass through without interacting (a pure number, no unit). Give at least three "
        "significant figures and write the final answer as \\boxed{value}."
    )


def _level2(coefficient: str, wanted: str = "2500 µGy") -> str:
    return (
        "A narrow beam of monoenergetic photons reaches a detector in narrow-beam (good) geometry: "
        "scattered photons do not reach the detector. A slab is to be placed in the beam to reduce the "
        "air kerma at the detector.\n\n- Photon energy: 60 keV\n- Slab material: water\n"
        f"- Air kerma at the detector without the slab: 10.00 mGy\n"
        f"- Air kerma wanted at the detector with the slab: {wanted}\n- {coefficient}\n\n"
        "Calculate the thickness of water needed, in mm. Give at least three significant figures and "
        "write the final answer as \\boxed{value mm}."
    )


def _level3(readings: list[tuple[str, str]], method: str = "log-linear interpolation") -> str:
    rows = "".join(f"| {x} | {k} |\n" for x, k in readings)
    return (
        "The beam quality of a radiographic X-ray tube was measured in narrow-beam geometry. With the tube "
        "settings held fixed, the air kerma was measured with increasing thicknesses of high-purity "
        "aluminium added in the beam (0 mm is the open field).\n\n- Tube potential: 80 kVp\n\n"
        f"| Added aluminium (mm) | Air kerma (mGy) |\n|---|---|\n{rows}\n"
        f"Determine the first half-value layer by {method} (the logarithm of the air kerma taken as linear "
        "in thickness between measurements).\n\n"
        "Calculate the first half-value layer of this beam (a thickness of aluminium), in mm. Give at least "
        "three significant figures and write the final answer as \\boxed{value mm}."
    )


HAND_L3 = [("0.0", "10.00"), ("1.0", "8.00"), ("2.0", "6.00"), ("4.0", "4.00")]


def test_level1_two_hvls_transmit_a_quarter() -> None:
    """T = 0.5^(x/HVL): 9.04 mm of aluminium with HVL 4.52 mm transmits 0.25."""
    value, unit = solve_prompt("hvl", 1, _level1(
        "Half-value layer of aluminium for 40 keV photons: HVL = 4.52 mm"))
    assert unit == "" and value == pytest.approx(0.25, rel=1e-12)


def test_level1_mu_in_per_cm_with_thickness_in_mm() -> None:
    """T = exp(−μx) with μ = 1.534 cm⁻¹ and x = 2.11 mm = 0.211 cm: exp(−0.323674) = 0.72349."""
    value, _ = solve_prompt("hvl", 1, _level1(
        "Linear attenuation coefficient of aluminium for 40 keV photons: μ = 1.534 cm⁻¹", "2.11 mm"))
    assert value == pytest.approx(math.exp(-0.323674), rel=1e-9)
    assert value == pytest.approx(0.72349, rel=1e-5)


def test_level2_thickness_for_a_quarter_of_the_kerma_is_two_hvls() -> None:
    """10 mGy down to 2500 µGy (mixed units) is two HVLs: 2 × 3.00 mm = 6.00 mm."""
    value, unit = solve_prompt("hvl", 2, _level2("Half-value layer of water for 60 keV photons: HVL = 3.00 mm"))
    assert unit == "mm" and value == pytest.approx(6.0, rel=1e-12)


def test_level2_with_mu_is_ln_ratio_over_mu() -> None:
    """x = ln(10/2.5)/μ = 1.386294/0.2059 cm⁻¹ = 6.73285 cm = 67.3285 mm."""
    value, _ = solve_prompt("hvl", 2, _level2("Linear attenuation coefficient of water for 60 keV photons: "
                                               "μ = 0.2059 cm⁻¹"))
    assert value == pytest.approx(67.3285, rel=1e-5)


def test_level3_interpolates_log_linearly_between_the_bracketing_readings() -> None:
    """Half of 10.00 mGy lies between 2 mm (6.00) and 4 mm (4.00):
    x = 2 + 2 ln(6/5)/ln(6/4) = 2 + 2 × 0.182322/0.405465 = 2.89933 mm."""
    value, unit = solve_prompt("hvl", 3, _level3(HAND_L3))
    assert unit == "mm" and value == pytest.approx(2.89933, rel=1e-5)


def test_level3_pure_exponential_returns_its_hvl() -> None:
    """Readings of 8 e^(−x ln2/2.7) mGy: log-linear interpolation is exact, HVL = 2.7 mm."""
    readings = [(f"{x:.1f}", repr(8.0 * 0.5 ** (x / 2.7))) for x in (0.0, 1.0, 2.0, 3.0, 4.0)]
    assert solve_prompt("hvl", 3, _level3(readings))[0] == pytest.approx(2.7, rel=1e-12)


@pytest.mark.parametrize(
    ("level", "prompt"),
    [
        (1, _level1("Half-value layer of water for 40 keV photons: HVL = 4.52 mm")),  # wrong material
        (1, _level1("Half-value layer of aluminium for 40 keV photons: HVL = 4.52 mm\n"
                    "- Linear attenuation coefficient of aluminium for 40 keV photons: μ = 1.534 cm⁻¹")),
        (1, _level1("Half-value layer of aluminium for 40 keV photons: HVL = 4.52 furlongs")),
        (1, _level1("Build-up factor: B = 1.3")),
        (2, _level2("Half-value layer of water for 60 keV photons: HVL = 3.00 mm", wanted="12 mGy")),
        (2, _level2("Half-value layer of water for 60 keV photons: HVL = 0 mm")),
        (3, _level3(HAND_L3, method="interpolation")),
        (3, _level3([("0.0", "10.00"), ("1.0", "8.00"), ("2.0", "6.00")])),  # half not reached
        (3, _level3([("0.5", "10.00"), ("1.0", "8.00"), ("2.0", "4.00")])),  # no open field
    ],
)
def test_prompts_missing_an_input_or_convention_are_defects(level: int, prompt: str) -> None:
    with pytest.raises(PromptDefect):
        solve_prompt("hvl", level, prompt)


@settings(max_examples=150, deadline=None)
@given(level=st.sampled_from([1, 2, 3]), cut=st.integers(0, 900), junk=st.text(max_size=30))
def test_damaged_prompts_give_an_answer_or_a_defect_never_a_crash(level: int, cut: int, junk: str) -> None:
    base = {1: _level1("Half-value layer of aluminium for 40 keV photons: HVL = 4.52 mm"),
            2: _level2("Linear attenuation coefficient of water for 60 keV photons: μ = 0.2059 cm⁻¹"),
            3: _level3(HAND_L3)}[level]
    damaged = base[:cut] + junk + base[cut + len(junk):]
    try:
        value, _ = solve_prompt("hvl", level, damaged)
    except PromptDefect:
        return
    assert math.isfinite(value)
