"""`physbench eval clincalc` in every arm (003_* Table 1): a perfect reply scores 100%, wrong or
hostile replies are outcomes of their own, and the Gold-Solve library needs no model."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.clincalc.suite import ARMS, SUITE


@pytest.mark.parametrize(("arm", "protocol"), [("open-book", "direct"), ("note-only", "direct"),
                                               ("program", "program"), ("blind-program", "program"),
                                               ("extract-library", "direct"), ("open-book", "gold-library")])
def test_the_oracle_scores_every_row_in_each_arm(cli, tmp_path, arm, protocol):
    r = cli("eval", "clincalc", "--model", "oracle", "--protocol", protocol, "--option", f"arm={arm}",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_done"], s["n_correct"]) == (55, 55)


def test_each_arm_shows_what_the_paper_says_it_shows():
    row_items = {arm: SUITE.items(arm=arm, limit=1)[0] for arm in ARMS}
    text = {arm: item.messages[1].content for arm, item in row_items.items()}
    assert "Formula:" in text["open-book-arithmetic"] and "Variables (from the note)" in text["program-solve"]
    assert "Formula:" not in text["note-only"] and "Formula:" not in text["blind-program-solve"]
    assert "Formula:" not in text["page-without-formula"] and "Variables (from the note)" in text["page-without-formula"]
    assert "Variables (from the note)" not in text["blind-program-solve"] and "solve()" in text["blind-program-solve"]
    assert "Variables (from the note)" not in text["note-only"] and "Variables (from the note)" in text["note-only-gold"]
    assert row_items["program-solve"].protocol_data["program"]["policy"] == "strict"
    assert row_items["open-book-arithmetic"].id.startswith("clincalc/row/")


def _item(calc_id: int, arm: str):
    return next(i for i in SUITE.items(arm=arm) if i.reference["calc_id"] == calc_id)


def test_program_values_are_scored_by_kind_and_protocol_outcomes_kept():
    date_item = _item(13, "program-solve")  # Naegele's rule: a date
    gold = date_item.reference["ground_truth"]
    ok = SUITE.grade(date_item, SimpleNamespace(text="", value=gold, outcome=None, detail={}))
    assert ok.passed
    assert SUITE.grade(date_item, SimpleNamespace(text="", value=3.5, outcome=None, detail={})).outcome == "bad_kind"
    assert SUITE.grade(date_item, SimpleNamespace(text="", value=None, outcome="no_program", detail={})).outcome \
        == "no_program"


def test_a_decimal_is_correct_inside_the_limits_only():
    item = _item(6, "open-book-arithmetic")  # BMI
    lo, hi = float(item.reference["lower"]), float(item.reference["upper"])
    assert SUITE.grade(item, SimpleNamespace(text=f"Final answer: {lo}", outcome=None, detail={})).passed
    assert not SUITE.grade(item, SimpleNamespace(text=f"Final answer: {hi * 1.01}", outcome=None, detail={})).passed


def test_an_extraction_the_library_cannot_use_abstains():
    item = _item(6, "extract-solve-library")
    g = SUITE.grade(item, SimpleNamespace(text='{"weight": "a lot"}', outcome=None, detail={}))
    assert g.outcome == "abstained" and not g.passed
    g = SUITE.grade(item, SimpleNamespace(text="no json here", outcome=None, detail={}))
    assert g.outcome == "abstained"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400), st.sampled_from(ARMS))
def test_grading_never_raises_on_model_text(text, arm):
    item = SUITE.items(arm=arm, limit=1)[0]
    g = SUITE.grade(item, SimpleNamespace(text=text, value=text, outcome=None, detail={}))
    assert 0.0 <= g.score <= 1.0


def test_an_unknown_arm_and_a_missing_test_split_are_one_line(cli, tmp_path):
    r = cli("eval", "clincalc", "--model", "oracle", "--option", "arm=guess", "--run-dir", str(tmp_path / "a"))
    assert r.returncode == 2 and "unknown clincalc arm" in r.stderr
    r = cli("eval", "clincalc", "--model", "oracle", "--option", f"data={tmp_path / 'none.csv'}",
            "--run-dir", str(tmp_path / "b"))
    assert r.returncode == 2 and "no such data file" in r.stderr and not (tmp_path / "b").exists()
