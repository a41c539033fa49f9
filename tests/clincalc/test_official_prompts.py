"""The official MedCalc-Bench prompt styles as arms (issue 35, item 5), in our wording or a user's file:
what each sends, that the one-shot example is of the same calculator and never the case itself, and
that the oracle scores every row in each style under both scorings."""

from __future__ import annotations

import json

import pytest

from physbench.suites.clincalc.dataset import load_one_shot
from physbench.suites.clincalc.prompts_official import STYLES, messages
from physbench.suites.clincalc.suite import SUITE
from physbench.suites.clincalc.synth import synth_rows

ONE_SHOT = {r.calculator_id: r for r in load_one_shot().rows}


def _text(item) -> str:
    return item.messages[0].content + "\n" + item.messages[1].content


def test_each_style_sends_the_note_the_question_and_asks_for_json():
    for arm in STYLES:
        item = SUITE.items("dev", arm=arm, limit=1)[0]
        row = ONE_SHOT[item.reference["calc_id"]]
        text = _text(item)
        assert row.patient_note in text and row.question in text and '"answer"' in text
        assert ("step_by_step_thinking" in text) is (arm != "official-direct")
        assert "Example note" in text if arm == "official-one-shot" else "Example note" not in text


def test_the_one_shot_example_is_the_same_calculator_and_never_the_case():
    for row in list(synth_rows(per_calculator=1, seed=3))[:20]:  # test-like rows: the one-shot row is the example
        system, _ = messages(row, "official-one-shot")
        example = ONE_SHOT[row.calculator_id]
        assert example.patient_note in system and json.dumps(example.ground_truth) in system
    for row in ONE_SHOT.values():                              # the one-shot split itself: a synthetic example
        system, user = messages(row, "official-one-shot")
        assert row.patient_note not in system and row.patient_note in user


@pytest.mark.parametrize("arm", sorted(STYLES))
@pytest.mark.parametrize("scoring", ["physbench", "official"])
def test_the_oracle_scores_every_row_in_each_style(cli, tmp_path, arm, scoring):
    r = cli("eval", "clincalc", "--model", "oracle", "--option", f"arm={arm}", "--option", f"scoring={scoring}",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert (json.loads(r.stdout)["n_done"], json.loads(r.stdout)["n_correct"]) == (55, 55)


def test_a_users_prompt_file_replaces_the_wording(tmp_path):
    path = tmp_path / "official.json"
    path.write_text(json.dumps({"zero_shot": {"system": "SYS {question}", "user": "NOTE<{note}> Q<{question}>"}}))
    item = SUITE.items("dev", arm="official-zero-shot", limit=1, prompts=str(path))[0]
    row = ONE_SHOT[item.reference["calc_id"]]
    assert item.messages[0].content == f"SYS {row.question}"
    assert item.messages[1].content == f"NOTE<{row.patient_note}> Q<{row.question}>"
    direct = SUITE.items("dev", arm="official-direct", limit=1, prompts=str(path))[0]
    assert '"answer"' in direct.messages[1].content          # styles the file leaves out stay ours


@pytest.mark.parametrize("content, words", [("[1]", "object of styles"), ('{"few_shot": {}}', "unknown style"),
                                            ('{"direct": {"system": 3}}', "must be"), ("{", "not JSON")])
def test_a_bad_prompt_file_is_one_clear_error(cli, tmp_path, content, words):
    path = tmp_path / "p.json"
    path.write_text(content)
    r = cli("eval", "clincalc", "--model", "oracle", "--option", "arm=official-direct", "--option", f"prompts={path}",
            "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1
