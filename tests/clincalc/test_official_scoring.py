"""`--option scoring=official` (issue 35, item 5): verdicts equal to the official MedCalc-Bench evaluation
on a corpus of 85 tricky replies (units, percents, dates, gestational ages, ranges, lists, Unicode minus,
scientific notation, thousands separators), the expected verdicts derived by reading evaluate.py and
run.py (and checked once against them locally); physbench's own verdict on each is documented beside."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.clincalc import official_scoring
from physbench.suites.clincalc.official_scoring import verdict
from physbench.suites.clincalc.scoring import score_reply

CORPUS = json.loads((Path(__file__).parent / "data" / "official_corpus.json").read_text("utf-8"))["cases"]


def _id(case: dict) -> str:
    return f"calc{case['calculator_id']}:{case['reply'][-40:]}"


def test_the_corpus_is_large_and_covers_every_answer_kind():
    assert len(CORPUS) >= 70
    assert {c["calculator_id"] for c in CORPUS} >= {3, 4, 6, 8, 13, 40, 49, 68, 69}
    assert sum(c["official"] != c["physbench"] for c in CORPUS) >= 25  # the two scorings do differ


@pytest.mark.parametrize("case", CORPUS, ids=_id)
def test_official_verdicts(case):
    assert verdict(case["reply"], case["calculator_id"], case["gold"], case["lower"], case["upper"]) \
        is case["official"], case["why"]


@pytest.mark.parametrize("case", CORPUS, ids=_id)
def test_physbench_verdicts_on_the_same_replies(case):
    row = SimpleNamespace(calculator_id=case["calculator_id"], ground_truth=case["gold"],
                          lower_limit=case["lower"] or case["gold"], upper_limit=case["upper"] or case["gold"])
    assert score_reply(case["reply"], row).correct is case["physbench"], case["why"]


def test_the_official_scorer_never_evaluates_model_text():
    source = Path(official_scoring.__file__).read_text("utf-8")
    assert "eval(" not in source.replace("literal_eval(", "") and "exec(" not in source
    assert verdict('{"answer": "str(__import__(\'os\').getcwd())"}', 6, "20.53", "19.5", "21.6") is False
    assert verdict('{"answer": "str(9**9**9)"}', 6, "20.53", "19.5", "21.6") is False
    assert verdict(None, 6, "20.53", "19.5", "21.6") is False


# ---- the option, the report, and official output files as a replay -----------------------------

def _items(**options):
    from physbench.suites.clincalc.suite import SUITE

    return SUITE, SUITE.items("dev", arm="open-book-arithmetic", **options)


def _answer(text: str):
    return SimpleNamespace(text=text, value=None, outcome=None, detail={})


def test_both_verdicts_are_recorded_and_the_option_picks_the_pass_mark():
    suite, items = _items()
    item = next(i for i in items if i.reference["calc_id"] == 4)
    gold = item.reference["ground_truth"]
    plain = suite.grade(item, _answer(f"Final answer: {gold}"))   # no JSON answer field
    assert plain.passed and plain.detail["physbench"] is True and plain.detail["official"] is False
    assert plain.detail["official_answer"] == "Not Found"   # why the official script says no
    _, official_items = _items(scoring="official")
    official_item = next(i for i in official_items if i.reference["calc_id"] == 4)
    assert not suite.grade(official_item, _answer(f"Final answer: {gold}")).passed
    rounded = json.dumps({"answer": str(int(gold) - 0.4)})       # official rounds it back to the gold
    assert suite.grade(official_item, _answer(rounded)).passed
    assert not suite.grade(item, _answer(rounded)).passed
    assert suite.data_source()["scoring"] == "official"


def test_an_unknown_scoring_is_refused():
    from physbench.core.errors import UserError

    with pytest.raises(UserError, match="scoring"):
        _items(scoring="lenient")


def _official_file(path: Path) -> list[dict]:
    from physbench.suites.clincalc.dataset import load_one_shot

    rows = []
    for k, row in enumerate(load_one_shot().rows):
        right = k % 2 == 0
        answer = row.ground_truth if right else "N/A"
        rows.append({"Row Number": row.row_number, "Calculator ID": str(row.calculator_id), "Note ID": row.note_id,
                     "LLM Answer": answer, "LLM Explanation": "worked it out", "Ground Truth Answer": row.ground_truth,
                     "Lower Limit": row.lower_limit, "Upper Limit": row.upper_limit,
                     "Result": "Correct" if right else "Incorrect"})
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return rows


def test_an_official_output_file_becomes_a_replay_scored_both_ways(cli, tmp_path):
    rows = _official_file(tmp_path / "official.jsonl")
    r = cli("clincalc", "replay-from-official", str(tmp_path / "official.jsonl"), "--out", str(tmp_path / "r.jsonl"),
            "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["rows"] == 55 and info["reproduced"] == 55 and info["official_correct"] == 28
    for scoring, correct in (("official", 28), ("physbench", 28)):
        run = cli("eval", "clincalc", "--model", f"replay:{tmp_path / 'r.jsonl'}", "--protocol", "direct",
                  "--option", f"scoring={scoring}", "--run-dir", str(tmp_path / scoring), "--quiet", "--json")
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)["n_correct"] == correct
    assert len(rows) == 55


def test_a_bad_official_file_is_one_clear_error(cli, tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"Row Number": 1}\n', encoding="utf-8")
    r = cli("clincalc", "replay-from-official", str(tmp_path / "bad.jsonl"), "--out", str(tmp_path / "r.jsonl"))
    assert r.returncode == 2 and "needs Row Number" in r.stderr and not (tmp_path / "r.jsonl").exists()


_PIECES = st.sampled_from(['{"answer": "', '"}', "str(", ")", "**", "^", "9", "0", ".", "-", "%", ",", " out of ",
                           "/", "weeks", "days", "[", "]", "'", "e", "mL/min/1.73", "\n", "math.sqrt(", "round("])


@settings(max_examples=300, derandomize=True)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=30), st.sampled_from([6, 4, 13, 69, 8]))
def test_the_official_scorer_never_raises_on_any_reply(pieces, calc_id):
    gold = {6: ("20.53", "19.5", "21.6"), 4: ("3", "", ""), 13: ("12/02/2000", "", ""),
            69: ("('34 weeks', '3 days')", "", ""), 8: ("1.5", "1.425", "1.575")}[calc_id]
    assert verdict("".join(pieces), calc_id, *gold) in (True, False)
