"""What each clincalc arm shows the model (003_* Table 1 and Appendix A.1: formula access, variable
access, note length), in this package's own words, and the oracle program of a gold answer."""

from __future__ import annotations

from typing import Any

from physbench.suites.clincalc.formulas import conventions_text, formula_text

SYSTEM = ("You are a careful clinical calculation assistant. Use the patient's values as first recorded, "
          "before any treatment, unless the question says otherwise.")
ANSWER_LINE = ("End your reply with one line of the form 'Final answer: X', where X is only the number, "
               "the date (MM/DD/YYYY) or the (weeks, days) pair the question asks for.")
PROGRAM_TASK = ("Write a Python function `solve()` that takes no arguments and returns the answer: a number "
                "for a value or a score, a date as a 'MM/DD/YYYY' string or a datetime.date, and a "
                "(weeks, days) tuple of integers for a gestational age. Put the patient's values into the "
                "program yourself; variable names must be valid Python identifiers. The notes write dates "
                "month/day/year: build each date from its three numbers and use datetime.timedelta for "
                "day arithmetic. Only the modules math and datetime can be imported. Reply with the "
                "program in one ```python fenced block.")
EXTRACT_TASK = ("Do not calculate. Read the note and give the variables this calculator needs as one JSON "
                "object: each key a variable name as in the example below, each value a number, a "
                "[number, \"unit\"] pair, a \"MM/DD/YYYY\" date or true/false. Reply with the JSON object only.")


def _formula(calc_id: int) -> str:
    return f"Formula:\n{formula_text(calc_id)}\n\nConventions:\n{conventions_text()}"


def messages(row: Any, arm: str) -> tuple[str, str]:
    """(system, user) for one row under one arm."""
    parts = [f"Patient note:\n{row.patient_note}", f"Question: {row.question}"]
    if arm in ("open-book", "program"):  # formula text and gold variables given (Program-Solve's inputs)
        parts += [_formula(row.calculator_id), f"Variables (from the note): {row.entities_text}"]
    if arm in ("program", "blind-program"):
        parts.append(PROGRAM_TASK)
    elif arm == "extract-library":
        names = ", ".join(f'"{k}"' for k in row.entities)
        parts.append(f"{EXTRACT_TASK}\nVariables the calculator reads: {names}.")
    else:
        parts.append(ANSWER_LINE)
    return SYSTEM, "\n\n".join(parts)


def oracle_program(calc_id: int, gold: str) -> str:
    """A program that returns the gold answer in the form the scorer reads."""
    from physbench.suites.clincalc.scoring import kind_of, parse_gold

    kind = kind_of(calc_id)
    value = parse_gold(calc_id, gold, gold, gold).value if kind != "decimal" else float(gold)
    if kind == "date":
        body = f"return {value.strftime('%m/%d/%Y')!r}"
    elif kind == "gestational_age":
        body = f"return ({value[0]}, {value[1]})"
    else:
        body = f"return {value!r}"
    return f"```python\ndef solve():\n    {body}\n```"
