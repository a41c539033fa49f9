"""Property tests draw the same examples on every run (issue 33, item 9): a failure in CI is
reproduced by running the same test again, never a one-off."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

DRAWN: list[list[int]] = []


def test_the_default_hypothesis_profile_is_derandomised_without_a_database() -> None:
    if os.environ.get("HYPOTHESIS_PROFILE", "physbench") != "physbench":
        pytest.skip("another hypothesis profile was chosen on purpose")
    assert settings.default.derandomize is True
    assert settings.default.database is None
    assert settings.default.deadline is None  # no timed assertion per example


@settings(max_examples=25)  # a test's own settings keep the profile's derandomize
@given(st.lists(st.integers(), max_size=5))
def _draw(values: list[int]) -> None:
    DRAWN[-1].append(hash(tuple(values)))


def test_a_property_test_with_its_own_settings_draws_the_same_examples_twice() -> None:
    if os.environ.get("HYPOTHESIS_PROFILE", "physbench") != "physbench":
        pytest.skip("another hypothesis profile was chosen on purpose")
    for _ in range(2):
        DRAWN.append([])
        _draw()
    assert DRAWN[0] == DRAWN[1] and len(set(DRAWN[0])) > 1
