"""physbench's own reading of a model's reply (issue 35, item 6): the answer is the result on the
final-answer line, not the first number of its working; a range or a list is no answer; gestational
ages in their written forms; and the paper's rule that 2.4 for an integer score is wrong (the official
script rounds it to 2 and would credit it)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.clincalc.dataset import Row
from physbench.suites.clincalc.scoring import parse_reply, score_reply

CKD_EPI, CHA2DS2, GESTATIONAL, DUE_DATE, WELLS_PE = 3, 4, 69, 13, 8


def _row(calc_id: int, gold: str, lower: str = "", upper: str = "") -> Row:
    return Row(row_number=1, calculator_id=calc_id, calculator_name="", category="", output_type="",
               note_id="1", note_type="", patient_note="", question="", entities={}, entities_text="{}",
               ground_truth=gold, lower_limit=lower, upper_limit=upper, explanation="")


@pytest.mark.parametrize("reply, value", [
    ("Final answer: 142 - 100 - 2 = 40", 40.0),
    ("Answer: 142 × 0.3 = 42.6 mL/min/1.73 m²", 42.6),
    ("Working: 142 * (1.1/0.9)^-1.2\nAnswer:\n142 * 0.786 * 0.35\n= 40", 40.0),
    ("Answer: 40 (= 142 - 102)", 40.0),          # '=' inside brackets is the working, not the result
    ("The answer is: 40", 40.0),
    ("Answer: −3.5", -3.5),                       # Unicode minus
    ("Answer: 1,234.5 mL", 1234.5),               # thousands separator
    ("Answer: 1.2e3", 1200.0),
    ("The CURB-65 score is 2", 2.0),              # the 65 of the name is not the answer
    ("Answer: 20.53 kg/m^2", 20.53),              # the 2 of the unit is not the answer
])
def test_the_answer_is_the_result_on_the_final_line(reply, value):
    assert parse_reply(reply, CKD_EPI) == value


@pytest.mark.parametrize("reply", [
    "Answer: 38-42", "Answer: 38 – 42 mL/min", "Answer: between 38 and 42", "Answer: 38 to 42",
    "Answer: 3 or 4", "Criteria met: 1, 2, 3, 4", "Answer: [1, 2, 3]",
])
def test_a_range_or_a_list_is_no_answer(reply):
    assert parse_reply(reply, CKD_EPI) is None
    assert parse_reply(reply, CHA2DS2) is None


def test_a_range_whose_first_end_is_the_gold_scores_wrong():
    row = _row(CKD_EPI, "38.0", "36.1", "39.9")
    assert score_reply("Answer: 38-42", row).outcome == "wrong"
    assert score_reply("Answer: 38", row).outcome == "correct"


def test_a_list_of_criteria_is_never_read_as_its_first_item():
    row = _row(CHA2DS2, "1")
    assert score_reply("Criteria met: 1, 2, 3, 4", row).outcome == "wrong"
    assert score_reply("Criteria met: 1, 2, 3, 4\nAnswer: 4", _row(CHA2DS2, "4")).outcome == "correct"


@pytest.mark.parametrize("reply", ["Answer: [34, 3]", "Answer: 34 weeks and 3 days", "Answer: (34, 3)",
                                   "Answer: ('34 weeks', '3 days')", "Answer: 34w 3d"])
def test_gestational_age_forms(reply):
    assert parse_reply(reply, GESTATIONAL) == (34, 3)


def test_a_date_is_read_in_its_written_forms():
    for reply in ("Answer: 03/05/2024", "Answer: 2024-03-05", "Answer: March 5, 2024"):
        assert parse_reply(reply, DUE_DATE) == dt.date(2024, 3, 5)


def test_a_fractional_answer_to_an_integer_score_is_wrong_as_in_the_paper():
    """The official script rounds 2.4 to 2 and credits it; physbench keeps the paper's exact equality."""
    row = _row(CHA2DS2, "2")
    assert score_reply("Answer: 2.4", row).outcome == "wrong"
    assert score_reply("Answer: 2", row).outcome == "correct"
    assert score_reply("Answer: 1.5", _row(WELLS_PE, "1.5")).outcome == "correct"  # Wells' PE half points



@settings(max_examples=300, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(["Answer:", "=", "(", ")", "-", "–", " to ", " and ", ",", "3", "4.5",
                                           "\n", "between ", "1,234", "≈", "weeks", "days", "[", "]"]),
                          st.text(max_size=4)), max_size=30), st.sampled_from([3, 4, 13, 69]))
def test_reading_a_reply_never_raises(pieces, calc_id):
    answer = parse_reply("".join(pieces), calc_id)
    assert answer is None or isinstance(answer, (float, tuple, dt.date))
