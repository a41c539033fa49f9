"""TG-43 generator: the 1-D point-source formalism against hand calculations, linear interpolation, decay
from the calibration date, catheter geometry; each error mode's direction on a hand-checked draw."""

from __future__ import annotations

import math

import pytest

from physbench.core.errors import UserError
from physbench.suites.medphys import tg43
from physbench.suites.medphys.base import draw

G = (0.997, 1.000, 1.002, 1.004, 1.005, 1.004, 1.000, 0.994)
PHI = (0.970, 0.975, 0.978, 0.980, 0.983, 0.985, 0.987, 0.988)
R = tg43.RADII_CM

L1 = tg43.SingleDwell(40000.0, 1.109, 2.0, 30.0, R, G, PHI)
L2 = tg43.TwoDwells(40000.0, 1.109, (1.2, 2.5), (20.0, 30.0), R, G, PHI)
# dwells at z = 0, 0.5, 1.0 cm; P at (1.2, 1.6, 0.5): r = 2.0616, 2.0, 2.0616 cm, perpendicular 2.0 cm
L3 = tg43.CatheterDwells(40000.0, "2025-03-01", "2025-04-15", 73.83, 1.109, (0.0, 0.5, 1.0), (20.0, 30.0, 20.0),
                         (1.2, 1.6, 0.5), R, G, PHI)


def _answer(mode, level, p):
    return tg43.GENERATOR.mode(mode).answer(level, p)


def test_single_dwell_by_hand():
    """TG-43U1 Eq. 11: D = S_K Lambda (r0/r)^2 g_P(r) phi_an(r) t
    = 40000 U x 1.109 cGy/(h U) x 0.25 x 1.004 x 0.980 x 30 s / 3600 s/h = 90.931 cGy."""
    assert tg43.GENERATOR.level(1).solve(L1) == pytest.approx(90.93061, rel=1e-6)


def test_two_dwells_interpolate_linearly():
    """g_P(1.2) = 1.000 + 0.002 x 0.2/0.5 = 1.0008, phi(1.2) = 0.9762; g_P(2.5) = 1.0045, phi(2.5) = 0.9815."""
    by_hand = 40000 * 1.109 * (20 / 3600 * 1.0008 * 0.9762 / 1.44 + 30 / 3600 * 1.0045 * 0.9815 / 6.25)
    assert tg43.GENERATOR.level(2).solve(L2) == pytest.approx(by_hand, rel=1e-9)
    assert tg43.interpolate(2.0, R, G) == 1.004  # exact at a tabulated radius


def test_catheter_by_hand():
    """45 days from 1 March to 15 April 2025: S_K = 40000 x 2^(-45/73.83) = 26216.8 U. r1 = r3 = sqrt(1.2^2 +
    1.6^2 + 0.5^2) = 2.0616 cm (g 1.004062, phi 0.980185), r2 = 2.0 cm: D = 134.406 cGy."""
    assert tg43.elapsed_days(L3) == 45
    assert tg43.strength_on_treatment_day(L3) == pytest.approx(26216.80, rel=1e-6)
    assert tg43.distances(L3) == pytest.approx([2.0615528, 2.0, 2.0615528])
    assert tg43.GENERATOR.level(3).solve(L3) == pytest.approx(134.40574, rel=1e-6)


def test_ir192_half_life_is_the_protocol_fact():
    """PROTOCOL-FACTS: Ir-192 T1/2 73.83 d (ENSDF 73.829 d)."""
    assert tg43.IR192_HALF_LIFE_D == 73.83


