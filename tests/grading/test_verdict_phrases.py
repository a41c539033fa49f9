"""Verdict phrases are read by their meaning, not their first word; an unclear verdict is no
verdict, never a guessed one; a hedged step is not a step (issue 14; MedPhysBench "Grading details")."""

import json

import pytest

from physbench.grading import grade_check
from physbench.grading.polarity import polarity
from physbench.grading.verdict import read_verdict, step_number, verdict_word
from physbench.suites.medphys.reference import MedphysReference

PLANTED = MedphysReference(value=317.0, unit="MU", band=0.01, planted=True, first_error_step=3)
CLEAN = MedphysReference(value=317.0, unit="MU", band=0.01, planted=False)
LONG = "I checked every step of the worksheet against the protocol. " * 8 + "\n"


@pytest.mark.parametrize("phrase", [
    "error-free", "mistake-free", "Error free", "free of errors", "free from mistakes", "errorless", "flawless",
    "failed to find any errors", "I failed to find any mistakes", "could not find any error", "couldn't find any errors",
    "no errors", "No errors found.", "no errors or mistakes", "neither errors nor omissions", "nothing wrong",
    "not wrong", "not incorrect", "wrong? No, it is correct", "Incorrect? No - correct.", "errors: none",
    "errors found: 0", "correct", "Correct.", "CORRECT (no errors)", "pass", "right", "ok", "true", "verified",
])
def test_phrases_that_find_no_error_read_as_correct(phrase):
    assert polarity(phrase) == "correct"
    assert verdict_word(phrase) == "correct"


@pytest.mark.parametrize("phrase", [
    "ok but step 3 is wrong", "Correct, but step 3 is wrong", "looks fine, however the MU is wrong",
    "mostly correct but step 3 has an error", "not error-free", "The worksheet is not error-free",
    "not correct", "isn't correct", "incorrect", "wrong", "error", "Incorrect - step 4", "fail", "the check failed",
    "did not pass", "there is an error in step 4", "correct? no, wrong", "false", "invalid",
])
def test_phrases_that_find_an_error_read_as_incorrect(phrase):
    assert polarity(phrase) == "incorrect"
    assert verdict_word(phrase) == "incorrect"


@pytest.mark.parametrize("phrase", [
    "incorrect, but the final answer is right", "correct; wrong", "partially correct", "mostly right",
    "incorrect (or maybe correct)", "correct or not", "not verified", "cannot be confirmed", "unsure", "maybe",
    "no", "yes", "none", "", "it depends",
])
def test_ambiguous_phrases_are_no_verdict_never_a_guess(phrase):
    assert polarity(phrase) == "unclear"
    assert verdict_word(phrase) is None


@pytest.mark.parametrize("phrase", ["correct or incorrect", "correct/incorrect", "pass | fail", "Correct or Incorrect"])
def test_a_choice_left_open_is_a_template_not_a_verdict(phrase):
    assert polarity(phrase) == "open" and verdict_word(phrase) is None


def test_an_unclear_last_verdict_does_not_fall_back_to_an_earlier_draft():
    """The last verdict the model wrote decides: an earlier draft is not taken in place of an
    unclear final one (that would be a guess); an echoed template is skipped."""
    text = LONG + '{"verdict": "correct"}\nOn reflection:\n{"verdict": "ok but step 3 is wrong", "first_error_step": 3}'
    assert read_verdict(text).verdict == "incorrect"
    text = LONG + '{"verdict": "incorrect"}\nOn reflection:\n{"verdict": "partially correct"}'
    r = read_verdict(text)
    assert r is not None and r.verdict is None
    g = grade_check(text, PLANTED, 0.01, "result_check")
    assert g.outcome == "unparsable" and g.verdict is None and g.score == 0.0
    text = LONG + '{"verdict": "incorrect"}\nReply as {"verdict": "correct" or "incorrect"}'
    assert read_verdict(text).verdict == "incorrect"


@pytest.mark.parametrize("phrase, planted, score", [
    ("error-free", False, 1.0), ("failed to find any errors", False, 1.0), ("wrong? No, it is correct", False, 1.0),
    ("ok but step 3 is wrong", True, 1.0), ("error-free", True, 0.0), ("mistake-free", True, 0.0),
])
def test_checks_score_what_the_phrase_means(phrase, planted, score):
    ref = PLANTED if planted else CLEAN
    text = LONG + json.dumps({"verdict": phrase, "first_error_step": 3 if planted else None})
    assert grade_check(text, ref, 0.01, "worksheet_check").score == score


@pytest.mark.parametrize("step", ["3 (or maybe 4)", "3 or 4", "steps 3-4", "3/4", "step 3, possibly step 4",
                                  "between 3 and 5"])
def test_a_hedged_step_is_not_localised(step):
    assert step_number(step) is None
    text = LONG + json.dumps({"verdict": "incorrect", "first_error_step": step})
    g = grade_check(text, PLANTED, 0.01, "worksheet_check")
    assert g.localized is False and g.score == 0.0 and g.detail["detected"] is True


@pytest.mark.parametrize("step", ["Step 3", "3", "step 3.", "Step 3: P_1 reading", "Step3", "step 3 (the P_ion line)"])
def test_one_named_step_is_still_localised(step):
    assert step_number(step) == 3
    text = LONG + json.dumps({"verdict": "incorrect", "first_error_step": step})
    assert grade_check(text, PLANTED, 0.01, "worksheet_check").score == 1.0
