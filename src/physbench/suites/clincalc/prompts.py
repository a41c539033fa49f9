"""What each clincalc arm shows the model (003_* Table 1, Appendix A.1 and Table 16: formula access,
variable access, note budget, worked example), in this package's own words, and the oracle replies."""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache
from typing import Any

from physbench.suites.clincalc.formulas import conventions_text, formula_text

SYSTEM = ("You are a careful clinical calculation assistant. Use the patient's values as first recorded, "
          "before any treatment, unless the question says otherwise.")
STEP_BY_STEP = "Work through the calculation step by step, showing each intermediate value."
ANSWER_LINE = ("End your reply with one line of the form 'Final answer: X', where X is only the number, "
               "the date (MM/DD/YYYY) or the (weeks, days) pair the question asks for.")
PROGRAM_TASK = ("Write a Python function `solve()` that takes no arguments and returns the answer: a number "
                "for a value or a score, a date as a 'MM/DD/YYYY' string or a datetime.date, and a "
                "(weeks, days) tuple of integers for a gestational age. Put the patient's values into the "
                "program yourself. Only the modules math, datetime, time and calendar can be imported.")
# Program-Solve + syntax (003_* Table 5): two lines about the language and the notes, none about the calculation
SYNTAX_LINES = ("Variable names must be valid Python identifiers: lowercase words joined by underscores, "
                "never the name of the calculation.",
                "The notes write dates as month/day/year: build each date from its three numbers yourself "
                "and add or subtract days with the datetime module.")
FENCE_LINE = "Reply with the program in one ```python fenced block."
EXTRACT_TASK = ("Do not calculate. Read the note and give the variables this calculator needs as one JSON "
                "object: each key one of the variable names listed below, each value a number, a "
                "[number, \"unit\"] pair, a \"MM/DD/YYYY\" date or true/false. Leave out a variable the note "
                "does not give. Reply with the JSON object only.")
TREE_TASK = ("Do not write a program. Name the calculation this question needs, state its formula on one line, "
             "list the numeric values you read from the note under short variable names, list under "
             "\"missing\" any variable the formula needs that the note does not give, and give the calculation "
             "as an expression tree.")

NOTE_ONLY_WORDS = 120       # note budget of the note-only arms (Table 16)
PAGE_WORDS = 250            # note budget of page-without-formula (Table 16)
EXAMPLE_NOTE_WORDS = 24     # the worked example's note (Appendix A.1)
EXAMPLE_EXPLANATION_WORDS = 40
FIXED_EXAMPLE_SEED = 42     # arms whose worked example does not move with the seed use seed 42's


def first_words(text: str, n: int) -> str:
    """The first n whitespace-separated words of text (all of it when n is 0 or the text is shorter)."""
    words = text.split()
    return " ".join(words if n <= 0 or len(words) <= n else words[:n])


def note_key(note: str) -> str:
    """A short digest naming a note, so a case is never its own worked example."""
    return hashlib.sha256(note.encode("utf-8")).hexdigest()[:16]


@lru_cache(maxsize=1)
def _examples() -> tuple[tuple[str, str], ...]:
    """(note digest, worked-example text) for every row of the shipped one-shot split, in file order."""
    from physbench.suites.clincalc.dataset import load_one_shot

    out = []
    for row in load_one_shot().rows:
        text = (f"Example patient note (shortened):\n{first_words(row.patient_note, EXAMPLE_NOTE_WORDS)}\n"
                f"Example question: {row.question}\n"
                f"Example working (shortened): {first_words(row.explanation, EXAMPLE_EXPLANATION_WORDS)}\n"
                f"Final answer: {row.ground_truth}")
        out.append((note_key(row.patient_note), text))
    return tuple(out)


def worked_example(seed: int, exclude: str = "") -> str:
    """The one-shot worked example the seed chooses: the first row of the seed's shuffle of the
    one-shot split whose note is not the case's own (`exclude`, a note digest)."""
    order = list(range(len(_examples())))
    random.Random(seed).shuffle(order)
    for i in order:
        key, text = _examples()[i]
        if key != exclude:
            return text
    return ""


def _formula(calc_id: int, formulas: str = "benchmark") -> str:
    return f"Formula:\n{formula_text(calc_id, formulas)}\n\nConventions:\n{conventions_text(formulas)}"


def _variables(row: Any) -> str:
    return f"Variables (from the note): {row.entities_text}"


