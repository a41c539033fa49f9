"""Problem files: the shipped set loads, every fault names its file and field, and the reference
solutions reproduce every stored answer."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest
import sympy as sp

from physbench.core.errors import UserError
from physbench.suites.research.answers import (BooleanAnswer, IntegerAnswer, NumericAnswer,
                                               SymbolicAnswer)
from physbench.suites.research.compare import numbers_close
from physbench.suites.research.problem import load_problem, load_set, shipped_dir

SHIPPED = sorted(shipped_dir().glob("*.json"))


def _good() -> dict:
    return json.loads(SHIPPED[0].read_text())


def _write(tmp_path: Path, data) -> Path:
    p = tmp_path / "case.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


def test_the_shipped_set_loads_with_unique_ids_and_two_to_four_checkpoints():
    problems = load_set()
    assert problems and len({p.id for p in problems}) == len(problems)
    assert all(2 <= len(p.checkpoints) <= 4 for p in problems)


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.pop("setup"), "setup: is required"),
    (lambda d: d["checkpoints"][1]["answer"].update(type="vector"), "checkpoints[1].answer.type"),
    (lambda d: d["challenge"].update(template="import os\ndef answer(p):\n    ...\n"), "challenge.template"),
    (lambda d: d["challenge"]["answer"].update(expr="__import__('os')"), "challenge.answer.expr"),
    (lambda d: d["checkpoints"][0].update(id="checkpoint-7"), "checkpoints[0].id"),
    (lambda d: d.update(checkpoints=d["checkpoints"][:1]), "checkpoints"),
    (lambda d: d["challenge"].update(limits={"wall_s": 1e9}), "challenge.limits.wall_s"),
    (lambda d: d.update(extra_field=1), "unknown field 'extra_field'"),
])
def test_a_fault_is_one_line_naming_the_file_and_the_field(tmp_path, mutate, field):
    d = _good()
    mutate(d)
    with pytest.raises(UserError) as err:
        load_problem(_write(tmp_path, d))
    message = str(err.value)
    assert message.startswith("case.json: ") and field in message and "\n" not in message


@pytest.mark.parametrize("raw", ["", "{", "[1, 2]", "\"text\"", "[" * 100_000])
def test_malformed_json_is_a_user_error_not_a_crash(tmp_path, raw):
    with pytest.raises(UserError, match="^case.json: "):
        load_problem(_write(tmp_path, raw))


def _solution(problem_file: Path):
    path = problem_file.with_name(problem_file.stem + ".solution.py")
    spec = importlib.util.spec_from_file_location(f"sol_{problem_file.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _matches(answer, value) -> bool:
    if isinstance(answer, SymbolicAnswer):
        syms = {n: sp.Symbol(n) for n in answer.symbols.args}
        expected = sp.sympify(answer.expr, locals=syms)
        return sp.simplify(sp.sympify(value) - expected) == 0
    if isinstance(answer, NumericAnswer):
        return numbers_close(complex(value), answer.value, answer.rtol, answer.atol)
    if isinstance(answer, (IntegerAnswer, BooleanAnswer)):
        return type(value) is type(answer.value) and value == answer.value
    raise AssertionError(f"no check written for {answer.type}")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_reference_solution_computes_every_stored_answer(path):
    problem = load_problem(path)
    solution = _solution(path)
    for step in (problem.challenge, *problem.checkpoints):
        value = getattr(solution, step.id.replace("-", "_"))()
        assert _matches(step.answer, value), f"{problem.id} {step.id}: {value!r}"


def test_a_wrong_stored_answer_is_caught_by_the_reference_check():
    problem = load_problem(SHIPPED[0])
    wrong = copy.replace(problem.checkpoints[1].answer, value=17) if hasattr(copy, "replace") else None
    if wrong is None:
        from dataclasses import replace
        wrong = replace(problem.checkpoints[1].answer, value=17)
    assert not _matches(wrong, _solution(SHIPPED[0]).checkpoint_2())
