"""MU generator (AAPM TG-71 hand calculation): the seed's worksheet example, worked examples of each
formula, realistic beam data, and the direction of every error mode on hand-checked draws."""

from __future__ import annotations

import dataclasses

import pytest

from physbench.suites.medphys import mu
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.mu_beam import DEPTHS_CM, ENERGIES, FIELDS_CM, Machine, interp2
from physbench.suites.medphys.mu_sheets import (
    ExtendedSsd,
    IsocentricBlocked,
    OpenFieldSsd,
    l2_chain,
    l3_chain,
    mayneord_f,
)
from physbench.suites.medphys.worksheet import Sheet, first_difference

G = mu.GENERATOR

# --- the seed's level-3 worksheet example (seed 000, "Prompts and example items", MU L3 seed 1) --------------

_TMR = ((1.000,) * 7,
        (0.924, 0.926, 0.928, 0.930, 0.932, 0.935, 0.941), (0.867, 0.870, 0.874, 0.877, 0.881, 0.886, 0.895),
        (0.813, 0.818, 0.822, 0.827, 0.832, 0.839, 0.851), (0.763, 0.768, 0.774, 0.780, 0.786, 0.794, 0.809),
        (0.715, 0.722, 0.728, 0.735, 0.742, 0.752, 0.769), (0.671, 0.678, 0.685, 0.692, 0.700, 0.711, 0.730),
        (0.629, 0.636, 0.644, 0.652, 0.660, 0.672, 0.692), (0.590, 0.598, 0.606, 0.614, 0.622, 0.635, 0.656),
        (0.553, 0.561, 0.569, 0.578, 0.587, 0.600, 0.622))
_PDD = ((100.0,) * 7,
        (88.1, 88.3, 88.5, 88.7, 88.9, 89.2, 89.7), (79.6, 80.0, 80.3, 80.6, 81.0, 81.5, 82.3),
        (72.0, 72.5, 72.9, 73.4, 73.8, 74.5, 75.6), (65.2, 65.7, 66.3, 66.8, 67.3, 68.1, 69.5),
        (59.1, 59.7, 60.3, 60.9, 61.5, 62.4, 63.9), (53.5, 54.2, 54.8, 55.5, 56.1, 57.1, 58.7),
        (48.5, 49.2, 49.9, 50.6, 51.3, 52.3, 54.1), (44.0, 44.8, 45.5, 46.2, 46.9, 48.0, 49.8),
        (40.0, 40.7, 41.5, 42.2, 42.9, 44.0, 45.9))
SEED_EXAMPLE = IsocentricBlocked(
    energy_mv=6, dmax_cm=1.5, output_cgy_per_mu=1.0, depth_cm=5.4, coll_x_cm=16.0, coll_y_cm=14.0,
    blocked_area_cm2=167.6, blocked_perimeter_cm=57.3, wedge_angle_deg=45, wedge_factor=0.646, tray_factor=0.959,
    total_dose_gy=54.0, fractions=30, fields_cm=(4.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0),
    sc_table=(0.955, 0.974, 0.989, 1.000, 1.009, 1.019, 1.029),
    sp_table=(0.970, 0.983, 0.993, 1.000, 1.005, 1.011, 1.017),
    depths_cm=(1.5, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0), tmr_table=_TMR, pdd_table=_PDD)


def test_seed_worksheet_example_reproduces_through_solve():
    """Seed 000, MU L3 worksheet example: 307.7 MU; 317.0 MU with the isocentric correction omitted."""
    assert mu.violations_l3(SEED_EXAMPLE) == []
    assert round(G.level(3).solve(SEED_EXAMPLE), 1) == 307.7
    assert round(G.mode("isocentric_isq_omitted").answer(3, SEED_EXAMPLE), 1) == 317.0