def case_text(row: Any, arm: str, note_words: int | None = None) -> str:
    """The part of a note-only prompt after the worked example (the same for every seed); the note cut
    to NOTE_ONLY_WORDS, or to `note_words` (the 250-word one-shot arms of Table 20)."""
    n = note_words or NOTE_ONLY_WORDS
    parts = [f"Patient note (first {n} words):\n{first_words(row.patient_note, n)}",
             f"Question: {row.question}"]
    if arm == "note-only-gold":
        parts.append(_variables(row))
    return "\n\n".join([*parts, STEP_BY_STEP, ANSWER_LINE])


def note_only_user(example: str, case: str) -> str:
    """A note-only user message: the worked example, then the case."""
    return f"{example}\n\nNow the case to solve.\n\n{case}" if example else case


def extraction(row: Any, note_words: int | None = None) -> tuple[str, str]:
    """(system, user) of the Extract-Solve call: the whole note (or its first `note_words` words, the
    250-word ablation of Table 6), the calculator's name and its variables."""
    from physbench.suites.clincalc.calculators import get

    calc = get(row.calculator_id)
    names = ", ".join(f'"{k}"' for k in (calc.entities or tuple(row.entities)))
    note = (f"Patient note (first {note_words} words):\n{first_words(row.patient_note, note_words)}" if note_words
            else f"Patient note:\n{row.patient_note}")
    user = (f"{note}\n\nCalculator: {calc.name}\n\n{EXTRACT_TASK}\n"
            f"Variables the calculator reads: {names}.")
    return SYSTEM, user


def messages(row: Any, prompt: str, seed: int = FIXED_EXAMPLE_SEED, formulas: str = "benchmark",
             note_words: int | None = None) -> tuple[str, str]:
    """(system, user) for one row under one prompt kind (see arms.PROMPTS); formula texts in `formulas`;
    `note_words` caps the note of the note-only and extraction prompts."""
    from physbench.suites.clincalc.tree import describe

    note, question = f"Patient note:\n{row.patient_note}", f"Question: {row.question}"
    if prompt in ("note-only", "note-only-gold"):
        return SYSTEM, note_only_user(worked_example(seed, note_key(row.patient_note)),
                                      case_text(row, prompt, note_words))
    if prompt == "page-without-formula":
        page = f"Patient note (first {PAGE_WORDS} words):\n{first_words(row.patient_note, PAGE_WORDS)}"
        return SYSTEM, "\n\n".join([page, question, _variables(row), STEP_BY_STEP, ANSWER_LINE])
    if prompt == "open-book-arithmetic":
        return SYSTEM, "\n\n".join([note, question, _formula(row.calculator_id, formulas), _variables(row),
                                    STEP_BY_STEP, ANSWER_LINE])
    if prompt == "extraction":
        return extraction(row, note_words)
    if prompt == "tree":
        return SYSTEM, "\n\n".join([note, question, TREE_TASK, describe()])
    if prompt in ("program-solve", "program-solve-syntax"):
        task = [PROGRAM_TASK, *(SYNTAX_LINES if prompt == "program-solve-syntax" else ()), FENCE_LINE]
        return SYSTEM, "\n\n".join([note, question, _formula(row.calculator_id, formulas), _variables(row),
                                    " ".join(task)])
    if prompt == "blind-program":
        return SYSTEM, "\n\n".join([note, question, f"{PROGRAM_TASK} {FENCE_LINE}"])
    raise ValueError(f"unknown clincalc prompt {prompt!r}")


def oracle_program(calc_id: int, gold: str) -> str:
    """A program that returns the gold answer in the form the scorer reads."""
    value = _gold_value(calc_id, gold)
    body = f"return {value!r}" if not isinstance(value, tuple) else f"return ({value[0]}, {value[1]})"
    return f"```python\ndef solve():\n    {body}\n```"


def oracle_tree(calc_id: int, gold: str) -> str:
    """A Formulate-Solve reply whose tree is the gold number."""
    import json

    return json.dumps({"calculation": "gold", "formula": "answer = gold", "variables": {"gold": float(gold)},
                       "missing": [], "tree": {"var": "gold"}})


def _gold_value(calc_id: int, gold: str) -> Any:
    from physbench.suites.clincalc.scoring import kind_of, parse_gold

    kind = kind_of(calc_id)
    if kind == "decimal":
        return float(gold)
    value = parse_gold(calc_id, gold, gold, gold).value
    return value.strftime("%m/%d/%Y") if kind == "date" else value
