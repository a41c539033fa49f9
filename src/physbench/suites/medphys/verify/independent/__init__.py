"""Second implementation of the medphys solvers, written from the specification and the
printed prompts alone (seed 000, "A second implementation").

Each generator has a module ``<generator>.py`` here with
``solve(level, prompt) -> (value, unit)``; it reads every input from the prompt text and
raises :class:`PromptDefect` when an input or convention cannot be read. Modules are loaded
on first use, so a new generator needs only its own module.
"""

from __future__ import annotations

import importlib
import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_text import finite_answer

__all__ = ["PromptDefect", "solve_prompt"]

_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def solve_prompt(generator: str, level: int, prompt: str) -> tuple[float, str]:
    """Answer (value, unit) of one calculation prompt, recomputed by ``<generator>.solve``."""
    if not _NAME.fullmatch(generator):
        raise ValueError(f"not a generator name: {generator!r}")
    try:
        module = importlib.import_module(f"{__name__}.{generator}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{generator}":
            raise
        raise ValueError(f"no independent solver for generator {generator!r}") from None
    # arithmetic with no finite answer (an overflow, a log of a negative number) is the prompt's defect
    return finite_answer(lambda text: module.solve(level, text), prompt)  # type: ignore[no-any-return]
