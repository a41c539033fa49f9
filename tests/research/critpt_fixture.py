"""A small official-format CritPt release for tests (the mirror is not available in CI): a synthetic
notebook with a tag, setup, main problem, two subproblems, answers and a detailed solution; a test
challenge in the JSON form with a private answer; and the shipped example challenge."""

from __future__ import annotations

import json
from pathlib import Path

SECRET = "SOLUTION-WALKTHROUGH-NEVER-SHOWN"


def md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": text.splitlines(keepends=True)}


TEMPLATE = ("import sympy as sp\n\ng = sp.symbols('g')\n\ndef answer(g):\n    r\"\"\"Return E as a SymPy expression.\"\"\"\n"
            "    E = ...\n    return E")
TEMPLATE_N = "def answer():\n    n = ...\n    return n"


def notebook() -> dict:
    """An official-format challenge notebook: Tag, setup, main problem with template / answer /
    answer code, two subproblems, and a detailed solution with code that no prompt may carry."""
    cells = [
        md(' # Tag:\n "Condensed Matter Physics"\n'),
        md("\n\n# Problem setup:\nA two-level system has splitting $2g$."),
        md("More setup: take $\\hbar = 1$."),
        md("# Main problem:\n\nWhat is the ground-state energy as a function of $g$?"),
        md("### Parsing template:"), code(TEMPLATE),
        md("### Answer:\n$E = -g$"),
        md("### Answer code:"), code("E = -g"),
        md("# Subproblems"),
        md("## Subproblem 1:\n\nHow many levels are there?"),
        md("### Parsing template"), code(TEMPLATE_N),
        md("### Answer:\n$2$"),
        md("### Answer code:"), code("n = 2"),
        md("## Subproblem 2:\n\nWhat is the splitting squared, as a function of $g$?"),
        md("### Parsing template"), code(TEMPLATE.replace("E = ...", "E = ...").replace("E", "D")),
        md("### Answer:\n$4g^2$"),
        md("### Answer code:"), code("D = 4*g**2"),
        md("# Detailed solution:\n" + SECRET),
        code("print('" + SECRET + "')"),
    ]
    return {"nbformat": 4, "nbformat_minor": 0, "metadata": {}, "cells": cells}


def private_challenge(name: str = "Challenge_7") -> dict:
    """A test challenge in the JSON form: main problem only, answer private (empty)."""
    setup = "# Problem setup:\nA ring of N spins."
    return {"dataset_name": name, "source_notebook": f"data/public_test_challenges/{name}.ipynb", "problems": [{
        "problem_id": f"{name}_main", "problem_type": "main", "problem_index": None,
        "problem_description": f"{setup}\n\n# Main problem:\nGive the coefficients.",
        "code_template": "def answer():\n    coeffs = ...\n    return coeffs",
        "answer_code": "def answer():\n    coeffs = ...\n    return coeffs", "answer_only_code": "",
        "testcases": None, "metadata": {"settings": {}, "tag": "", "problem_setup": setup}}]}


def write_release(root: Path, n_private: int = 2) -> Path:
    """data/ with one notebook challenge and `n_private` private test challenges (JSON form)."""
    (root / "example").mkdir(parents=True, exist_ok=True)
    (root / "example" / "two_level.ipynb").write_text(json.dumps(notebook()))
    (root / "tests" / "json").mkdir(parents=True, exist_ok=True)
    for i in range(n_private):
        (root / "tests" / "json" / f"Challenge_{i + 1}.json").write_text(json.dumps(private_challenge(f"Challenge_{i + 1}")))
    return root
