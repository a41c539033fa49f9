"""NCRP 151 generator: report tables, barrier equations by hand, the seed's level-3 example (v1.1 rule),
each error mode's direction, and the worksheets' layout variation."""

from __future__ import annotations

import math

import pytest

from physbench.suites.medphys import ncrp151, ncrp151_tables as tables
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.worksheet import Sheet, first_difference

GEN = ncrp151.GENERATOR

# Hand-checked draws (values as printed in a prompt).
L1 = ncrp151.PrimarySingleTvl("6 MV", "lead", 5.7, 480.0, 4, 40, "a stairway", False, 2e-5, 6.0)
L2 = ncrp151.PrimaryConcrete(4, 35.0, 30.0, 709.0, 4, 20, "a storage room", False, 0.02, 5.8)
# Seed 000, result-check example (dev split, NCRP 151 L3, seed 1): 6 MV, W 370 Gy/week, T = 1/40,
# P 0.02 mSv/week, d 4.3 m, F 1225 cm², 60°; Table B.4 a = 8.24e-4, B.7 34/29 cm, B.5a 21 cm.
SEED_L3 = ncrp151.SecondaryBarrier(6, 370.0, 4, 40, "a stairway", False, 0.02, 4.3, 1.0, 1e-3, 1225.0, 60, 8.24e-4,
                                   34.0, 29.0, 21.0)
# A draw in which patient scatter needs the thicker barrier (30°, 1600 cm²).
SCATTER_L3 = ncrp151.SecondaryBarrier(6, 400.0, 4, 5, "a corridor", False, 0.02, 4.0, 1.0, 1e-3, 1600.0, 30,
                                      2.77e-3, 34.0, 29.0, 26.0)


def _answer(mode: str, level: int, p: object) -> float:
    return GEN.mode(mode).answer(level, p)


# --- PROTOCOL-FACTS: the report's tables ---------------------------------------------------------

def test_table_b2_primary_tvls_in_concrete_lead_and_steel():
    """NCRP 151 Table B.2 (PROTOCOL-FACTS; second source: a public C# transcription of Table B.2)."""
    expected = {4: (35, 30), 6: (37, 33), 10: (41, 37), 15: (44, 41), 18: (45, 43), 20: (46, 44), 25: (49, 46),
                30: (51, 49)}
    assert tables.PRIMARY_TVL_CONCRETE_CM == {k: (float(a), float(b)) for k, (a, b) in expected.items()}
    assert set(tables.PRIMARY_TVL_LEAD_CM.values()) == {5.7}
    assert tables.PRIMARY_TVL_STEEL_CM[4] == 9.9 and tables.PRIMARY_TVL_STEEL_CM[6] == 10.0
    assert tables.CO60_TVL_CM == {"concrete": 21.0, "lead": 4.0}


def test_table_b7_leakage_tvls():
    """NCRP 151 Table B.7, TVL1/TVLe of head leakage in concrete (cm)."""
    expected = {4: (33, 28), 6: (34, 29), 10: (35, 31), 15: (36, 33), 18: (36, 34), 20: (36, 34), 25: (37, 35),
                30: (37, 36)}
    assert tables.LEAKAGE_TVL_CONCRETE_CM == {k: (float(a), float(b)) for k, (a, b) in expected.items()}


def test_table_b4_scatter_fractions_and_b5a_scatter_tvls():
    """NCRP 151 Table B.4 rows 30° and 90° and Table B.5a rows 30° and 135° (PROTOCOL-FACTS)."""
    assert [tables.SCATTER_FRACTION[30][mv] for mv in (6, 10, 18, 24)] == [2.77e-3, 3.18e-3, 2.53e-3, 2.74e-3]
    assert [tables.SCATTER_FRACTION[90][mv] for mv in (6, 10, 18, 24)] == [4.26e-4, 3.81e-4, 1.89e-4, 1.74e-4]
    assert [tables.SCATTER_TVL_CONCRETE_CM[30][mv] for mv in (4, 6, 10, 15, 18, 20, 24)] == [25, 26, 28, 31, 32, 33,
                                                                                              36]
    assert [tables.SCATTER_TVL_CONCRETE_CM[135][mv] for mv in (4, 6, 10, 15, 18, 20, 24)] == [14, 15, 15, 15, 15,
                                                                                               15, 16]
    # every level-3 case has an entry in all three tables
    for mv in tables.SECONDARY_ENERGIES_MV:
        for angle in tables.SECONDARY_ANGLES_DEG:
            assert tables.SCATTER_FRACTION[angle][mv] > 0 and tables.SCATTER_TVL_CONCRETE_CM[angle][mv] > 0
        assert mv in tables.LEAKAGE_TVL_CONCRETE_CM


# --- equations, one worked example each ------------------------------------------------------------

def test_primary_barrier_single_tvl_by_hand():
    """NCRP 151 Eq. 2.1: B = 2e-5 x 6.0² / (480 x 1/4 x 1/40) = 2.400e-4; n = 3.620; t = 3.620 x 5.7 = 20.63 cm."""
    b = tables.primary_transmission(2e-5, 6.0, 480.0, 0.25, 1 / 40)
    assert b == pytest.approx(2.4e-4)
    assert tables.tvl_count(b) == pytest.approx(3.61979, abs=1e-5)
    assert GEN.level(1).solve(L1) == pytest.approx(20.6328, abs=1e-4)


