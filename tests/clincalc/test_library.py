"""The validated library: all 55 calculators, each reproducing the shipped one-shot rows' gold
answers from their gold variables (003_* Table 1, Gold-Solve library), each formula text stating
the constants its function uses, and the audit groups of Tables 11-13."""

from __future__ import annotations

import datetime as dt

import pytest

from physbench.suites.clincalc.audit import audit
from physbench.suites.clincalc.calculators import CALCULATORS, KINDS, compute
from physbench.suites.clincalc.dataset import load_one_shot
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.formula_audit import GROUPS, calculators_in
from physbench.suites.clincalc.formulas import missing_constants
from physbench.suites.clincalc.library import gold_answer, library_answer, library_subset

ROWS = load_one_shot().rows


def test_the_library_has_all_55_calculators_each_with_a_kind_and_a_source():
    assert len(CALCULATORS) == 55
    assert all(c.kind in KINDS and c.source.strip() for c in CALCULATORS.values())


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"calc{r.calculator_id}")
def test_each_one_shot_row_is_reproduced_from_its_gold_variables(row):
    answer, outcome = gold_answer(row)
    assert outcome == "correct", (row.calculator_id, answer, row.ground_truth, row.lower_limit, row.upper_limit)


def test_the_one_shot_rows_cover_every_calculator_once():
    assert sorted(r.calculator_id for r in ROWS) == sorted(CALCULATORS)


def test_the_audit_of_the_one_shot_split_finds_no_disagreement():
    report = audit(ROWS, "one-shot")
    assert (report.n_rows, report.n_agree, report.n_disagree) == (55, 55, 0)


def test_a_wrong_variable_changes_the_answer():
    bmi = compute(6, {"weight": [68.0, "kg"], "height": [182.0, "cm"]})
    assert bmi == pytest.approx(68.0 / 1.82 ** 2)  # BMI = kg / m^2
    assert compute(6, {"weight": [150.0, "lbs"], "height": [182.0, "cm"]}) == pytest.approx(150 * 0.45359237 / 1.82 ** 2)


def test_unusable_variables_make_the_library_abstain_not_raise():
    for entities in ({}, {"weight": "heavy", "height": [182.0, "cm"]}, {"weight": [68.0, "parsecs"], "height": [1, "m"]}):
        value, why = library_answer(6, entities)
        assert value is None and why
    with pytest.raises(EntityError):
        compute(6, {"weight": [68.0, "kg"]})


def test_a_subset_library_abstains_outside_its_calculators():
    subset = library_subset([2, 3])
    row = next(r for r in ROWS if r.calculator_id == 6)
    assert gold_answer(row, subset) == (None, "abstained")
    with pytest.raises(Exception, match="not a MedCalc-Bench Verified calculator"):
        library_subset([999])


def test_date_and_gestational_age_answers_have_their_types():
    kinds = {CALCULATORS[r.calculator_id].kind: gold_answer(r)[0] for r in ROWS}
    assert isinstance(kinds["date"], dt.date) and isinstance(kinds["gestational_age"], tuple)


def test_every_formula_text_states_the_constants_its_function_uses():
    assert {c: missing_constants(c) for c in CALCULATORS if missing_constants(c)} == {}


def test_the_audit_groups_match_tables_11_to_13():
    assert {g: len(calculators_in(g)) for g in GROUPS} == {"replaced": 4, "other_concern": 12, "no_issue": 39}
