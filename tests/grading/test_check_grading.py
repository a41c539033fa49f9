"""Checking responses: the verdict JSON, scoring of worksheet and result checks, and what is
recorded apart (MedPhysBench, "Grading", "Grading details" and "Evaluation setup", Outcomes)."""

import json

import pytest

from physbench.core.items import Item, Message
from physbench.grading import OUTCOMES, CheckKey, grade_check
from physbench.suites.medphys.grade import grade_item
from physbench.grading.verdict import read_verdict, step_number, verdict_word

PLANTED = CheckKey(value=317.0, unit="MU", planted=True, first_error_step=4)
CLEAN = CheckKey(value=317.0, unit="MU", planted=False)
LONG = "I checked every step of the worksheet against the protocol. " * 8 + "\n"


def _json(**fields):
    return json.dumps(fields)


# --- reading the verdict ----------------------------------------------------------------------
@pytest.mark.parametrize("value, word", [
    ("correct", "correct"), ("Correct.", "correct"), ("pass", "correct"), ("passed", "correct"),
    ("right", "correct"), (True, "correct"),
    ("incorrect", "incorrect"), ("wrong", "incorrect"), ("error", "incorrect"), ("Incorrect - step 4", "incorrect"),
    ("not correct", "incorrect"), ("fail", "incorrect"), (False, "incorrect"),
    ("unsure", None), (1, None), (None, None), ("", None),
])
def test_verdict_synonyms_and_booleans(value, word):
    assert verdict_word(value) == word


@pytest.mark.parametrize("value, step", [
    (4, 4), (4.0, 4), ("4", 4), ("Step 4", 4), ("step 4.", 4), ([4, 6], 4),
    (None, None), ("none", None), (True, None), (4.5, None),
])
def test_step_written_as_step_4_counts_as_4(value, step):
    assert step_number(value) == step


def test_the_last_object_with_a_verdict_is_read_in_or_out_of_a_fence():
    text = ('First thought: {"verdict": "correct"}.\n```json\n'
            '{"verdict": "incorrect", "first_error_step": 4, "corrected_result": "317 MU"}\n```\n'
            'Some closing words {"note": "no verdict here"}.')
    r = read_verdict(text)
    assert (r.verdict, r.first_error_step, r.corrected) == ("incorrect", 4, "317 MU")


def test_loose_json_is_read():
    r = read_verdict("{'verdict': False, 'first_error_step': 'Step 4', 'corrected_result': '317 MU',}")
    assert (r.verdict, r.first_error_step, r.corrected) == ("incorrect", 4, "317 MU")
    r = read_verdict('{"verdict": incorrect, "first_error_step": step 4}')
    assert (r.verdict, r.first_error_step) == ("incorrect", 4)


def test_braces_inside_strings_do_not_end_the_object():
    r = read_verdict('{"verdict": "incorrect", "note": "a } and a { in text", "first_error_step": 4}')
    assert (r.verdict, r.first_error_step) == ("incorrect", 4)


def test_a_verdict_in_prose_is_not_a_json_verdict():
    assert read_verdict("My verdict: incorrect, step 4.") is None


def test_corrected_result_as_number_or_object():
    assert read_verdict('{"verdict": "incorrect", "corrected_result": 317}').corrected == "317"
    r = read_verdict('{"verdict": "incorrect", "corrected_result": {"value": 317, "unit": "MU"}}')
    assert r.corrected == "317 MU"
    assert read_verdict('{"verdict": "correct", "corrected_result": null}').corrected is None


# --- scoring -------------------------------------------------------------------------------------
def test_correct_calculation_scores_1_when_judged_correct():
    g = grade_check(LONG + _json(verdict="correct", first_error_step=None, corrected_result=None),
                    CLEAN, 0.01, "worksheet_check")
    assert g.score == 1.0 and g.passed and g.outcome == "correct"
    assert g.flagged is False and g.detail["false_alarm"] is False and g.detail["accepted"] is True


def test_correct_calculation_judged_incorrect_is_a_false_alarm():
    g = grade_check(LONG + _json(verdict="incorrect", first_error_step=3, corrected_result="330 MU"),
                    CLEAN, 0.01, "worksheet_check")
    assert g.score == 0.0 and g.outcome == "wrong" and g.flagged is True
    assert g.detail["false_alarm"] is True and g.detail["detected"] is None
    assert g.corrected_value == 330.0 and g.corrected_passed is False


def test_worksheet_planted_error_needs_the_verdict_and_the_first_wrong_step():
    ok = grade_check(LONG + _json(verdict="incorrect", first_error_step="Step 4", corrected_result="317 MU"),
                     PLANTED, 0.01, "worksheet_check")
    assert ok.score == 1.0 and ok.localized is True and ok.corrected_passed is True
    assert ok.detail["detected"] is True
    wrong_step = grade_check(LONG + _json(verdict="incorrect", first_error_step=5, corrected_result="317 MU"),
                             PLANTED, 0.01, "worksheet_check")
    assert wrong_step.score == 0.0 and wrong_step.outcome == "wrong"
    assert wrong_step.detail["detected"] is True and wrong_step.localized is False
    no_step = grade_check(LONG + _json(verdict="incorrect", corrected_result="317 MU"), PLANTED, 0.01,
                          "worksheet_check")
    assert no_step.score == 0.0 and no_step.localized is False


