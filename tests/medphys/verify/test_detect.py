"""Error-mode detectability over the draws where a mode applies (seed 000, Table 6 and Figure 5)."""

from __future__ import annotations

import dataclasses

import pytest

from physbench.suites.medphys.base import ErrorMode

from physbench.suites.medphys.generators import LEVELS, available_generators, get_generator
from physbench.suites.medphys.verify.detect import detectability, size_groups
from physbench.suites.medphys.verify.differences import NOTABLE, reason
from physbench.suites.medphys.verify.paper_table6 import TABLE6, paper_share


@pytest.fixture(scope="module")
def rows():
    return [r for g in available_generators() for level in LEVELS for r in detectability(g, level, 200)]


def _row(rows, generator, mode, level):
    return next(r for r in rows if (r["generator"], r["mode"], r["level"]) == (generator, mode, level))


def test_a_mode_that_cannot_apply_is_not_counted_as_undetected(rows):
    """T omitted changes nothing where T = 1, and a mu-based slip nothing on an item that prints the HVL:
    those draws are left out, so the seed's 100% reproduces; applicability says how often it applies."""
    for generator, mode, level in (("ncrp151", "t_omitted", 1), ("hvl", "mu_cm_with_mm", 1),
                                   ("mird", "days_as_hours", 1), ("ncrp147", "u_omitted", 2)):
        r = _row(rows, generator, mode, level)
        assert 0.1 < r["applicability"] < 0.9, r
        assert r["detected"] == 1.0 and r["detected_all_draws"] == pytest.approx(r["applicability"])
        assert r["applicable"] == round(r["applicability"] * r["draws"])


def test_a_mode_that_applies_but_stays_inside_the_band_counts_as_undetected(rows):
    """P_pol omitted changes every level-3 TG-51 answer by about 0.15%, inside the 0.5% band (seed: 0%)."""
    r = _row(rows, "tg51", "ppol_omitted", 3)
    assert r["applicability"] > 0.95 and r["detected"] == 0.0


def test_every_mode_level_combination_of_the_seed_is_measured(rows):
    """97 modes, 180 combinations; each has the seed's Table 6 value at exactly the levels where ours applies."""
    assert len({(r["generator"], r["mode"]) for r in rows}) == len(TABLE6) == 97
    assert len(rows) == 180
    for g in available_generators():
        for m in g.error_modes:
            seed_levels = {lv for lv in LEVELS if paper_share(g.name, m.name, lv) is not None}
            assert seed_levels == set(m.levels), (g.name, m.name)


def test_the_seeds_finding_by_error_size_reproduces(rows):
    """Seed 000: the combinations whose median effect is at least twice the band were rejected in 71-100%
    of draws; those whose median effect is below the band in at most 48%."""
    groups = size_groups(rows)
    assert groups["at_least_twice_band"]["n"] >= 140 and groups["at_least_twice_band"]["min_detected"] >= 0.71
    assert groups["below_band"]["n"] >= 15 and groups["below_band"]["max_detected"] <= 0.55
    assert groups["never_applicable"]["n"] == 0


def test_every_notable_difference_from_the_seed_has_a_recorded_reason(rows):
    for r in rows:
        seed = paper_share(r["generator"], r["mode"], r["level"])
        if seed is not None and abs(r["detected"] - seed) > NOTABLE + 0.05:  # 200 draws: a little noisier
            assert reason(r["generator"], r["mode"], r["level"], r), (r["generator"], r["mode"], r["level"])


def test_a_mode_that_never_changes_the_answer_has_no_detectability():
    """A mode whose answer is always the reference applies nowhere: detected is None, not 0%."""
    gen = get_generator("mu")
    spec = gen.level(1)
    idle = ErrorMode("idle", "changes nothing", "conceptual", (1,), lambda level, p: spec.solve(p))
    fake = dataclasses.replace(gen, error_modes=(idle,))
    (row,) = detectability(fake, 1, 5)
    assert row["applicable"] == 0 and row["detected"] is None and row["median_effect"] is None
    assert size_groups([row])["never_applicable"]["n"] == 1
