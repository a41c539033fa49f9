"""`physbench clincalc synth`: 20 cases of each of the 55 calculators in the official schema, deterministic,
loading back through the dataset loader, and scored 1,100/1,100 by the gold-solve library."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter

import pytest

from physbench.suites.clincalc.calculators import CALCULATORS
from physbench.suites.clincalc.dataset import COLUMNS, load_csv, parse_entities
from physbench.suites.clincalc.library import gold_answer
from physbench.suites.clincalc.synth import draw_entities, gold_cells, synth_rows


@pytest.fixture(scope="module")
def synth_file(tmp_path_factory):
    from physbench.suites.clincalc.synth import write_synth

    path = tmp_path_factory.mktemp("synth") / "synth.csv"
    assert write_synth(str(path)) == 1100
    return path


def test_the_set_loads_back_with_twenty_cases_of_every_calculator(synth_file):
    ds = load_csv(synth_file)
    assert len(ds.rows) == 1100
    assert Counter(r.calculator_id for r in ds.rows) == {c: 20 for c in CALCULATORS}
    assert [r.row_number for r in ds.rows] == list(range(1, 1101))
    with open(synth_file, newline="", encoding="utf-8") as fh:
        assert tuple(csv.DictReader(fh).fieldnames or ()) == COLUMNS


def test_gold_solve_library_scores_every_synthetic_row(synth_file):
    outcomes = Counter(gold_answer(row)[1] for row in load_csv(synth_file).rows)
    assert outcomes == {"correct": 1100}


def test_relevant_entities_are_a_python_literal_that_the_note_states(synth_file):
    rows = load_csv(synth_file).rows
    for row in rows[::37]:
        assert parse_entities(row.entities_text, "row") == row.entities
        for name, value in row.entities.items():
            if name == "age":
                assert f"{value[0]}-year-old" in row.patient_note
            elif isinstance(value, list) and len(value) == 2 and not name.endswith("Per Day"):
                assert f"{value[0]} {value[1]}" in row.patient_note, (row.row_number, name)


def test_values_vary_across_cases_of_a_calculator(synth_file):
    rows = load_csv(synth_file).rows
    golds = {c: {r.ground_truth for r in rows if r.calculator_id == c} for c in CALCULATORS}
    # every continuous calculator gets many different answers; a score at least two
    assert all(len(golds[c]) >= 10 for c, calc in CALCULATORS.items() if calc.kind == "decimal")
    assert all(len(g) >= 2 for g in golds.values())


def test_the_same_seed_writes_the_same_rows_and_another_seed_does_not():
    first = [r.cells() for r in synth_rows(2, seed=7)]
    assert first == [r.cells() for r in synth_rows(2, seed=7)]
    assert first != [r.cells() for r in synth_rows(2, seed=8)]


def test_decimal_limits_are_the_five_percent_band_and_scores_are_exact():
    bmi, gcs = CALCULATORS[6], CALCULATORS[21]
    assert gold_cells(bmi, 20.0) == ("20", "19", "21")
    assert gold_cells(bmi, -2.0) == ("-2", "-2.1", "-1.9")
    assert gold_cells(gcs, 8) == ("8", "8", "8")


def test_diastolic_pressure_is_drawn_below_systolic(synth_file):
    for row in load_csv(synth_file).rows:
        sbp, dbp = row.entities.get("Systolic Blood Pressure"), row.entities.get("Diastolic Blood Pressure")
        if sbp and dbp:
            assert dbp[0] <= sbp[0] - 20


def test_gestational_age_visits_follow_the_last_period():
    rng = random.Random(3)
    import datetime as dt
    for _ in range(50):
        e = draw_entities(CALCULATORS[69], rng)
        lmp, today = (dt.datetime.strptime(e[k], "%m/%d/%Y") for k in ("Last menstrual date", "Current Date"))
        assert 28 <= (today - lmp).days < 41 * 7


def test_synth_cli_writes_the_file_and_eval_gold_library_scores_all(cli, tmp_path):
    out = tmp_path / "s.csv"
    r = cli("clincalc", "synth", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rows"] == 1100
    r = cli("eval", "clincalc", "--option", f"data={out}", "--protocol", "gold-library", "--model", "oracle",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_done"], s["n_correct"]) == (1100, 1100)


def test_synth_into_a_missing_folder_is_one_line_and_writes_nothing(cli, tmp_path):
    out = tmp_path / "nowhere" / "s.csv"
    r = cli("clincalc", "synth", "--out", str(out))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()
    r = cli("clincalc", "synth", "--out", str(tmp_path / "s.csv"), "--per-calculator", "0")
    assert r.returncode == 2 and "per-calculator" in r.stderr and not (tmp_path / "s.csv").exists()


def test_a_parquet_set_holds_the_same_rows_as_the_csv(tmp_path):
    pytest.importorskip("pyarrow")
    from physbench.suites.clincalc.dataset import load_parquet
    from physbench.suites.clincalc.synth import write_synth

    write_synth(str(tmp_path / "s.parquet"), 1)
    write_synth(str(tmp_path / "s.csv"), 1)
    assert [r.cells() for r in load_parquet(tmp_path / "s.parquet").rows] == \
        [r.cells() for r in load_csv(tmp_path / "s.csv").rows]
