"""Formulate-Solve tree evaluator: exact values, abstention reasons, bounds, and hostile replies (seed 003 A.1).

The clincalc package's `__init__.py` comes from another branch; until then `physbench.suites.clincalc`
imports as an implicit namespace package (as `physbench.suites` itself does), so no path hack is needed.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.clincalc.tree import (
    ABSTAIN_REASONS, MAX_DEPTH, MAX_NODES, OPERATORS, REPLY_SCHEMA, describe, evaluate_reply, evaluate_tree,
)


def op(name, *args):
    return {"op": name, "args": list(args)}


def var(name):
    return {"var": name}


MAP_REPLY = {
    "calculation": "Mean Arterial Pressure", "formula": "MAP = (2 * DBP + SBP) / 3",
    "variables": {"sbp": 120, "dbp": 75}, "missing": [],
    "tree": op("/", op("+", op("*", 2, var("dbp")), var("sbp")), 3),
}


def test_mean_arterial_pressure_from_a_fenced_reply_is_exact():
    """MAP = (2 x 75 + 120) / 3 = 90 mmHg, read from a reply that wraps the JSON in prose and a fence."""
    text = "Here is my answer.\n```json\n" + json.dumps(MAP_REPLY) + "\n```\nDone."
    result = evaluate_reply(text)
    assert (result.value, result.exact, result.abstain) == (Fraction(90), True, None)
    assert result.calculation == "Mean Arterial Pressure" and result.formula.startswith("MAP")
    assert evaluate_reply(json.dumps(MAP_REPLY)).value == 90
    assert evaluate_reply("The object: " + json.dumps(MAP_REPLY) + " -- that is all.").value == 90
    assert evaluate_reply(MAP_REPLY).value == 90          # already parsed (structured output)


def test_decimals_are_read_digit_for_digit_so_sums_are_exact():
    """0.1 + 0.2 is exactly 3/10 (binary floats would give 0.30000000000000004)."""
    assert evaluate_reply('{"tree": {"op": "+", "args": [0.1, 0.2]}}').value == Fraction(3, 10)
    assert evaluate_tree(op("+", 0.1, 0.2)).value == Fraction(3, 10)        # Python floats: their decimal
    assert evaluate_tree(op("*", 1.5e3, 2)).value == 3000


def test_bmi_and_anion_gap_worked_examples():
    """BMI = 70 kg / (1.75 m)^2 = 22.857142...; albumin-free anion gap = Na - (Cl + HCO3) = 140 - (104 + 24) = 12."""
    bmi = evaluate_tree(op("/", var("w"), op("pow", var("h"), 2)), {"w": 70, "h": 1.75})
    assert bmi.value == Fraction(70) / Fraction(7, 4) ** 2 and bmi.exact
    gap = evaluate_tree(op("-", var("na"), op("+", var("cl"), var("hco3"))), {"na": 140, "cl": 104, "hco3": 24})
    assert gap.value == 12


def test_roots_powers_and_logarithms_are_exact_when_the_result_is_rational():
    assert evaluate_tree(op("sqrt", 2.25)).value == Fraction(3, 2)
    assert evaluate_tree(op("pow", 8, op("/", 2, 3))).value == 4
    assert evaluate_tree(op("pow", 2, -3)).value == Fraction(1, 8)
    assert evaluate_tree(op("log10", 0.001)).value == -3
    assert evaluate_tree(op("ln", 1)).value == 0 and evaluate_tree(op("exp", 0)).value == 1
    assert all(evaluate_tree(t).exact for t in (op("sqrt", 2.25), op("pow", 8, op("/", 2, 3)), op("log10", 1000)))


def test_irrational_results_carry_fifty_digits_and_are_marked_inexact():
    """Mosteller BSA = sqrt(180 cm x 80 kg / 3600) = sqrt(4) = 2 m^2 exactly; sqrt(2) and ln(2) are not rational."""
    assert evaluate_tree(op("sqrt", op("/", op("*", 180, 80), 3600))).value == 2
    root2 = evaluate_tree(op("sqrt", 2))
    assert root2.exact is False and abs(root2.value - Fraction("1.4142135623730950488016887242096980785696718753769")) < Fraction(1, 10**48)
    ln2 = evaluate_tree(op("ln", 2))
    assert not ln2.exact and math.isclose(ln2.number, math.log(2), rel_tol=1e-15)
    assert evaluate_tree(op("round", op("sqrt", 2), 2)).value == Fraction(141, 100)
    assert math.isclose(evaluate_tree(op("pow", 0.9938, 40)).number, 0.9938**40, rel_tol=1e-14)
    assert math.isclose(evaluate_tree(op("pow", 1.2, -0.411)).number, 1.2**-0.411, rel_tol=1e-14)


def test_products_of_many_inexact_values_are_cut_to_fifty_digits_not_refused():
    """sqrt(2)^80 = 2^40: eighty 50-digit factors would need thousands of digits exactly; once the value
    is inexact it is carried at 50 significant digits instead of abstaining."""
    result = evaluate_tree(op("*", *[op("sqrt", 2)] * 80))
    assert result.abstain is None and not result.exact
    assert abs(result.value - 2**40) < Fraction(1, 10**30)


def test_comparisons_and_conditionals_score_a_banded_item():
    """CURB-65 style points: (age >= 65) + (urea > 7) + (rr >= 30) for age 70, urea 5, rr 32 -> 2;
    and a band: 3 points if creatinine >= 2 else 1 if creatinine >= 1.2 else 0."""
    points = op("+", op(">=", var("age"), 65), op(">", var("urea"), 7), op(">=", var("rr"), 30))
    assert evaluate_tree(points, {"age": 70, "urea": 5, "rr": 32}).value == 2
    band = op("if", op(">=", var("cr"), 2), 3, op("if", op(">=", var("cr"), 1.2), 1, 0))
    assert [evaluate_tree(band, {"cr": c}).value for c in (0.9, 1.2, 2.0)] == [0, 1, 3]
    assert evaluate_tree(op("and", 1, op("not", 0), op("or", 0, 2))).value == 1
    assert evaluate_tree(op("if", 0, op("/", 1, 0), 5)).value == 5          # only the branch taken runs
    assert evaluate_tree(op("max", 1, op("min", 4, 9), -2)).value == 4


def test_round_is_half_away_from_zero():
    assert [evaluate_tree(op("round", x)).value for x in (2.5, -2.5, 0.49)] == [3, -3, 0]
    assert evaluate_tree(op("round", -2.345, 2)).value == Fraction(-47, 20)
    assert evaluate_tree(op("round", 1.5, 0.5)).abstain == "evaluation_error"


def test_a_variable_listed_as_missing_makes_the_arm_abstain():
    """Seed 003 A.1: the arm abstains when a referenced variable is listed as missing (null counts as listed)."""
    reply = {"variables": {"sbp": 120}, "missing": ["dbp"], "tree": MAP_REPLY["tree"]}
    assert evaluate_reply(reply).abstain == "missing_variable"
    reply = {"variables": {"sbp": 120, "dbp": None}, "tree": MAP_REPLY["tree"]}
    assert evaluate_reply(reply).abstain == "missing_variable"
    reply = {"variables": {"sbp": 120}, "tree": MAP_REPLY["tree"]}
    result = evaluate_reply(reply)
    assert result.abstain == "undefined_variable" and "dbp" in result.detail
    assert evaluate_tree(var("a"), {"a": float("nan")}).abstain == "invalid_variables"
    unused_missing = {"variables": {"sbp": 120, "dbp": 75}, "missing": ["weight"], "tree": MAP_REPLY["tree"]}
    assert evaluate_reply(unused_missing).value == 90


@pytest.mark.parametrize(
    "reply, reason",
    [
        ("I cannot compute this.", "not_json"),
        ("```json\n{not json}\n```", "not_json"),
        ("[1, 2, 3]", "not_json"),
        ('{"answer": 5}', "invalid_reply"),
        ('{"tree": 1, "tree": 2}', "invalid_reply"),
        ('{"tree": {"op": "sin", "args": [1]}}', "invalid_tree"),
        ('{"tree": {"op": "/", "args": [1]}}', "invalid_tree"),
        ('{"tree": {"op": "+", "args": 1}}', "invalid_tree"),
        ('{"tree": {"op": "+", "args": [1], "note": "x"}}', "invalid_tree"),
        ('{"tree": "sbp"}', "invalid_tree"),
        ('{"tree": true}', "invalid_tree"),
        ('{"tree": {"op": "+", "args": [NaN]}}', "invalid_tree"),
        ('{"tree": {"op": "+", "args": [Infinity]}}', "invalid_tree"),
        ('{"tree": {"var": ""}}', "invalid_tree"),
        ('{"variables": [1, 2], "tree": 1}', "invalid_variables"),
        ('{"variables": {"a": "5"}, "tree": 1}', "invalid_variables"),
        ('{"missing": "a", "tree": 1}', "invalid_variables"),
        ('{"tree": {"op": "/", "args": [1, 0]}}', "evaluation_error"),
        ('{"tree": {"op": "ln", "args": [0]}}', "evaluation_error"),
        ('{"tree": {"op": "sqrt", "args": [-4]}}', "evaluation_error"),
        ('{"tree": {"op": "pow", "args": [0, -1]}}', "evaluation_error"),
        ('{"tree": {"op": "exp", "args": [100000]}}', "evaluation_error"),
        ('{"tree": 1e999999999}', "too_large"),
        ('{"tree": {"op": "pow", "args": [10, 100000]}}', "too_large"),
    ],
)
def test_each_failure_has_its_abstention_reason(reply, reason):
    result = evaluate_reply(reply)
    assert (result.value, result.abstain) == (None, reason), result.detail
    assert result.abstain in ABSTAIN_REASONS and result.detail


def test_size_depth_and_time_are_bounded():
    deep = 1
    for _ in range(MAX_DEPTH + 5):
        deep = op("-", deep)
    assert evaluate_tree(deep).abstain == "too_large"
    wide = op("+", *([1] * (MAX_NODES + 1)))
    assert evaluate_tree(wide).abstain == "too_large"
    assert evaluate_reply("{" * 50_000).abstain == "too_large"
    assert evaluate_reply('{"tree": ' + "[" * 5000 + "]" * 5000 + "}").abstain == "too_large"
    shared = 2
    for _ in range(40):                                  # one object used twice per level: 2^41 nodes
        shared = op("*", shared, shared)
    assert evaluate_tree(shared).abstain == "too_large"
    assert evaluate_tree(op("*", *([10**300] * 20))).abstain == "too_large"   # bounded step by step
    assert evaluate_tree(op("pow", 3, 20_000)).abstain == "too_large"
    slow = op("+", *[op("ln", k + 2) for k in range(1000)])
    assert evaluate_tree(slow, time_limit=0.0).abstain == "timeout"


def test_schema_and_prompt_text_name_exactly_the_operators_the_evaluator_knows():
    node_ops = REPLY_SCHEMA["$defs"]["node"]["oneOf"][-1]["properties"]["op"]["enum"]
    assert node_ops == list(OPERATORS)
    json.dumps(REPLY_SCHEMA)                              # plain JSON, ready for a prompt or a structured-output API
    text = describe()
    assert all(f"  {name} (" in text for name in OPERATORS)
    for name, (low, high, _) in OPERATORS.items():        # the documented arity is the enforced one
        assert evaluate_tree(op(name, *([1] * (low - 1)))).abstain == "invalid_tree"
        if high is not None:
            assert evaluate_tree(op(name, *([1] * (high + 1)))).abstain == "invalid_tree"


json_leaf = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                      st.booleans(), st.none())
json_values = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["op", "args", "var", "tree", "variables", "missing", "x"]), inner, max_size=4),
        st.builds(lambda o, a: {"op": o, "args": a}, st.sampled_from(list(OPERATORS)), st.lists(inner, max_size=4)),
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.dictionaries(st.sampled_from(["a", "b", "x"]), json_leaf, max_size=3))
def test_never_raises_on_any_tree_or_variables(tree, variables):
    result = evaluate_reply({"tree": tree, "variables": variables})
    assert (result.value is None) == (result.abstain is not None)
    assert result.abstain is None or result.abstain in ABSTAIN_REASONS


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(text):
    result = evaluate_reply(text)
    assert result.abstain is None or result.abstain in ABSTAIN_REASONS
