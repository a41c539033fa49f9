"""The clincalc report (003_* Tables 1, 2/7, 8, 14, 24): constructed runs with known answers, and a
five-seed scripted run of two arms (plus the gold-solve library) through `physbench report`."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from physbench.suites.clincalc.report_stats import (
    ArmRuns, accuracy_rows, agreement_rows, families, gap_rows, outcome_sets, program_outcomes,
)


def _arm(label, model, right, calcs, cases=None, arm="open-book", outcomes=None):
    right = np.asarray(right, dtype=float)
    cases = cases or [f"clincalc/row/{i + 1}" for i in range(right.shape[0])]
    if outcomes is None:
        outcomes = [["correct" if v == 1 else "wrong" for v in line] for line in right]
    return ArmRuns(label, arm, model, list(cases), list(range(right.shape[1])), right, outcomes, list(calcs),
                   ["decimal"] * right.shape[0])


def test_accuracy_is_the_mean_over_seeds_with_the_sample_sd():
    """Seeds at 50%, 75%, 100%: mean 75%, SD 25 pp (n - 1 divisor)."""
    a = _arm("a", "m", [[1, 1, 1], [0, 1, 1], [1, 0, 1], [0, 1, 1]], [1, 1, 2, 2])
    row = accuracy_rows([a])[0]
    assert row["per_seed"] == [0.5, 0.75, 1.0]
    assert row["accuracy"] == pytest.approx(0.75) and row["seed_sd"] == pytest.approx(0.25)


def test_gaps_pair_the_same_case_whatever_order_the_runs_list_cases_in():
    right_a = [[1, 1], [1, 1], [0, 0], [1, 0]]
    right_b = [[0, 0], [1, 1], [0, 0], [0, 0]]
    a = _arm("a", "m", right_a, [1, 1, 2, 2])
    order = [3, 2, 1, 0]  # b lists its cases backwards
    b = _arm("b", "m", [right_b[i] for i in order], [[1, 1, 2, 2][i] for i in order],
             cases=[a.cases[i] for i in order])
    (row,) = gap_rows([a, b])
    assert row["gap"] == pytest.approx((2 + 0 + 0 + 1) / 8)
    assert row["discordant"] == [3, 0] and row["mcnemar_p"] == pytest.approx(0.25)
    assert row["cluster_ci"][0] <= row["gap"] <= row["cluster_ci"][1]


def test_a_cases_seeds_stay_together_in_the_case_interval():
    """Every case's gap is the same in all its seeds (+1 or 0): the case bootstrap can only draw
    whole cases, so its interval ends are multiples of 1/n cases, never of 1/(n x seeds)."""
    rng = random.Random(1)
    n = 20
    per_case = [rng.random() < 0.5 for _ in range(n)]
    a = _arm("a", "m", [[1.0] * 5 for _ in range(n)], [i % 4 for i in range(n)])
    b = _arm("b", "m", [[0.0 if g else 1.0] * 5 for g in per_case], [i % 4 for i in range(n)])
    (row,) = gap_rows([a, b])
    for end in row["case_ci"]:
        assert end * n == pytest.approx(round(end * n), abs=1e-9)


def test_holm_adjusts_within_a_family_and_the_model_free_run_joins_every_family():
    rng = np.random.default_rng(0)
    calcs = [i // 4 for i in range(40)]
    runs = [_arm("m1-x", "m1", rng.integers(0, 2, (40, 3)), calcs),
            _arm("m1-y", "m1", rng.integers(0, 2, (40, 3)), calcs),
            _arm("m2-x", "m2", rng.integers(0, 2, (40, 3)), calcs),
            _arm("gold", "oracle", np.ones((40, 3)), calcs, arm="gold-library")]
    assert families(runs) == {"m1": [0, 1, 3], "m2": [2, 3]}
    rows = gap_rows(runs)
    assert len(rows) == 3 + 1  # pairs within m1 (3) and m2 (1); m1 runs never meet m2 runs
    m1 = [r for r in rows if r["family"] == "m1"]
    raw = sorted(r["mcnemar_p"] for r in m1)
    adjusted = sorted(r["mcnemar_p_holm"] for r in m1)
    assert adjusted[0] == pytest.approx(min(1.0, 3 * raw[0]))
    assert all(h >= p for h, p in zip(adjusted, raw))


def test_outcome_sets_split_on_what_the_library_run_answers():
    gold_outcomes = [["correct"], ["correct"], ["abstained"], ["abstained"]]
    gold = _arm("gold", "oracle", [[1], [1], [0], [0]], [5, 5, 9, 9], arm="gold-library", outcomes=gold_outcomes)
    prog = _arm("prog", "m", [[1], [0], [0], [1]], [5, 5, 9, 9], arm="program",
                outcomes=[["correct"], ["raised"], ["no_program"], ["correct"]])
    sets = {(r["run"], r["set"]): r for r in outcome_sets([gold, prog])}
    assert sets[("prog", "covered")]["rows"] == 2 and sets[("prog", "covered")]["executor_failure"] == 0.5
    assert sets[("prog", "uncovered")]["no_output"] == 0.5 and sets[("prog", "full")]["right"] == 0.5
    assert sets[("gold", "uncovered")]["none"] == 1.0
    (table8,) = [r for r in program_outcomes([prog])]
    assert table8["counts"]["raised"] == 1 and table8["attempted_accuracy"] == 1.0


def test_agreement_uses_cases_every_seed_graded():
    a = _arm("a", "m", [[1, 1], [0, 1], [np.nan, 1]], [1, 1, 2])
    (row,) = agreement_rows([a])
    assert (row["cases"], row["agree"], row["right"], row["wrong"]) == (2, 0.5, 0.5, 0.0)


def _replies(data, path, seed=5):
    """One reply per case and seed serving both arms: a program (right 80% of the time, else none)
    and a final-answer line (right 60% of the time)."""
    from physbench.suites.clincalc.dataset import item_id, load_csv
    from physbench.suites.clincalc.prompts import oracle_program

    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for row in load_csv(data).rows:
            for repeat in range(5):
                program = oracle_program(row.calculator_id, row.ground_truth) if rng.random() < 0.8 else "no code"
                final = row.ground_truth if rng.random() < 0.6 else "987654"
                fh.write(json.dumps({"id": item_id(row), "repeat": repeat,
                                     "response": f"{program}\nFinal answer: {final}"}) + "\n")


def test_a_five_seed_scripted_run_of_two_arms_gives_tables_1_2_7_and_8(cli, tmp_path):
    data, replay = tmp_path / "synth.csv", tmp_path / "replay.jsonl"
    assert cli("clincalc", "synth", "--out", str(data), "--per-calculator", "2").returncode == 0
    _replies(data, replay)
    runs = []
    for name, extra in (("program", ["--option", "arm=program", "--protocol", "program"]),
                        ("open", ["--option", "arm=open-book"])):
        run = tmp_path / name
        r = cli("eval", "clincalc", "--option", f"data={data}", *extra, "--model", f"replay:{replay}",
                "--repeats", "5", "--run-dir", str(run), "--quiet", "--json")
        assert r.returncode == 0, r.stderr
        runs.append(str(run))
    r = cli("report", *runs, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    for run in doc["runs"]:
        assert (run["n_items"], run["n_done"]) == (110, 550)
        assert 0 < run["accuracy"] < 1 and sum(run["outcomes"].values()) == 550
    a = doc["analyses"]["clincalc"]
    assert [(x["seeds"], x["cases"]) for x in a["arms"]] == [(5, 110), (5, 110)]        # Tables 1, 3
    assert all(x["seed_sd"] > 0 for x in a["arms"])
    (gap,) = a["gaps"]                                                                   # Tables 2, 7
    assert gap["clusters"] == 55 and gap["n_boot"] == 10_000 and gap["gap"] > 0
    assert gap["cluster_ci"][0] < gap["gap"] < gap["cluster_ci"][1] and gap["icc"] is not None
    program = a["program_outcomes"][0]                                                   # Table 8
    assert program["counts"]["no_program"] > 0 and program["attempted_accuracy"] == 1.0
    assert {x["set"] for x in a["outcome_sets"]} == {"covered", "uncovered", "full"}     # Table 14
    assert len(a["agreement"]) == 2 and len(a["calculators"]) == 110                     # Table 24, per calculator
    assert [r["name"] for r in a["ladder"]["rows"]] == ["Open-book arithmetic", "Program-Solve"]  # Table 3
    sets = {g["set"]: g["calculators"] for g in a["audit_gaps"]}                         # Table 12
    assert sets == {"all": 55, "not_replaced": 51, "no_issue": 39}
    groups = {(g["run"], g["group"]): g["calculators"] for g in a["audit_accuracy"]}     # Table 13
    assert {g: groups[(a["arms"][0]["run"], g)] for g in ("replaced", "other_concern", "flagged", "no_issue")} == \
        {"replaced": 4, "other_concern": 12, "flagged": 16, "no_issue": 39}
    out = tmp_path / "report.md"
    assert cli("report", *runs, "--out", str(out)).returncode == 0
    text = out.read_text(encoding="utf-8")
    for title in ("Accuracy per arm", "Paired gaps", "Paired gaps without the audit-flagged calculators",
                  "Accuracy by audit group", "Outcomes", "Agreement across seeds", "Accuracy per calculator"):
        assert f"## {title}" in text


def _audit_arms():
    """Two replaced, two other-concern and three unflagged calculators, two cases each, three seeds:
    Program-Solve right everywhere, Open-book arithmetic wrong exactly on the flagged calculators."""
    from physbench.suites.clincalc.formula_audit import calculators_in

    calcs = [*calculators_in("replaced")[:2], *calculators_in("other_concern")[:2], *calculators_in("no_issue")[:3]]
    per_case = [c for c in calcs for _ in range(2)]
    flagged = set(calcs[:4])
    prog = _arm("prog", "m", np.ones((len(per_case), 3)), per_case, arm="program-solve")
    arith = _arm("arith", "m", [[0.0 if c in flagged else 1.0] * 3 for c in per_case], per_case,
                 arm="open-book-arithmetic")
    return prog, arith, calcs, per_case


def test_a_gap_made_only_on_flagged_calculators_vanishes_without_them():
    """Table 12: the gap over all cases is the flagged share; without the replaced four it is the share of
    the other-concern cases; on the unflagged calculators it is zero with a zero-width interval."""
    from physbench.suites.clincalc.formula_audit import audit_group
    from physbench.suites.clincalc.report_audit import audit_gap_rows

    prog, arith, calcs, per_case = _audit_arms()
    rows = {r["set"]: r for r in audit_gap_rows([prog, arith])}
    n = len(per_case)
    other = sum(audit_group(c) == "other_concern" for c in per_case)
    assert rows["all"]["gap"] == pytest.approx(8 / n) and rows["all"]["calculators"] == 7
    assert rows["not_replaced"]["gap"] == pytest.approx(other / (n - 4)) and rows["not_replaced"]["calculators"] == 5
    assert rows["no_issue"]["gap"] == 0 and rows["no_issue"]["cluster_ci"] == [0, 0]
    assert rows["no_issue"]["cases"] == 6 and rows["all"]["cluster_ci"][0] > 0
    assert (rows["all"]["first"], rows["all"]["second"]) == ("prog", "arith")


def test_accuracy_by_audit_group_counts_each_group_s_calculators_and_cases():
    """Table 13: the arithmetic arm is 0% on every flagged group and 100% on the unflagged one."""
    from physbench.suites.clincalc.report_audit import audit_accuracy_rows

    prog, arith, _, _ = _audit_arms()
    rows = {(r["run"], r["group"]): r for r in audit_accuracy_rows([prog, arith])}
    shape = {g: (rows[("arith", g)]["calculators"], rows[("arith", g)]["cases"]) for g in
             ("replaced", "other_concern", "flagged", "no_issue")}
    assert shape == {"replaced": (2, 4), "other_concern": (2, 4), "flagged": (4, 8), "no_issue": (3, 6)}
    groups = ("replaced", "other_concern", "flagged", "no_issue")
    assert [rows[("arith", g)]["accuracy"] for g in groups] == [0, 0, 0, 1]
    assert all(rows[("prog", g)]["accuracy"] == 1 for g in ("replaced", "flagged", "no_issue"))
    assert rows[("arith", "no_issue")]["seed_sd"] == 0 and rows[("arith", "no_issue")]["seeds"] == 3


def test_a_group_s_seed_sd_and_interval_come_from_its_own_cases():
    """One unflagged calculator pair whose seeds score 1/2, 2/2, 0/2: mean 50%, SD 50 pp; the replaced
    group, always right, keeps its own 100% and zero SD."""
    from physbench.suites.clincalc.formula_audit import calculators_in
    from physbench.suites.clincalc.report_audit import audit_accuracy_rows

    clean, replaced = calculators_in("no_issue")[:2], calculators_in("replaced")[:2]
    a = _arm("a", "m", [[1, 1, 0], [0, 1, 0], [1, 1, 1], [1, 1, 1]], [*clean, *replaced])
    rows = {r["group"]: r for r in audit_accuracy_rows([a])}
    assert rows["no_issue"]["accuracy"] == pytest.approx(0.5) and rows["no_issue"]["seed_sd"] == pytest.approx(0.5)
    assert rows["replaced"]["accuracy"] == 1 and rows["replaced"]["seed_sd"] == 0
    lo, hi = rows["no_issue"]["cluster_ci"]
    assert lo <= 0.5 <= hi and hi - lo > 0 and "other_concern" not in rows


def test_the_ladder_orders_arms_as_table_3_and_marks_subsets_and_single_seeds():
    from physbench.suites.clincalc.report_stats import ladder

    calcs = [1, 1, 2, 2]
    runs = [_arm("p", "m1", np.ones((4, 2)), calcs, arm="program-solve"),
            _arm("n", "m1", np.zeros((4, 2)), calcs, arm="note-only"),
            _arm("b", "m1", np.ones((2, 2)), calcs[:2], cases=["clincalc/row/1", "clincalc/row/2"],
                 arm="blind-vote"),
            _arm("o", "m2", [[1], [0], [1], [1]], calcs, arm="open-book-arithmetic (direct)"),
            _arm("g", "none", np.ones((4, 1)), calcs, arm="gold-solve-library")]
    t = ladder(runs)
    assert t["columns"] == ["m1", "m2"]
    assert [r["name"] for r in t["rows"]] == ["Note only", "Open-book arithmetic", "Program-Solve", "Blind + vote",
                                              "Gold-Solve library"]
    by = {r["name"]: r["cells"] for r in t["rows"]}
    assert by["Blind + vote"]["m1"]["subset"] and not by["Program-Solve"]["m1"]["subset"]
    assert set(by["Gold-Solve library"]) == {"m1", "m2"}                        # joins every family
    assert by["Open-book arithmetic"]["m2"]["seed_sd"] is None and by["Open-book arithmetic"]["m2"]["accuracy"] == 0.75


def test_every_arm_has_a_place_on_the_ladder():
    from physbench.suites.clincalc.arms import ARMS, LADDER

    assert set(LADDER) == set(ARMS)