def test_primary_concrete_uses_tvl1_then_tvle():
    """NCRP 151 Sec. 2.4: B = 2e-5 x 5.8² / (709/4/20) = 7.5915e-5, n = 4.1197, t = 35 + 3.1197 x 30 = 128.59 cm."""
    assert GEN.level(2).solve(L2) == pytest.approx(128.590, abs=1e-3)
    assert tables.thickness(2.5, 35.0, 30.0) == pytest.approx(35.0 + 1.5 * 30.0)


def test_leakage_and_patient_scatter_transmissions_of_the_seed_example():
    """NCRP 151 Eqs. 2.8 and 2.7: B_L = 2e-5 x 4.3² / (1e-3 x 370 / 40) = 0.039978;
    B_PS = 2e-5 x 1² x 4.3² x 400 / (8.24e-4 x 370 / 40 x 1225) = 0.015842."""
    b_l = tables.leakage_transmission(2e-5, 4.3, 370.0, 1 / 40)
    b_ps = tables.patient_scatter_transmission(2e-5, 1.0, 4.3, 8.24e-4, 370.0, 1 / 40, 1225.0)
    assert b_l == pytest.approx(0.0399784, rel=1e-5)
    assert b_ps == pytest.approx(0.0158424, rel=1e-5)
    n_l, t_l, n_s, t_s = ncrp151.components_l3(SEED_L3)
    assert t_l == pytest.approx(34 + (n_l - 1) * 29) and t_l == pytest.approx(45.547, abs=1e-3)
    assert t_s == pytest.approx(n_s * 21) and t_s == pytest.approx(37.804, abs=1e-3)


def test_two_source_rule_adds_the_leakage_hvl_even_when_scatter_governs():
    """v1.1 correction (seed 000 Sec. 4.2): the added HVL is 0.301 TVLe of the leakage radiation."""
    assert tables.two_source(40.0, 50.0, 29.0) == pytest.approx(50.0 + 0.301 * 29.0)
    assert tables.two_source(80.0, 50.0, 29.0) == 80.0  # differ by >= one TVLe: the larger suffices
    ref = GEN.level(3).solve(SCATTER_L3)
    _, t_l, _, t_s = ncrp151.components_l3(SCATTER_L3)
    assert t_s > t_l and t_s - t_l < 29.0
    assert ref == pytest.approx(t_s + 0.301 * 29.0)
    assert abs(ref - (t_s + 0.301 * 26.0)) > 0.005 * ref  # not the v1.0 rule (HVL of the scatter TVL)


def test_seed_result_check_example_reproduces():
    """Seed 000 result-check example: 54.28 cm; 45.54 cm without the added HVL (leakage governs here,
    so the v1.0 and v1.1 rules agree)."""
    assert GEN.level(3).solve(SEED_L3) == pytest.approx(54.276, abs=1e-3)
    assert round(GEN.level(3).solve(SEED_L3), 2) == 54.28
    assert _answer("no_added_hvl", 3, SEED_L3) == pytest.approx(45.54, abs=0.01)
    sheet = Sheet(display=True)
    assert float(ncrp151.secondary_chain(SEED_L3, sheet, "no_added_hvl")) == 45.54
    sheet = Sheet(display=True)
    assert float(ncrp151.secondary_chain(SEED_L3, sheet)) == 54.27  # 45.54 + 8.729 from the shown values


def test_level3_prompt_states_the_v11_rule_and_u_equal_one():
    text = GEN.level(3).prompt(SEED_L3)
    assert "U = 1 for both leakage and patient scatter" in text
    assert "0.301 × TVLe (leakage)" in text and "one leakage TVLe" in text
    for printed in ("370 Gy/week", "T: 1/40", "0.02 mSv/week", "4.3 m", "1225 cm²", "60°", "8.24 × 10^-4",
                    "| 34 cm |", "| 29 cm |", "| 21 cm |", "0.1%"):
        assert printed in text, printed


# --- error modes: direction on hand-checked draws ---------------------------------------------------

