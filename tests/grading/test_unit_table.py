"""The unit table remembers pint's answers: grading from it is exactly grading with pint, and needs no pint."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from physbench.core import caches
from physbench.grading import unit_table

# answers and references in the medphys units, converted, misspelt and wrong (one each per line)
CASES = [
    ("The dose is \\boxed{152.3 cGy}.", {"value": 1.523, "unit": "Gy"}),
    ("Output: \\boxed{1.018\\ \\text{cGy/MU}}", {"value": 1.018, "unit": "cGy/MU"}),
    ("Answer: 0.25 mSv", {"value": 250.0, "unit": "mrem"}),
    ("So the activity is \\boxed{37 MBq}", {"value": 1.0, "unit": "mCi"}),
    ("\\boxed{2.1 Gy}", {"value": 2.1, "unit": "Sv"}),
    ("Final answer: 45 minutes", {"value": 0.75, "unit": "h"}),
    ("\\boxed{12 furlongs}", {"value": 12.0, "unit": "cm"}),
    ("\\boxed{98.7%}", {"value": 0.987, "unit": ""}),
    ("thickness = 1.2 m of concrete, i.e. \\boxed{120 cm}", {"value": 120.0, "unit": "cm"}),
]

SCRIPT = """
import json, sys
from physbench.grading import grade_calculation
cases = json.loads(sys.argv[1])
grades = [grade_calculation(text, (ref["value"], ref["unit"]), 0.01) for text, ref in cases]
print(json.dumps({"grades": [[g.outcome, g.passed, g.score, g.value, g.unit, g.rel_error] for g in grades],
                  "pint": "pint" in sys.modules}))
"""


def _grade_in_a_new_process(cache: Path, enabled: bool = True) -> dict:
    env = dict(os.environ, **{caches.CACHE_DIR_ENV: str(cache), caches.CACHE_ENV: "1" if enabled else "0"})
    src = str(Path(unit_table.__file__).resolve().parents[2])
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(CASES)], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def test_a_remembered_table_grades_as_pint_does_without_importing_pint(tmp_path: Path) -> None:
    with_pint = _grade_in_a_new_process(tmp_path / "off", enabled=False)
    learning = _grade_in_a_new_process(tmp_path / "cache")  # asks pint, saves its answers at exit
    remembered = _grade_in_a_new_process(tmp_path / "cache")
    assert with_pint["pint"] and learning["pint"] and not remembered["pint"]
    assert remembered["grades"] == learning["grades"] == with_pint["grades"]
    assert [g[1] for g in with_pint["grades"]].count(True) >= 5  # the cases do exercise conversions
    assert not (tmp_path / "off").exists()


def test_a_damaged_table_is_ignored_and_replaced(tmp_path: Path) -> None:
    _grade_in_a_new_process(tmp_path)
    (entry,) = tmp_path.glob(f"{unit_table.NAME}-*.json")
    good = json.loads(entry.read_text())
    damaged = dict(good, data=dict(good["data"], factors={"centigray\\u0000gray": "0.01"}))  # a string, not a float
    entry.write_text(json.dumps(damaged))
    again = _grade_in_a_new_process(tmp_path)
    assert again["pint"]  # the damaged table was not used
    assert json.loads(entry.read_text())["data"]["factors"] == good["data"]["factors"]


def test_decode_refuses_values_of_the_wrong_type() -> None:
    for bad in ({"words": {}, "dimensionless": {}}, {"words": {"Gy": 3}, "dimensionless": {}, "factors": {}},
                {"words": {}, "dimensionless": {"": 1}, "factors": {}},
                {"words": {}, "dimensionless": {}, "factors": {"a\\0b": float("nan")}}):
        try:
            unit_table.UnitTable.decode(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad}")
    table = unit_table.UnitTable.decode({"words": {"Gy": "gray", "xyz": None}, "dimensionless": {"": True},
                                         "factors": {"a\\0b": 0.5, "a\\0c": None}})
    assert table.get("words", "xyz", "missing") is None and table.get("words", "abc", "missing") == "missing"
