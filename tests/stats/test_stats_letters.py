"""Compact letter display from pairwise tests."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stats_seed_tables import MODELS_BY_ACCURACY, TABLE11

from physbench.stats import compact_letters, letters_from_pvalues


def test_letters_reproduce_the_seed_groups_of_figure_2a():
    """Seed 000 'Calculation': Holm-adjusted McNemar tests over 66 pairs did not separate the four
    models at the ceiling and split the others into four further groups; Table 11 lists the pairs
    not separated, every other pair was."""
    together = {frozenset((a, b)) for a, b, *_ in TABLE11}
    separated = [p for p in itertools.combinations(MODELS_BY_ACCURACY, 2) if frozenset(p) not in together]
    letters = compact_letters(MODELS_BY_ACCURACY, separated)
    assert letters == {
        "GPT-6 Astra": "a", "GPT-6.1 Sol": "a", "Gemini 4 Argon": "a", "Claude Opus 5.5": "a",
        "Claude Sonnet 5.5": "b", "GPT-6 Luna": "b", "Claude Fable 5.1": "bc",
        "DeepSeek V4 Pro": "c", "gpt-oss-120b": "c", "Mistral Large 3": "c",
        "gpt-oss-20b": "d", "Gemma 3 27B": "e",
    }


def test_letters_from_p_values_separate_pairs_below_alpha():
    p = {("A", "B"): 0.20, ("A", "C"): 0.01, ("B", "C"): 0.30}
    assert letters_from_pvalues(["A", "B", "C"], p) == {"A": "a", "B": "ab", "C": "b"}
    assert letters_from_pvalues(["A", "B", "C"], p, alpha=0.001) == {"A": "a", "B": "a", "C": "a"}


def test_unknown_or_repeated_names_are_refused():
    with pytest.raises(ValueError):
        compact_letters(["A", "B"], [("A", "Z")])
    with pytest.raises(ValueError):
        compact_letters(["A", "A"], [])


def test_more_than_26_groups_use_double_letters():
    names = [f"m{i}" for i in range(30)]
    letters = compact_letters(names, itertools.combinations(names, 2))
    assert letters["m0"] == "a" and letters["m26"] == "aa" and len(set(letters.values())) == 30


@st.composite
def comparisons(draw):
    n = draw(st.integers(1, 9))
    names = [f"model{i}" for i in range(n)]
    pairs = list(itertools.combinations(names, 2))
    separated = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return names, separated


@given(comparisons())
def test_two_models_share_a_letter_exactly_when_no_test_separated_them(case):
    names, separated = case
    letters = compact_letters(names, separated)
    apart = {frozenset(p) for p in separated}
    for a, b in itertools.combinations(names, 2):
        shares = bool(set(letters[a]) & set(letters[b]))
        assert shares == (frozenset((a, b)) not in apart), (a, b, letters)
    assert all(letters[name] for name in names)
    assert letters[names[0]].startswith("a")
