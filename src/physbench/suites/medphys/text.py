"""Shared wording of medphys prompts: system prompts, tables, lists and the answer request."""

from __future__ import annotations

from typing import Sequence

SYSTEM_CALCULATION = (
    "You are a medical physicist working through a calculation. Show your working, then state the "
    "final answer with its unit as \\boxed{value unit}."
)

SYSTEM_CHECK = (
    "You are a medical physicist reviewing a colleague's calculation before it is used clinically. "
    "Work through it, then answer with one JSON object in the requested schema, inside a ```json code block."
)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown pipe table; every cell is already formatted text."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def bullets(lines: Sequence[str]) -> str:
    """A list of inputs, one per line."""
    return "\n".join(f"- {line}" for line in lines)


def ask(quantity: str, unit: str, precision: str) -> str:
    """The closing request of a calculation prompt: quantity, unit, precision and the boxed form."""
    if unit:
        return (f"Calculate {quantity}, in {unit}. Give {precision} and write the final answer as "
                f"\\boxed{{value {unit}}}.")
    return (f"Calculate {quantity} (a pure number, no unit). Give {precision} and write the final answer "
            f"as \\boxed{{value}}.")