@pytest.mark.parametrize("mode,level,p,direction", [
    ("seconds_as_hours", 1, L1, +1),
    ("seconds_as_minutes", 2, L2, +1),
    ("geometry_omitted", 1, L1, +1),   # (r0/r)^2 = 0.25 at 2 cm left out
    ("inverse_r", 1, L1, +1),          # 1/2 instead of 1/4
    ("radial_dose_omitted", 1, L1, -1),  # g_P(2 cm) = 1.004 > 1
    ("anisotropy_omitted", 1, L1, +1),   # phi_an(2 cm) = 0.980 < 1
    ("lambda_omitted", 1, L1, -1),       # Lambda = 1.109 > 1
    ("last_dwell_omitted", 2, L2, -1),
    ("seconds_as_hours", 3, L3, +1),
    ("geometry_omitted", 3, L3, +1),
    ("no_decay", 3, L3, +1),
    ("decay_reversed", 3, L3, +1),
    ("perpendicular_distance", 3, L3, +1),  # 2.0 cm for every dwell is shorter than 2.06 cm
    ("last_dwell_omitted", 3, L3, -1),
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = tg43.GENERATOR.level(level).solve(p)
    assert (_answer(mode, level, p) - ref) * direction > 0


def test_error_modes_have_the_stated_size():
    ref1, ref3 = tg43.GENERATOR.level(1).solve(L1), tg43.GENERATOR.level(3).solve(L3)
    assert _answer("seconds_as_hours", 1, L1) == pytest.approx(3600 * ref1)
    assert _answer("seconds_as_minutes", 1, L1) == pytest.approx(60 * ref1)
    assert _answer("geometry_omitted", 1, L1) == pytest.approx(4 * ref1)
    assert _answer("no_decay", 3, L3) == pytest.approx(205.0681, rel=1e-6)
    assert _answer("decay_reversed", 3, L3) == pytest.approx(312.8804, rel=1e-6)
    assert _answer("perpendicular_distance", 3, L3) == pytest.approx(139.0614, rel=1e-6)
    assert _answer("last_dwell_omitted", 3, L3) == pytest.approx(97.00174, rel=1e-6)
    assert ref3 > 0


def test_distances_outside_the_table_are_a_clear_error():
    far = tg43.TwoDwells(40000.0, 1.109, (1.2, 7.5), (20.0, 30.0), R, G, PHI)
    with pytest.raises(UserError, match="outside the table"):
        tg43.GENERATOR.level(2).solve(far)
    assert tg43.GENERATOR.level(2).violations(far)


def test_level3_geometry_stays_on_the_grid_and_inside_the_table():
    """Seed "Verification detail": dwell positions and the point on a 0.1 cm grid; every distance,
    and the perpendicular distance of the error mode, inside the printed table."""
    for seed in range(200):
        p = draw(tg43.GENERATOR, 3, seed)
        for v in (*p.dwell_z_cm, *p.point_cm):
            assert round(v * 10) == pytest.approx(v * 10, abs=1e-9)
        rs = tg43.distances(p) + tg43.distances(p, "perpendicular_distance")
        assert all(0.5 <= r <= 6.0 for r in rs)
        assert 1 <= tg43.elapsed_days(p) <= 100


def test_rounding_each_distance_to_three_figures_stays_well_inside_the_band():
    """Seed "Verification detail": a solver that rounds each distance to three significant figures
    moves the level-3 dose by about 1% at most, inside the 2% band."""
    worst = 0.0
    for seed in range(300):
        p = draw(tg43.GENERATOR, 3, seed)
        ref = tg43.dose_catheter(p)
        rs = [float(f"{r:.3g}") for r in tg43.distances(p)]
        s_k = tg43.strength_on_treatment_day(p)
        rounded = sum(tg43.dose_rate(s_k, p.dose_rate_constant, r, p) * tg43.dwell_hours(t)
                      for r, t in zip(rs, p.dwells_s))
        worst = max(worst, abs(rounded / ref - 1))
    assert worst < 0.012


def test_prompts_print_dates_geometry_and_tables():
    p = L3
    text = tg43.GENERATOR.level(3).prompt(p)
    assert "1 March 2025" in text and "15 April 2025" in text
    assert "Point P: x = 1.2 cm, y = 1.6 cm, z = 0.5 cm" in text
    assert "| 2.0 | 1.004 | 0.980 |" in text and "73.83 d" in text
    assert "three significant figures" in text
    assert "D'(r) = S_K × Λ × (r0/r)² × g_P(r) × φ_an(r)" in tg43.GENERATOR.level(1).prompt(L1)


def test_drawn_tables_look_like_ir192():
    """g_P(1 cm) = 1, g_P within 0.95-1.02 to 6 cm; phi_an below 1 and not falling with r."""
    for seed in range(100):
        p = draw(tg43.GENERATOR, 1, seed)
        assert p.radial_dose[R.index(1.0)] == 1.0
        assert all(0.95 <= g <= 1.02 for g in p.radial_dose)
        assert all(0.93 <= f <= 1.0 for f in p.anisotropy)
        assert list(p.anisotropy) == sorted(p.anisotropy)
        assert p.radial_dose[-1] < max(p.radial_dose)  # falls off beyond a few cm
        assert math.isfinite(tg43.GENERATOR.level(1).solve(p))


def test_tabulated_edge_distances_tolerate_rounding_but_not_extrapolation():
    """A distance a hair outside the table (a perturbed 0.5 cm) uses the end segment; 0.49 cm is an error."""
    assert tg43.interpolate(0.4999, R, G) == pytest.approx(0.997 - 0.003 * 0.0001 / 0.5)
    with pytest.raises(UserError):
        tg43.interpolate(0.49, R, G)