def test_seed_worksheet_example_steps_match_the_papers_numbers():
    """The canonical planted worksheet shows the paper's ten steps; the error is first visible in step 9.

    The paper's step 8 prints "(4.4 - 4)" where the depth is 5.4 cm (a typo): 0.8958 follows from 5.4.
    """
    correct, planted = Sheet(display=True), Sheet(display=True)
    l3_chain(SEED_EXAMPLE, correct)
    l3_chain(SEED_EXAMPLE, planted, "isocentric_isq_omitted")
    assert [s.result for s in planted.steps] == ["180.0 cGy", "14.93 cm", "11.70 cm", "1.0188", "1.0042", "0.9317",
                                                 "0.8804", "0.8958", "0.5678 cGy/MU", "317.0 MU"]
    assert len(correct.steps) == 11 and correct.steps[8].result == "1.0302" and correct.steps[-1].result == "307.7 MU"
    assert first_difference(correct.steps, planted.steps) == 9


# --- worked examples, one per formula ------------------------------------------------------------

def test_equivalent_squares_of_a_rectangle_and_a_blocked_field():
    """4A/P: a 16 x 14 rectangle gives 2XY/(X + Y) = 448/30 = 14.933 cm; A = 167.6, P = 57.3 gives 11.700 cm."""
    sheet = Sheet(display=True)
    l3_chain(SEED_EXAMPLE, sheet)
    steps = {s.key: s for s in sheet.steps}
    assert steps["rc"].value == 14.93 and steps["rd"].value == 11.70


def test_bilinear_tmr_interpolation_by_hand():
    """TMR(5.4, 11.70) = 0.9317 + (0.8804 - 0.9317) x 1.4/2 = 0.89579 (seed example, steps 6-8)."""
    p = SEED_EXAMPLE
    assert interp2(p.depths_cm, p.fields_cm, p.tmr_table, 5.4, 4 * 167.6 / 57.3) == pytest.approx(0.89579, abs=2e-5)


L1 = OpenFieldSsd(energy_mv=6, dmax_cm=1.5, output_cgy_per_mu=1.0, field_cm=8.0, depth_cm=10.0, sc=0.989, sp=0.993,
                  pdd_percent=66.3, dose_cgy=200.0)


def test_ssd_100_open_field_mu_by_hand():
    """TG-71 SSD set-up at the calibration SSD (no inverse-square factor):
    D' = 1.000 x 0.989 x 0.993 x 0.663 = 0.651117 cGy/MU; MU = 200/0.651117 = 307.16."""
    assert G.level(1).solve(L1) == pytest.approx(307.164, abs=0.002)


L2 = ExtendedSsd(energy_mv=6, dmax_cm=1.5, output_cgy_per_mu=1.0, ssd_cm=110.0, field_cm=12.0, depth_cm=8.0, sc=1.005,
                 sp=1.004, pdd_percent=75.0, wedge_angle_deg=30, wedge_factor=0.760, tray_factor=0.960,
                 total_dose_gy=50.0, fractions=25)


def test_extended_ssd_mu_by_hand():
    """TG-71 SSD set-up: ISF = (101.5/111.5)^2 = 0.828672; D' = 1.005 x 1.004 x 0.750 x 0.760 x 0.960 x
    0.828672 = 0.457539 cGy/MU; D = 50 Gy/25 = 200 cGy; MU = 200/0.457539 = 437.12."""
    isf = (101.5 / 111.5) ** 2
    assert isf == pytest.approx(0.828672, abs=1e-6)
    rate = 1.005 * 1.004 * 0.750 * 0.760 * 0.960 * isf
    assert rate == pytest.approx(0.457539, abs=1e-6)
    assert G.level(2).solve(L2) == pytest.approx(200.0 / rate, rel=1e-12)
    assert G.level(2).solve(L2) == pytest.approx(437.12, abs=0.01)


def test_isocentric_inverse_square_factor_is_applied_for_ssd_calibration():
    """Calibration at dmax for SSD 100 cm puts the reference point at 100 + dmax; the isocenter is at 100 cm:
    ISF = ((100 + 1.5)/100)^2 = 1.030225, the ratio of the two answers of the seed example."""
    ref = G.level(3).solve(SEED_EXAMPLE)
    omitted = G.mode("isocentric_isq_omitted").answer(3, SEED_EXAMPLE)
    assert omitted / ref == pytest.approx(1.030225, rel=1e-12)