@pytest.mark.parametrize("mode,level,p,direction", [
    ("distance_not_squared", 1, L1, +1),  # d < d² (d > 1 m): smaller B, more TVLs
    ("natural_log", 1, L1, +1),  # ln(1/B) = 2.303 log10(1/B)
    ("t_omitted", 1, L1, +1),  # T = 1 instead of 1/40: smaller B
    ("u_omitted", 1, L1, +1),  # U = 1 instead of 1/4: smaller B
    ("distance_not_squared", 2, L2, +1),
    ("natural_log", 2, L2, +1),
    ("t_omitted", 2, L2, +1),
    ("u_omitted", 2, L2, +1),
    ("goal_msv_as_sv", 2, L2, -1),  # P 1000 x too large: three TVLs fewer
    ("tvle_first", 2, L2, -1),  # TVLe (30 cm) < TVL1 (35 cm)
    ("distance_not_squared", 3, SEED_L3, +1),
    ("natural_log", 3, SEED_L3, +1),
    ("t_omitted", 3, SEED_L3, +1),
    ("goal_msv_as_sv", 3, SEED_L3, -1),
    ("tvle_first", 3, SEED_L3, -1),  # leakage governs: 29 cm instead of 34 cm for the first TVL
    ("leak_fraction_omitted", 3, SEED_L3, +1),  # B_L 1000 x smaller: three more leakage TVLs
    ("f400_omitted", 3, SCATTER_L3, -1),  # F = 1600 cm²: B_PS 4 x too large while scatter governs
    ("no_added_hvl", 3, SEED_L3, -1),
    ("no_added_hvl", 3, SCATTER_L3, -1),
    ("u_quarter", 3, SEED_L3, -1),  # U = 1/4: both transmissions 4 x larger
])
def test_error_mode_moves_answer_in_the_stated_direction(mode, level, p, direction):
    ref = GEN.level(level).solve(p)
    wrong = _answer(mode, level, p)
    assert (wrong - ref) * direction > 0.01 * ref


def test_modes_that_do_not_apply_leave_the_answer_unchanged():
    """T omitted is n/a when T = 1; F/400 omitted changes nothing while leakage governs by far."""
    p = ncrp151.PrimaryConcrete(6, 37.0, 33.0, 500.0, 4, 1, "an office", False, 0.02, 6.0)
    assert _answer("t_omitted", 2, p) == pytest.approx(GEN.level(2).solve(p))
    f400 = ncrp151.SecondaryBarrier(6, 370.0, 4, 40, "a stairway", False, 0.02, 4.3, 1.0, 1e-3, 400.0, 60, 8.24e-4,
                                    34.0, 29.0, 21.0)
    assert _answer("f400_omitted", 3, f400) == pytest.approx(GEN.level(3).solve(f400))


# --- worksheets ---------------------------------------------------------------------------------

def test_worksheet_shows_formula_numbers_and_result():
    sheet = Sheet(display=True)
    ncrp151.primary_chain(L2, sheet)
    text = sheet.render()
    assert "B = P × d² / (W × U × T) = (0.02 × 10^-3) Sv/week × (5.8 m)² / (709 Gy/week × 1/4 × 1/20)" in text
    assert text.endswith("= 128.60 cm")


def test_correct_worksheets_vary_in_length_at_every_level():
    for level in (1, 2, 3):
        spec = GEN.level(level)
        p = draw(GEN, level, 7)
        counts = {len(_sheet(spec, p, v).steps) for v in range(16)}
        assert len(counts) >= 2, (level, counts)


def _words(text: str) -> set[str]:
    return {w.strip(",:;().") for w in text.split()}


def _sheet(spec, p, variant, mode=None):
    sheet = Sheet(display=True, variant=variant)
    spec.worksheet(p, sheet, mode)
    return sheet


def test_planted_errors_are_localised_at_the_step_they_change():
    """A planted mode changes its own step (matched by key): T omitted first shows in a transmission step."""
    spec = GEN.level(3)
    for variant in range(6):
        correct = _sheet(spec, SEED_L3, variant)
        planted = _sheet(spec, SEED_L3, variant, "t_omitted")
        step = first_difference(correct.steps, planted.steps)
        assert step is not None
        assert planted.steps[step - 1].key in ("b_leak", "b_scatter")
        hvl = _sheet(spec, SEED_L3, variant, "no_added_hvl")
        assert hvl.steps[first_difference(correct.steps, hvl.steps) - 1].key == "t"


def test_no_word_appears_only_in_planted_worksheets():
    """Structural cue check (seed 000, "Structural cues"): over public draws, every word of a planted
    sheet also appears in some correct sheet of the same cell (words of the inputs aside)."""
    for level in (1, 2, 3):
        spec = GEN.level(level)
        correct_words: set[str] = set()
        planted_words: set[str] = set()
        input_words: set[str] = set()
        for seed in range(40):
            p = draw(GEN, level, seed)
            input_words |= _words(spec.prompt(p))
            ref = spec.solve(p)
            for variant in (seed, seed + 100):
                correct_words |= _words(_sheet(spec, p, variant).render())
                for m in GEN.modes_at(level):
                    if abs(m.answer(level, p) - ref) > GEN.band * ref:
                        planted_words |= _words(_sheet(spec, p, variant + 1, m.name).render())
        only = {w for w in planted_words - correct_words - input_words if not any(c.isdigit() for c in w)}
        assert not only, (level, sorted(only))


def test_every_mode_worksheet_agrees_with_its_exact_answer_on_public_draws():
    for level in (1, 2, 3):
        spec = GEN.level(level)
        for seed in range(30):
            p = draw(GEN, level, seed)
            for m in GEN.modes_at(level):
                exact = m.answer(level, p)
                shown = float(spec.worksheet(p, Sheet(display=True, variant=seed), m.name))
                assert math.isfinite(shown)
                assert abs(shown - exact) <= 0.005 * max(exact, 1.0), (level, seed, m.name, shown, exact)
