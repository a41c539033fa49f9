"""Formula versions (issue 35, item 1): `benchmark` (the default: what the dataset's calculators compute,
each deviation a named erratum) and `clinical`; arms, formula texts and the library follow the chosen one,
the run manifest records it, and `clincalc audit` explains every difference between them by erratum name."""

from __future__ import annotations

import json

import pytest

from physbench.core.errors import UserError
from physbench.suites.clincalc.calculators import compute
from physbench.suites.clincalc.dataset import load_one_shot
from physbench.suites.clincalc.formulas import formula_text
from physbench.suites.clincalc.library import gold_answer
from physbench.suites.clincalc.suite import SUITE
from physbench.suites.clincalc.synth import synth_rows
from physbench.suites.clincalc.version_audit import compare, explaining_errata

ROWS = load_one_shot().rows


def test_the_default_is_benchmark_and_clinical_follows_the_guideline():
    heart = {"age": [50, "years"], "atherosclerotic disease": True}  # 1 age point + the risk-factor item
    assert compute(18, heart) == compute(18, heart, "benchmark") == 2  # one factor: 1 point
    assert compute(18, heart, "clinical") == 3                          # atherosclerosis alone: 2 points
    with pytest.raises(ValueError, match="unknown formula version"):
        compute(18, heart, "guideline")


def test_benchmark_formulas_reproduce_every_one_shot_gold():
    assert [gold_answer(r, formulas="benchmark")[1] for r in ROWS].count("correct") == 55


def test_every_difference_between_the_versions_on_synthetic_cases_is_named_by_an_erratum():
    report = compare(synth_rows(per_calculator=12, seed=7))
    data = report.to_json()
    assert data["n_differ"] > 20                      # the versions do differ on these cases
    assert data["n_unexplained"] == 0, [d for d in data["differences"] if not d["explained"]][:3]
    assert {"heart-atherosclerotic-disease", "apache-chronic-health-unread"} <= set(data["by_erratum"])


def test_an_erratum_that_changes_nothing_is_not_named():
    woman = {"age": [60, "years"], "sex": "Female", "creatinine": [0.6, "mg/dL"]}
    assert explaining_errata(3, woman) == []


def _prompt(formulas: str | None) -> str:
    options = {} if formulas is None else {"formulas": formulas}
    items = SUITE.items("dev", arm="open-book-arithmetic", limit=60, **options)
    pugh = next(i for i in items if i.reference["calc_id"] == 15)
    return pugh.messages[1].content


def test_formula_texts_in_the_prompts_follow_the_version():
    default, clinical = _prompt(None), _prompt("clinical")
    assert "548.66" in default and "As the benchmark computes it" in default
    assert "548.66" not in clinical and "As the benchmark computes it" not in clinical
    assert formula_text(15, "clinical") in clinical


def test_the_version_is_recorded_for_the_manifest_and_a_bad_one_refused():
    SUITE.items("dev", arm="gold-solve-library", limit=2, formulas="clinical")
    assert SUITE.data_source()["formulas"] == "clinical"
    SUITE.items("dev", arm="gold-solve-library", limit=2)
    assert SUITE.data_source()["formulas"] == "benchmark"
    with pytest.raises(UserError, match="formula version"):
        SUITE.items("dev", formulas="nice")


def test_clincalc_audit_compares_both_versions():
    from typer.testing import CliRunner

    from physbench.suites.clincalc.cli import clincalc_app

    result = CliRunner().invoke(clincalc_app, ["audit", "--data", "one-shot", "--formulas", "clinical", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["formulas"] == "clinical" and data["versions"]["n_rows"] == 55
    assert all(d["errata"] for d in data["versions"]["differences"])
    bad = CliRunner().invoke(clincalc_app, ["audit", "--data", "one-shot", "--formulas", "x"])
    assert bad.exit_code != 0