def test_mayneord_f_factor_matches_a_published_example():
    """Mayneord F from SSD 100 to 105 cm at 10 cm depth, dmax 1.5 cm: F = 1.007 (PDD 68.6% -> 69.1%)."""
    f = mayneord_f(100.0, 105.0, 1.5, 10.0)
    assert f == pytest.approx(1.0073, abs=1e-4)
    assert round(68.6 * f, 1) == 69.1


# --- realistic beam data ----------------------------------------------------------------------------

def _typical(mv: int) -> Machine:
    e = ENERGIES[mv]
    return Machine(mv, sum(e.dmax_cm) / 2, e.mu_inf, e.mu_0, e.lam, e.k, e.sc_a, e.sc_rho, e.sp_a, e.sp_rho)


@pytest.mark.parametrize("mv,pdd10", [(6, (65.5, 69.0)), (10, (71.5, 75.5)), (15, (75.0, 78.5)), (18, (77.0, 80.5))])
def test_typical_beams_have_clinical_depth_doses(mv, pdd10):
    """PDD(10 cm, 10 x 10, SSD 100) near published clinical values (6 MV ~67%, 10 MV ~74%, 15 MV ~77%),
    PDD(dmax) = 100, Sc(10) = Sp(10) = TMR(dmax) = 1."""
    m = _typical(mv)
    assert pdd10[0] <= m.pdd(10.0, 10.0, 100.0) <= pdd10[1]
    assert m.pdd(m.dmax_cm, 7.0, 100.0) == pytest.approx(100.0)
    assert m.sc(10.0) == pytest.approx(1.0) and m.sp(10.0) == pytest.approx(1.0) and m.tmr(m.dmax_cm, 8.0) == 1.0


@pytest.mark.parametrize("seed", range(20))
def test_printed_tables_are_monotone_and_consistent(seed):
    p = draw(G, 3, seed)
    assert p.depths_cm[1:] == DEPTHS_CM and p.fields_cm == FIELDS_CM
    assert all(v == 1.0 for v in p.tmr_table[0]) and all(v == 100.0 for v in p.pdd_table[0])
    for tab in (p.tmr_table, p.pdd_table):
        assert all(list(row) == sorted(row) for row in tab)  # rises with field size
        for j in range(len(FIELDS_CM)):
            column = [row[j] for row in tab]
            assert column == sorted(column, reverse=True)  # falls with depth
    # PDD < 100 TMR beyond dmax (the inverse-square fall-off of an SSD set-up)
    assert all(pdd < 100.0 * tmr
               for row_p, row_t in zip(p.pdd_table[1:], p.tmr_table[1:]) for pdd, tmr in zip(row_p, row_t))


def test_plausibility_rules_reject_bad_geometry():
    assert mu.violations_l3(dataclasses.replace(SEED_EXAMPLE, depth_cm=6.0))  # on a table row
    assert mu.violations_l3(dataclasses.replace(SEED_EXAMPLE, blocked_area_cm2=230.0))  # larger than the field
    assert mu.violations_l2(dataclasses.replace(L2, ssd_cm=100.0))  # not an extended SSD
    assert mu.violations_l1(dataclasses.replace(L1, dose_cgy=20000.0))


# --- error modes: each moves the answer in the direction its description implies -------------------------