def test_result_check_planted_error_needs_only_the_verdict():
    g = grade_check(LONG + _json(verdict="incorrect", corrected_result="400 MU"), PLANTED, 0.01, "result_check")
    assert g.score == 1.0 and g.localized is None
    assert g.corrected_passed is False and g.detail["detected"] is True  # recorded apart from the score


def test_planted_error_accepted_as_correct_is_a_miss():
    g = grade_check(LONG + _json(verdict="correct"), PLANTED, 0.01, "result_check")
    assert g.score == 0.0 and g.outcome == "wrong" and g.detail["detected"] is False


def test_no_verdict_is_a_miss_on_a_planted_error_and_nothing_on_a_correct_one():
    planted = grade_check(LONG, PLANTED, 0.01, "worksheet_check")
    assert planted.outcome == "unparsable" and planted.score == 0.0 and planted.detail["detected"] is False
    clean = grade_check(LONG, CLEAN, 0.01, "worksheet_check")
    assert clean.outcome == "unparsable" and clean.score == 0.0
    assert clean.flagged is None and clean.detail["false_alarm"] is None and clean.detail["accepted"] is None
    unreadable = grade_check(LONG + _json(verdict="maybe"), CLEAN, 0.01, "result_check")
    assert unreadable.outcome == "unparsable" and unreadable.verdict is None


def test_corrected_value_is_graded_like_a_calculation_answer():
    for answer, ok in [("3.17e2 MU", True), (r"317\ \text{MU}", True), ("317", False), ("317 cm", False),
                       ("310-320 MU", False), ("320 MU", True), ("330 MU", False)]:
        g = grade_check(LONG + _json(verdict="incorrect", corrected_result=answer), PLANTED, 0.01, "result_check")
        assert g.corrected_passed is ok, answer


def test_blocked_stopped_short_truncated_take_precedence_over_unparsable():
    assert grade_check("This was blocked under our usage policy.", CLEAN, 0.01, "result_check").outcome == "blocked"
    assert grade_check("Looking at step", CLEAN, 0.01, "result_check").outcome == "stopped_short"
    assert grade_check(LONG, CLEAN, 0.01, "result_check", finish_reason="length").outcome == "truncated"
    assert grade_check(LONG + _json(verdict="x"), CLEAN, 0.01, "result_check",
                       finish_reason="content_filter").outcome == "blocked"
    assert grade_check(LONG + _json(verdict="correct"), CLEAN, 0.01, "result_check",
                       finish_reason="content_filter").outcome == "correct"
    short_with_verdict = grade_check(_json(verdict="correct"), CLEAN, 0.01, "result_check")
    assert short_with_verdict.outcome == "correct"


def test_check_grades_are_json_and_known_outcomes():
    for text in ["", LONG, LONG + _json(verdict="correct"), LONG + "{", "{" * 5000]:
        for ref in (PLANTED, CLEAN):
            for kind in ("worksheet_check", "result_check"):
                g = grade_check(text, ref, 0.01, kind)
                assert g.outcome in OUTCOMES and g.passed == (g.score == 1.0)
                json.dumps(g.to_dict(), allow_nan=False)


def test_a_check_needs_a_planted_flag_and_a_known_kind():
    with pytest.raises(ValueError):
        grade_check("x", CheckKey(value=1.0, unit="Gy"), 0.01, "result_check")
    with pytest.raises(ValueError):
        grade_check("x", CLEAN, 0.01, "calculation")
    with pytest.raises(ValueError):
        grade_check("x", CheckKey(value=1.0, unit="Gy", planted=True), 0.01, "worksheet_check")


def _item(kind, reference, band=0.01):
    ref = {"value": reference.value, "unit": reference.unit, "band": band}
    if reference.planted is not None:
        ref.update(planted=reference.planted, first_error_step=reference.first_error_step)
    return Item(id=f"t-{kind}", suite="medphys", kind=kind, messages=(Message("user", "q"),), reference=ref)


def test_grade_item_dispatches_on_kind_with_the_items_band():
    calc = _item("calculation", CheckKey(value=1.018, unit="cGy/MU"), band=0.005)
    assert grade_item(calc, r"\boxed{1.02 cGy/MU}").passed          # 0.2% off, inside 0.5%
    assert not grade_item(calc, r"\boxed{1.03 cGy/MU}").passed      # 1.2% off
    ws = _item("worksheet_check", PLANTED)
    assert grade_item(ws, _json(verdict="wrong", first_error_step="Step 4")).score == 1.0
    rc = _item("result_check", PLANTED)
    assert grade_item(rc, _json(verdict="error")).score == 1.0
    assert grade_item(rc, LONG, finish_reason="length").outcome == "truncated"
    with pytest.raises(ValueError):
        grade_item(_item("essay", CLEAN), "text")


def test_an_echoed_schema_with_its_choices_left_open_is_not_a_verdict():
    """A response that only repeats the prompt's schema ("correct" or "incorrect") states no verdict;
    a real verdict before the echo is still read."""
    from physbench.grading import grade_check

    ref = CheckKey(1.0, "cGy/MU", planted=False, first_error_step=None)
    echo = 'Answer with {"verdict": "correct" or "incorrect", "first_error_step": an integer or null}'
    assert grade_check(echo, ref, 0.01, "worksheet_check").verdict is None
    assert grade_check('{"verdict": "correct/incorrect"}', ref, 0.01, "result_check").verdict is None
    both = '{"verdict": "incorrect", "first_error_step": 2}\n' + echo
    assert grade_check(both, ref, 0.01, "worksheet_check").verdict == "incorrect"
