"""Damaged prompts that once crashed the independent solvers (issue 33, item 9): each now gives an
answer or a PromptDefect, never another exception; a longer seeded search runs as a slow test."""

from __future__ import annotations

import random
import re

import pytest

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect, solve_prompt

GENERATORS = ("bed", "decay", "hvl", "mird", "mu", "ncrp147", "ncrp151", "ssde", "tg43", "tg51")


def _prompt(generator: str, level: int, seed: int = 1) -> str:
    return calculation_item(generator, level, seed).messages[-1].content


def _answer_or_defect(generator: str, level: int, prompt: str) -> None:
    try:
        solve_prompt(generator, level, prompt)
    except PromptDefect:
        pass


@pytest.mark.parametrize("level", [1, 2])
def test_decay_half_life_label_in_other_case_is_read_not_asserted(level: int) -> None:
    """The label matched case-insensitively, then was re-read case-sensitively under an assert."""
    prompt = _prompt("decay", level)
    lowered = re.sub(r"Half-life of ([A-Z][a-z]?-\d+m?)", lambda m: "Half-life of " + m.group(1).lower(), prompt)
    assert lowered != prompt
    _answer_or_defect("decay", level, lowered)


def test_decay_half_life_label_case_change_keeps_the_answer() -> None:
    prompt = _prompt("decay", 2)
    assert "Half-life of I-123" in prompt
    expected = solve_prompt("decay", 2, prompt)
    assert solve_prompt("decay", 2, prompt.replace("Half-life of I-123", "HALF-LIFE OF I-123")) == expected


@pytest.mark.parametrize("level", [1, 2, 3])
def test_tg43_source_table_row_with_a_missing_cell_is_a_prompt_defect(level: int) -> None:
    prompt = _prompt("tg43", level)
    lines = prompt.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("| 1.0 |") or line.startswith("| 2.0 |"))
    lines[row] = "|".join(lines[row].split("|")[:3]) + "|"  # "| r | g |": the φ_an cell is gone
    with pytest.raises(PromptDefect, match="three columns"):
        solve_prompt("tg43", level, "\n".join(lines))


def test_tg43_half_life_that_overflows_the_decay_factor_is_a_prompt_defect() -> None:
    prompt = _prompt("tg43", 3)
    start = prompt.index("Half-life of Ir-192: ") + len("Half-life of Ir-192: ")
    end = prompt.index(" d", start)
    with pytest.raises(PromptDefect, match="finite"):
        solve_prompt("tg43", 3, prompt[:start] + "-0.0001" + prompt[end:])


def test_tg51_k_q_table_row_with_a_missing_cell_is_a_prompt_defect() -> None:
    prompt = _prompt("tg51", 3).replace("| 71 | 0.987 |", "| 71 |")
    with pytest.raises(PromptDefect, match="cells"):
        solve_prompt("tg51", 3, prompt)


def test_ncrp147_archer_parameters_that_overflow_are_a_prompt_defect() -> None:
    prompt = _prompt("ncrp147", 3).replace("| 0.6193 |", "| 6193 |")
    with pytest.raises(PromptDefect, match="finite"):
        solve_prompt("ncrp147", 3, prompt)


def test_ncrp151_negative_leakage_fraction_is_a_prompt_defect() -> None:
    """A lost space made the head leakage "-0.1%": a negative transmission, once a math domain error."""
    prompt = _prompt("ncrp151", 3)
    assert "- Head leakage: 0.1%" in prompt
    with pytest.raises(PromptDefect):
        solve_prompt("ncrp151", 3, prompt.replace("- Head leakage: 0.1%", "- Head leakage:-0.1%"))


def mangle(prompt: str, rng: random.Random, edits: int) -> str:
    """`edits` single-character replacements from a small alphabet of digits and markup (the
    alphabet of the property test in test_independent_tg43.py)."""
    chars = list(prompt)
    for _ in range(edits):
        chars[rng.randrange(len(chars))] = rng.choice("0123456789 -.:|x×^(){}\\\n")
    return "".join(chars)


@pytest.mark.parametrize("generator", GENERATORS)
def test_seeded_mangled_prompts_give_an_answer_or_a_prompt_defect(generator: str) -> None:
    """300 fixed draws per generator (seeds chosen before the fix found crashes in tg43, tg51, decay)."""
    rng = random.Random(f"mangle/{generator}")
    for _ in range(300):
        level = rng.choice((1, 2, 3))
        _answer_or_defect(generator, level, mangle(_prompt(generator, level, rng.randrange(500)), rng,
                                                   rng.randrange(1, 7)))


@pytest.mark.slow
def test_long_seeded_search_of_mangled_prompts_finds_no_crash() -> None:
    """The longer search (12,000 draws over every generator, about ten seconds): before the fix it
    met IndexError in tg43 and tg51, AssertionError in decay, OverflowError in tg43 and ncrp147."""
    rng = random.Random(20261206)
    crashes = []
    for n in range(12_000):
        generator, level = rng.choice(GENERATORS), rng.choice((1, 2, 3))
        text = mangle(_prompt(generator, level, rng.randrange(2000)), rng, rng.randrange(1, 10))
        try:
            _answer_or_defect(generator, level, text)
        except Exception as exc:  # collected, so that one run reports every kind of crash
            crashes.append(f"draw {n}: {generator} L{level}: {type(exc).__name__}: {exc}")
    assert not crashes, "\n".join(crashes[:10])
