"""SSDE generator: AAPM Report 204 fits against its printed tables; each error mode's direction."""

from __future__ import annotations

import pytest

from physbench.suites.medphys import ssde
from physbench.suites.medphys.worksheet import Sheet

# AAPM Report 204, Table 1D (32 cm phantom) and Table 2D (16 cm phantom): effective diameter (cm) -> f
TABLE_1D = {8: 2.76, 10: 2.57, 15: 2.14, 20: 1.78, 25: 1.48, 30: 1.23, 35: 1.02, 40: 0.85, 45: 0.71}
TABLE_2D = {6: 1.49, 8: 1.38, 10: 1.27, 15: 1.05, 20: 0.86, 25: 0.71, 30: 0.59, 40: 0.40, 45: 0.33, 55: 0.22}


@pytest.mark.parametrize("phantom,table", [(32, TABLE_1D), (16, TABLE_2D)])
def test_conversion_factor_fit_reproduces_report_204_tables(phantom, table):
    """Report 204 Tables 1D/2D: the exponential fit agrees with every printed f to within 0.005."""
    for d_cm, f in table.items():
        assert ssde.conversion_factor(d_cm, phantom) == pytest.approx(f, abs=0.0051)


def test_water_equivalent_diameter_of_a_water_disc_is_its_diameter():
    """Report 220: a 30 cm water cylinder (0 HU) has Dw = 30 cm."""
    import math

    assert ssde.water_equivalent_diameter(math.pi * 15**2, 0.0) == pytest.approx(30.0)


L2 = ssde.SsdeFromDimensions("abdomen", 32, 12.0, 0.8, 250.0, 320.0)  # hand-checked draw
L3 = ssde.SsdeFromWaterDiameter("abdomen", 32, 12.0, 0.8, 700.0, -50.0)


def _answer(mode, level, p):
    return ssde.GENERATOR.mode(mode).answer(level, p)


def test_reference_l2_by_hand():
    """D = sqrt(25.0 x 32.0) = 28.28 cm; f = 3.704369 exp(-0.03671937 x 28.28) = 1.3112; SSDE = 15.73 mGy."""
    assert ssde.GENERATOR.level(2).solve(L2) == pytest.approx(15.735, rel=2e-4)


@pytest.mark.parametrize("mode,level,p,direction", [
    ("pitch_again", 1, ssde.DlpScan("chest", 32, 10.0, 40.0, 0.8), +1),  # dividing by 0.8 raises the DLP
    ("pitch_again", 2, L2, +1),
    ("mean_diameter", 2, L2, -1),     # (AP+LAT)/2 > sqrt(AP LAT): larger D, smaller f
    ("lateral_diameter", 2, L2, -1),  # LAT > D: smaller f
    ("mm_in_fit", 2, L2, -1),         # D in mm: f nearly zero
    ("other_phantom_fit", 2, L2, -1),  # 16 cm fit gives about half the 32 cm factor
    ("f_omitted", 2, L2, -1),         # f > 1 below 35.6 cm
    ("ct_not_converted", 3, L3, -1),  # negative HU: A > Aw, larger diameter
    ("pi_omitted", 3, L3, -1),        # 2 sqrt(Aw) > 2 sqrt(Aw/pi)
    ("other_phantom_fit", 3, L3, -1),
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = ssde.GENERATOR.level(level).solve(p)
    wrong = _answer(mode, level, p)
    assert (wrong - ref) * direction > 0


def test_transposed_final_swaps_two_digits():
    ref = ssde.GENERATOR.level(2).solve(L2)  # 15.73...
    assert _answer("transposed_final", 2, L2) == pytest.approx(51.73, abs=0.01)
    assert ref == pytest.approx(15.73, abs=0.01)


def test_worksheet_shows_each_step_with_formula_numbers_and_result():
    sheet = Sheet(display=True)
    ssde.dimensions_chain(L2, sheet)
    text = sheet.render()
    assert "Step 3. Effective diameter: D = √(AP × LAT) = √(25.0 × 32.0) = 28.3 cm" in text
    assert text.splitlines()[-1].endswith("mGy")