@pytest.mark.parametrize("mode,level,p,direction", [
    ("sp_omitted", 1, L1, -1),                 # Sp = 0.993 < 1 left out: D' larger, fewer MU
    ("sp_omitted", 1, dataclasses.replace(L1, sp=1.010), +1),
    ("isq_extended_omitted", 2, L2, -1),       # ISF < 1 at SSD 110 left out
    ("isq_inverted", 2, L2, -1),               # 1/ISF > 1
    ("isq_ssd_alone", 2, L2, +1),              # (100/110)^2 = 0.8264 < (101.5/111.5)^2 = 0.8287
    ("wedge_omitted", 2, L2, -1),
    ("tray_omitted", 2, L2, -1),
    ("total_dose", 2, L2, +1),
    ("sp_omitted", 2, L2, +1),                 # Sp = 1.004 > 1 left out
    ("mayneord_applied", 2, L2, -1),           # F = 1.0109 > 1 raises the PDD
    ("isq_inverted", 3, SEED_EXAMPLE, +1),     # (100/101.5)^2 < 1 where 1.0302 belongs
    ("isocentric_isq_omitted", 3, SEED_EXAMPLE, +1),
    # Sc(11.70) = 1.0077 < Sc(14.93) = 1.0188 and Sp(14.93) = 1.0109: Sc Sp = 1.0187 < 1.0231
    ("sc_sp_swapped", 3, SEED_EXAMPLE, +1),
    ("collimator_mean_square", 3, SEED_EXAMPLE, -1),  # (16 + 14)/2 = 15 > 14.93: Sc larger
    ("wedge_omitted", 3, SEED_EXAMPLE, -1),
    ("tray_omitted", 3, SEED_EXAMPLE, -1),
    ("pdd_for_tmr", 3, SEED_EXAMPLE, +1),      # PDD(5.4, 11.70)/100 = 0.833 < TMR = 0.896
    ("tmr_at_collimator_field", 3, SEED_EXAMPLE, -1),  # TMR at 14.93 > TMR at 11.70
    ("total_dose", 3, SEED_EXAMPLE, +1),
    ("sp_omitted", 3, SEED_EXAMPLE, +1),       # Sp(11.70) = 1.0042 > 1 left out
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = G.level(level).solve(p)
    wrong = G.mode(mode).answer(level, p)
    assert (wrong - ref) * direction > 0


def test_mode_sizes_by_hand():
    """Total dose: MU x n; extended-SSD inverse square omitted: MU x ISF; Mayneord: MU / F."""
    ref = G.level(2).solve(L2)
    assert G.mode("total_dose").answer(2, L2) == pytest.approx(25 * ref)
    assert G.mode("isq_extended_omitted").answer(2, L2) == pytest.approx(ref * (101.5 / 111.5) ** 2)
    assert G.mode("mayneord_applied").answer(2, L2) == pytest.approx(ref / mayneord_f(100.0, 110.0, 1.5, 8.0))
    assert G.mode("total_dose").answer(3, SEED_EXAMPLE) == pytest.approx(30 * G.level(3).solve(SEED_EXAMPLE))


@pytest.mark.parametrize("level,p", [(1, L1), (2, L2), (3, SEED_EXAMPLE)])
def test_transposed_final_swaps_two_digits(level, p):
    ref = G.level(level).solve(p)
    wrong = G.mode("transposed_final").answer(level, p)
    assert sorted(f"{wrong:.1f}".replace(".", "")) == sorted(f"{ref:.1f}".replace(".", ""))
    assert abs(wrong - ref) > 0.01 * ref


# --- worksheets: layout varies, and no word or step count gives a planted error away ------------------------

def test_correct_worksheets_vary_in_length_and_mention_what_errors_mention():
    counts = {1: set(), 2: set(), 3: set()}
    words = {2: False, 3: False}
    for level, p in ((1, L1), (2, L2), (3, SEED_EXAMPLE)):
        for variant in range(40):
            sheet = Sheet(display=True, variant=variant)
            G.level(level).worksheet(p, sheet)
            counts[level].add(len(sheet.steps))
            text = sheet.render()
            if level == 2 and "Mayneord" in text:
                words[2] = True
            if level == 3 and "PDD" in text:
                words[3] = True
    assert len(counts[1]) >= 3 and len(counts[2]) >= 3 and len(counts[3]) >= 3
    assert min(counts[3]) <= 10  # a correct sheet can be as short as the sheet without its ISF step
    assert words[2] and words[3]


def test_planted_omission_is_localised_at_the_step_that_uses_the_factor():
    for variant in range(20):
        correct, planted = Sheet(display=True, variant=variant), Sheet(display=True, variant=variant)
        l2_chain(L2, correct)
        l2_chain(L2, planted, "isq_extended_omitted")
        step = first_difference(correct.steps, planted.steps)
        assert planted.steps[step - 1].key == "rate"
