"""The independent CT dose solver: Report 204 tables, hand-worked DLP/SSDE, generated items, defects."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect, ssde

FIT = (
    "AAPM Report 204 conversion factors, fitted as f = a × exp(−b × D) with D the patient's diameter in cm:\n"
    "- CTDIvol referenced to the 32 cm phantom: a = 3.704369, b = 0.03671937 per cm\n"
    "- CTDIvol referenced to the 16 cm phantom: a = 1.874799, b = 0.03871313 per cm\n\n"
)


def scan(phantom: int = 32, ctdi: str = "10.0") -> str:
    return (
        "A helical CT scan of the abdomen of an adult was acquired with the following settings.\n\n"
        f"- Helical pitch: 0.800\n- CTDIvol displayed by the scanner: {ctdi} mGy, referenced to the "
        f"{phantom} cm diameter PMMA dosimetry phantom\n"
    )


SSDE_QUESTION = (
    "Calculate the size-specific dose estimate (SSDE) for this scan, in mGy. Give at least three "
    "significant figures and write the final answer as \\boxed{value mGy}."
)


def effective_prompt(ap_mm: int, lat_mm: int, phantom: int = 32) -> str:
    return (
        scan(phantom) + f"\nOn the CT localizer image at the middle of the scan range the patient measures "
        f"{ap_mm} mm anteroposterior (AP) and {lat_mm} mm lateral (LAT).\n\n" + FIT
        + "Use the effective diameter of AAPM Report 204 as D.\n\n" + SSDE_QUESTION
    )


def water_prompt(area_cm2: str, hu: str, phantom: int = 32) -> str:
    return (
        scan(phantom) + "\nOn the axial image at the middle of the scan range, the region of interest drawn "
        f"along the patient's skin contour has an area of {area_cm2} cm² and a mean CT number of {hu} HU.\n\n"
        + FIT + "Use the water-equivalent diameter of AAPM Report 220 (from this one image) as D.\n\n" + SSDE_QUESTION
    )


# AAPM Report 204 Tables 1D (32 cm) and 2D (16 cm), effective diameter (cm) -> f, as listed in
# shared/PROTOCOL-FACTS.md; the tables are the exponential fit rounded to two decimals.
TABLE_1D = {8: 2.76, 10: 2.57, 15: 2.14, 20: 1.78, 25: 1.48, 30: 1.23, 35: 1.02, 40: 0.85, 45: 0.71}
TABLE_2D = {6: 1.49, 8: 1.38, 10: 1.27, 15: 1.05, 20: 0.86, 25: 0.71, 30: 0.59, 40: 0.40, 45: 0.33, 55: 0.22}


def test_fit_reproduces_report_204_tables_1d_and_2d():
    for d, f in TABLE_1D.items():
        assert round(ssde.conversion_factor(3.704369, 0.03671937, d), 2) == f, d
    for d, f in TABLE_2D.items():
        assert round(ssde.conversion_factor(1.874799, 0.03871313, d), 2) == f, d


def test_level1_dlp_is_ctdivol_times_length_without_the_pitch():
    """10.0 mGy × 40.0 cm = 400 mGy cm; the pitch is already inside CTDIvol."""
    prompt = scan() + "- Scan length: 40.0 cm\n\nCalculate the dose-length product (DLP) of this scan, in mGy cm. " \
        "Give at least three significant figures and write the final answer as \\boxed{value mGy cm}."
    assert ssde.solve(1, prompt) == (pytest.approx(400.0, rel=1e-12), "mGy cm")


def test_level2_effective_diameter_is_the_geometric_mean():
    """AP 160 mm and LAT 250 mm give D = sqrt(16 × 25) = 20 cm, like a 200 × 200 mm patient; at 20 cm
    Table 1D gives f = 1.78, so SSDE ≈ 17.8 mGy for 10 mGy."""
    square, unit = ssde.solve(2, effective_prompt(200, 200))
    oblong, _ = ssde.solve(2, effective_prompt(160, 250))
    assert unit == "mGy"
    assert oblong == pytest.approx(square, rel=1e-12)
    assert square == pytest.approx(10.0 * 3.704369 * math.exp(-0.03671937 * 20.0), rel=1e-12)
    assert round(square / 10.0, 2) == 1.78


def test_level2_uses_the_fit_of_the_ctdivol_phantom():
    """A 16 cm CTDIvol at D = 20 cm: Table 2D gives f = 0.86."""
    value, _ = ssde.solve(2, effective_prompt(200, 200, phantom=16))
    assert round(value / 10.0, 2) == 0.86


def test_level3_water_cylinder_of_32_cm_has_dw_32_cm():
    """A 0 HU disc of area π·16² = 804.25 cm² has Dw = 32.0 cm (Report 220 Eq. for Dw); a 1005.3 cm²
    contour at -200 HU has the same water-equivalent area, 0.8 × 1005.3 = 804.24 cm²."""
    water, unit = ssde.solve(3, water_prompt("804.25", "0"))
    tissue, _ = ssde.solve(3, water_prompt("1005.3", "-200"))
    expected = 10.0 * 3.704369 * math.exp(-0.03671937 * 2 * math.sqrt(804.25 / math.pi))
    assert unit == "mGy"
    assert water == pytest.approx(expected, rel=1e-12)
    assert ssde.water_equivalent_diameter(804.25, 0) == pytest.approx(32.0, abs=1e-4)
    assert tissue == pytest.approx(water, rel=1e-4)


def test_size_metric_not_stated_is_a_defect():
    prompt = effective_prompt(200, 200).replace("Use the effective diameter of AAPM Report 204 as D.", "")
    with pytest.raises(PromptDefect, match="size metric"):
        ssde.solve(2, prompt)


def test_missing_fit_for_the_ctdivol_phantom_is_a_defect():
    prompt = effective_prompt(200, 200, phantom=16).replace(FIT.splitlines()[2] + "\n", "")
    with pytest.raises(PromptDefect, match="16 cm phantom"):
        ssde.solve(2, prompt)


def test_roi_of_air_is_a_defect():
    with pytest.raises(PromptDefect, match="water-equivalent area"):
        ssde.solve(3, water_prompt("800.0", "-1000"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3]), st.data())
def test_damaged_item_prompts_give_a_finite_answer_or_a_defect(seed, level, data):
    """Dropping a line or zeroing a number never crashes the solver."""
    text = next(m.content for m in calculation_item("ssde", level, seed).messages if m.role == "user")
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    damaged = "\n".join(lines[:i] + [data.draw(st.sampled_from(["", "0", lines[i].replace("1", "0")]))] + lines[i + 1 :])
    try:
        value, _ = ssde.solve(level, damaged)
    except PromptDefect:
        return
    assert value == value and abs(value) != float("inf")
