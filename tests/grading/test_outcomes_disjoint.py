"""stopped_short and unparsable are disjoint (issue 36, item 7): a short checking reply that writes
a verdict field the grader cannot read is `unparsable`, as the legend says, not `stopped_short`."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from physbench.grading.checks import CheckKey, grade_check
from physbench.grading.outcomes import tries_a_verdict
from physbench.grading.types import outcome_meaning

KEY = CheckKey(value=1.0, unit="cGy", planted=False)


def _outcome(text: str) -> str:
    return grade_check(text, KEY, 0.01, "result_check").outcome


def test_a_template_echoed_with_its_choice_open_is_unparsable_not_stopped_short():
    """The embedded model's usual reply to a check (issue 36): short, with an unreadable verdict."""
    echoed = '{"verdict": "correct" or "incorrect", "first_error_step": null, "corrected_result": null}'
    assert len(echoed) < 400
    assert _outcome(echoed) == "unparsable"
    assert _outcome("Verdict: maybe") == "unparsable"


def test_a_short_reply_that_tries_nothing_is_stopped_short_and_a_long_one_unparsable():
    assert _outcome("I need to think about this.") == "stopped_short"
    assert _outcome("I need to think about this. " * 20) == "unparsable"


def test_the_legend_says_what_the_grader_does():
    assert "verdict field" in outcome_meaning("unparsable")
    assert "no answer tried" in outcome_meaning("stopped_short")


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('abc verdict:"{}=VERDICT 0123\n')), max_size=600))
def test_no_reply_is_both_and_each_follows_its_definition(text):
    outcome = _outcome(text)
    if outcome == "stopped_short":
        assert len(text.strip()) < 400 and not tries_a_verdict(text)
    if outcome == "unparsable":
        assert len(text.strip()) >= 400 or tries_a_verdict(text)
