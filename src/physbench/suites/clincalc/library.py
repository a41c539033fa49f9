"""The library as an answerer: the seam the gold-solve-library and extract-solve-library arms call.

A library subset restricts the library to some calculator ids (the paper compares against a
22-calculator library); outside it the library abstains.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping

from physbench.core.errors import UserError
from physbench.suites.clincalc.calculators import CALCULATORS, compute
from physbench.suites.clincalc.dataset import Row
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.scoring import gold_of, matches

LIBRARY_OUTCOMES = ("correct", "wrong", "abstained")
MAX_SUBSET_BYTES = 1_000_000


def library_subset(ids: Iterable[Any] | None) -> frozenset[int] | None:
    """A validated set of calculator ids (None: the whole library)."""
    if ids is None:
        return None
    out: set[int] = set()
    for raw in ids:
        try:
            n = int(str(raw).strip())
        except ValueError:
            raise UserError(f"library subset: {raw!r} is not a calculator id") from None
        if n not in CALCULATORS:
            raise UserError(f"library subset: {n} is not a MedCalc-Bench Verified calculator id")
        out.add(n)
    return frozenset(out)


def load_library_subset(path: str | Path) -> frozenset[int]:
    """Calculator ids from a file: a JSON list, or ids separated by commas, spaces or lines ('#' comments)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_SUBSET_BYTES:
            raise UserError(f"{p}: a library subset file is at most {MAX_SUBSET_BYTES} bytes")
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read library subset {p}: {getattr(exc, 'strerror', None) or exc}") from None
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            ids = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise UserError(f"{p}: not a JSON list of ids ({exc.msg})") from None
        if not isinstance(ids, list):
            raise UserError(f"{p}: not a JSON list of ids")
    else:
        ids = [t for line in text.splitlines() for t in re.split(r"[,\s]+", line.split("#", 1)[0]) if t]
    subset = library_subset(ids)
    if not subset:
        raise UserError(f"{p}: the library subset names no calculator")
    return subset  # type: ignore[return-value]


def library_answer(calc_id: int, entities: Mapping[str, Any], subset: frozenset[int] | None = None,
                   formulas: str | None = None) -> tuple[Any, str]:
    """(answer, '') from the library under a formula version (None: the default, `benchmark`), or
    (None, why) when it abstains (outside the subset, or the entities are not usable)."""
    if calc_id not in CALCULATORS:
        return None, f"calculator {calc_id} is not in the library"
    if subset is not None and calc_id not in subset:
        return None, f"calculator {calc_id} is outside the library subset"
    try:
        return compute(calc_id, entities, formulas), ""
    except EntityError as exc:
        return None, f"invalid entities: {exc}"


def gold_answer(row: Row, subset: frozenset[int] | None = None, formulas: str | None = None) -> tuple[Any, str]:
    """The gold-solve-library arm on one row: the library on the row's gold Relevant Entities,
    scored by the benchmark's rule. Returns (answer, outcome), outcome in LIBRARY_OUTCOMES."""
    answer, why = library_answer(row.calculator_id, row.entities, subset, formulas)
    if answer is None:
        return None, "abstained"
    return answer, "correct" if matches(answer, gold_of(row)) else "wrong"
