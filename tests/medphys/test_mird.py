"""MIRD generator: the schema's formulas against hand calculations, worksheets in every layout, and each
error mode's direction on a hand-checked draw."""

from __future__ import annotations

import math

import pytest

from physbench.suites.medphys import mird, mird_model
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.worksheet import Sheet

I131 = "I-131 sodium iodide for hyperthyroidism"
L1 = mird.TimeIntegratedActivity("I-131", "thyroid", I131, 370.0, 0.5, 6.0, "d")
L1H = mird.TimeIntegratedActivity("Tc-99m", "liver", "Tc-99m sulfur colloid", 185.0, 0.85, 5.8, "h")
L2 = mird.SelfDose("Tc-99m", "liver", "Tc-99m sulfur colloid", 185.0, 0.85, 5.8, "h", 3.45e-6)
L2D = mird.SelfDose("I-131", "thyroid", I131, 370.0, 0.5, 6.0, "d", 1.2e-3)
L3 = mird.TwoSourceDose("Tc-99m", "a Tc-99m-labelled agent with renal and hepatic uptake", 6.01, "kidneys", "liver",
                        370.0, 0.2, 20.0, 0.4, 30.0, 1.4e-5, 2.9e-7)


def _answer(mode, level, p):
    return mird.GENERATOR.mode(mode).answer(level, p)


def test_time_integrated_activity_by_hand():
    """MIRD schema, instantaneous uptake, mono-exponential clearance: A~ = f A0 T_eff/ln 2
    = 0.5 x 370 MBq x (6.0 d x 24 h/d) / 0.693147 = 38 433 MBq h."""
    assert mird.GENERATOR.level(1).solve(L1) == pytest.approx(38433.40, rel=1e-6)
    assert mird_model.time_integrated_activity(370.0, 0.5, 144.0) == pytest.approx(1.4427 * 0.5 * 370 * 144, rel=1e-4)


def test_self_dose_by_hand():
    """D = A~ S with A~ in MBq s: A~ = 0.85 x 185 x 5.8 / ln 2 = 1315.81 MBq h; D = 1315.81 x 3600 x 3.45e-6
    = 16.342 mGy."""
    assert mird.GENERATOR.level(2).solve(L2) == pytest.approx(16.34236, rel=1e-6)


def test_two_source_dose_by_hand():
    """T_eff = T_p T_b/(T_p + T_b): 6.01 x 20/26.01 = 4.6213 h (kidneys), 6.01 x 30/36.01 = 5.0069 h (liver);
    A~ = 493.37 and 1069.08 MBq h; D = 3600 (493.37 x 1.4e-5 + 1069.08 x 2.9e-7) = 25.982 mGy."""
    assert mird.effective_half_life(6.01, 20.0) == pytest.approx(4.621300, rel=1e-6)
    assert mird.GENERATOR.level(3).solve(L3) == pytest.approx(25.98183, rel=1e-6)
    assert mird_model.cross_share(L3) == pytest.approx(3600 * 1069.0767 * 2.9e-7 / 25.98183, rel=1e-5)


@pytest.mark.parametrize("mode,level,p,direction", [
    ("teff_sum", 3, L3, +1),            # T_p + T_b exceeds both half-lives
    ("teff_physical", 3, L3, +1),       # T_p exceeds T_eff
    ("factor_1443_omitted", 1, L1, -1),  # x 0.693
    ("factor_1443_omitted", 2, L2, -1),
    ("factor_1443_omitted", 3, L3, -1),
    ("ln2_for_1443", 1, L1H, -1),       # 0.693 instead of 1.443: x 0.48
    ("ln2_for_1443", 3, L3, -1),
    ("uptake_omitted", 1, L1, +1),      # f < 1 left out
    ("uptake_omitted", 3, L3, +1),
    ("s_3600_omitted", 2, L2, -1),      # 3600 times too small
    ("s_3600_omitted", 3, L3, -1),
    ("cross_omitted", 3, L3, -1),
    ("days_as_hours", 1, L1, -1),       # 6.0 d read as 6.0 h
    ("days_as_hours", 2, L2D, -1),
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = mird.GENERATOR.level(level).solve(p)
    assert (_answer(mode, level, p) - ref) * direction > 0


def test_error_modes_have_the_stated_size():
    ref1, ref2 = mird.GENERATOR.level(1).solve(L1), mird.GENERATOR.level(2).solve(L2)
    assert _answer("factor_1443_omitted", 1, L1) == pytest.approx(ref1 * math.log(2))
    assert _answer("ln2_for_1443", 1, L1) == pytest.approx(ref1 * math.log(2) ** 2)
    assert _answer("uptake_omitted", 1, L1) == pytest.approx(2 * ref1)
    assert _answer("days_as_hours", 1, L1) == pytest.approx(ref1 / 24)
    assert _answer("days_as_hours", 1, L1H) == mird.GENERATOR.level(1).solve(L1H)  # hours item: nothing to slip
    assert _answer("s_3600_omitted", 2, L2) == pytest.approx(ref2 / 3600)
    assert _answer("transposed", 2, L2) == pytest.approx(61.34, abs=1e-9)  # 16.34 -> 61.34
    assert _answer("teff_physical", 3, L3) == pytest.approx(
        3600 * (0.2 * 370 * 6.01 * 1.4e-5 + 0.4 * 370 * 6.01 * 2.9e-7) / math.log(2), rel=1e-9)


def test_canonical_worksheet_shows_formula_numbers_and_result():
    sheet = Sheet(display=True)
    final = mird.two_source_chain(L3, sheet)
    text = sheet.render()
    assert ("Step 1. Effective half-life in the kidneys: T_eff_T = T_p × T_b_T / (T_p + T_b_T) = "
            "6.01 h × 20.0 h / (6.01 h + 20.0 h) = 4.621 h") in text
    assert "Step 7. Absorbed dose to the kidneys: D = D_self + D_cross" in text
    assert [s.key for s in sheet.steps] == ["t_eff_T", "a_tilde_T", "t_eff_N", "a_tilde_N", "d_self", "d_cross",
                                            "dose"]
    assert float(final) == pytest.approx(25.98, abs=0.01)


@pytest.mark.parametrize("level,p", [(1, L1), (2, L2), (3, L3)])
def test_planted_modes_change_their_own_step_in_every_layout(level, p):
    """For each mode and layout: the first changed step (matched by key) shows a different result."""
    from physbench.suites.medphys.worksheet import first_difference

    spec = mird.GENERATOR.level(level)
    for variant in range(12):
        correct = Sheet(display=True, variant=variant)
        spec.worksheet(p, correct)
        for m in mird.GENERATOR.modes_at(level):
            planted = Sheet(display=True, variant=variant)
            spec.worksheet(p, planted, m.name)
            step = first_difference(correct.steps, planted.steps)
            if m.name == "days_as_hours" and p.t_eff_unit == "h":
                assert step is None
                continue
            assert step is not None, (variant, m.name)
            own = planted.steps[step - 1]
            twin = next((s for s in correct.steps if s.key == own.key), None)
            assert twin is None or twin.result != own.result, (variant, m.name)
            if m.name != "transposed":  # a transposed digit depends on the rounding shown
                assert planted.steps[-1].value == pytest.approx(m.answer(level, p), rel=0.006), (variant, m.name)


def test_prompts_print_every_input_as_stored():
    for seed in range(30):
        p3 = draw(mird.GENERATOR, 3, seed)
        text = mird.GENERATOR.level(3).prompt(p3)
        for value in (p3.uptake_target, p3.uptake_neighbour):
            assert f": {mird.fmt_sig(value, 2)}\n" in text
        assert mird.fmt_sci(p3.s_cross, 3) in text and f"{p3.t_phys_h:g} h" in text
        p1 = draw(mird.GENERATOR, 1, seed)
        assert f"{mird.fmt_sig(p1.t_eff, 3)} {p1.t_eff_unit}" in mird.GENERATOR.level(1).prompt(p1)
        assert (p1.t_eff_unit == "d") == (p1.nuclide == "I-131")


def test_level3_cross_dose_is_visible_and_half_lives_realistic():
    for seed in range(100):
        p = draw(mird.GENERATOR, 3, seed)
        assert 0.02 <= mird_model.cross_share(p) <= 0.5
        assert p.uptake_target + p.uptake_neighbour < 1


def test_solver_uses_params_as_given_not_rounded_to_the_printed_precision():
    """`physbench medphys solve` is a second-check calculator: extra digits in a params file count."""
    finer = mird.TimeIntegratedActivity("I-131", "thyroid", I131, 370.4, 0.5012, 6.013, "d")
    assert mird.GENERATOR.level(1).solve(finer) == pytest.approx(0.5012 * 370.4 * 6.013 * 24 / math.log(2),
                                                                 rel=1e-12)
