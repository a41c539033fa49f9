"""Independent BED/EQD2 solver (linear-quadratic model, no time factor), inputs from the prompt.

BED = n d (1 + d/(α/β)) (Fowler, Br J Radiol 62, 1989); EQDX = BED/(1 + X/(α/β))
(EQD2 for X = 2 Gy); iso-effective dose per fraction from the positive root of
n2 d (1 + d/(α/β)) = BED.
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent import parse_text as pt
from physbench.suites.medphys.verify.independent.errors import PromptDefect

_DOSE_TO_GY = {"Gy": 1.0, "cGy": 0.01, "mGy": 0.001}


def bed(n: float, d_gy: float, alpha_beta_gy: float) -> float:
    """Biologically effective dose of n fractions of d, LQ model without repopulation."""
    return n * d_gy * (1.0 + d_gy / alpha_beta_gy)


def eqdx(bed_gy: float, x_gy: float, alpha_beta_gy: float) -> float:
    """Equivalent total dose in fractions of x Gy: BED/(1 + x/(α/β)); x = 2 gives EQD2."""
    return bed_gy / (1.0 + x_gy / alpha_beta_gy)


def iso_effective_dose_per_fraction(bed_gy: float, n2: float, alpha_beta_gy: float) -> float:
    """Positive root d of n2 d (1 + d/(α/β)) = BED, i.e. d² + (α/β) d - (α/β) BED/n2 = 0,
    written as 2c/(b + sqrt(b² + 4c)) to avoid cancellation."""
    if bed_gy < 0 or n2 <= 0:
        raise PromptDefect("no non-negative dose per fraction gives the required BED")
    c = alpha_beta_gy * bed_gy / n2
    return 2.0 * c / (alpha_beta_gy + math.sqrt(alpha_beta_gy**2 + 4.0 * c))


# --- reading the prompt ------------------------------------------------------------------


def _dose_gy(text: str, label: str, what: str) -> float:
    value, unit = pt.labelled_with_unit(text, label, tuple(_DOSE_TO_GY), what)
    return value * _DOSE_TO_GY[unit]


def _count(text: str, label: str, what: str) -> int:
    value = pt.labelled(text, label, what)
    if value != int(value) or value < 0:
        raise PromptDefect(f"{what} is not a whole number: {value:g}")
    return int(value)


def _no_time_factor(text: str) -> None:
    pt.requires(
        text,
        r"linear-quadratic model with no correction for overall treatment time",
        "the prompt does not say whether a time (repopulation) factor is used",
    )


def _structure_dose_per_fraction(text: str) -> tuple[float, float, float]:
    """(n, d to the structure in Gy, α/β in Gy) for levels 1-2."""
    n = _count(text, r"- Number of fractions:", "the number of fractions")
    d_rx = _dose_gy(text, r"- Prescribed dose per fraction:", "the prescribed dose per fraction")
    structure = pt.one_match(text, r"- Structure: ([^\n]+)", "the structure").group(1).strip()
    name = re.escape(structure)
    pct = pt.labelled(
        text, rf"- Dose per fraction to the {name}:", f"the dose per fraction to the {structure}", "%"
    )
    pt.requires(text, rf"{name}:[ \t]*{pt.NUMBER}% of the prescribed dose per fraction",
                "the structure's dose is not stated relative to the prescribed dose per fraction")
    alpha_beta = _dose_gy(text, rf"- α/β of the {name}:", f"α/β of the {structure}")
    return n, d_rx * pct / 100.0, alpha_beta


def _asked_gy(text: str) -> tuple[str, float]:
    unit = pt.boxed_unit(text)
    if unit not in _DOSE_TO_GY:
        raise PromptDefect(f"the answer is asked in {unit!r}, not a dose unit")
    return unit, 1.0 / _DOSE_TO_GY[unit]


# --- levels ------------------------------------------------------------------------------


def _level1(text: str) -> tuple[float, str]:
    """BED of the course to the structure."""
    _no_time_factor(text)
    pt.requires(text, r"biologically effective dose \(BED\)", "the prompt does not ask for the BED")
    n, d, alpha_beta = _structure_dose_per_fraction(text)
    unit, factor = _asked_gy(text)
    return bed(n, d, alpha_beta) * factor, unit


def _level2(text: str) -> tuple[float, str]:
    """EQDX (EQD2) of the course to the structure."""
    _no_time_factor(text)
    q = pt.one_match(
        text,
        r"EQD(\d+(?:\.\d+)?) \(equivalent total dose in (\d+(?:\.\d+)?) Gy fractions\)",
        "which equivalent dose (EQDX) is asked for",
    )
    if float(q.group(1)) != float(q.group(2)):
        raise PromptDefect("the EQD label and its reference fraction size disagree")
    n, d, alpha_beta = _structure_dose_per_fraction(text)
    unit, factor = _asked_gy(text)
    return eqdx(bed(n, d, alpha_beta), float(q.group(2)), alpha_beta) * factor, unit


def _level3(text: str) -> tuple[float, str]:
    """Dose per fraction of the new fractions that keep the planned BED in the stated tissue."""
    _no_time_factor(text)
    pt.requires(
        text,
        r"must have the same biologically effective dose in this tissue as the course originally planned",
        "the prompt does not say which biological effect the new fractions must keep",
    )
    n = _count(text, r"- Planned number of fractions:", "the planned number of fractions")
    d = _dose_gy(text, r"- Planned dose per fraction:", "the planned dose per fraction")
    k = _count(text, r"- Fractions already delivered:", "the number of fractions delivered")
    n2 = _count(text, r"- Number of new fractions for the rest of the course:", "the number of new fractions")
    tissue = pt.one_match(text, r"- Tissue whose biological effect must be kept: ([^\n]+)", "the tissue")
    if not tissue.group(1).rstrip().endswith("which receives the prescribed dose"):
        raise PromptDefect("the dose per fraction the kept tissue receives is not stated")
    alpha_beta = _dose_gy(text, r"- α/β of that tissue:", "α/β of the tissue")
    asked_n2 = _count(text, r"dose per fraction of each of the", "the number of new fractions asked about")
    if asked_n2 != n2 or k > n:
        raise PromptDefect("the numbers of fractions are inconsistent")
    remaining = bed(n, d, alpha_beta) - bed(k, d, alpha_beta)  # BED is additive over fractions
    unit, factor = _asked_gy(text)
    return iso_effective_dose_per_fraction(remaining, n2, alpha_beta) * factor, unit


_LEVELS = {1: _level1, 2: _level2, 3: _level3}


def solve(level: int, prompt: str) -> tuple[float, str]:
    """The answer (value, unit) to a BED/EQD2 calculation prompt of ``level``."""
    if level not in _LEVELS:
        raise ValueError(f"bed has levels 1-3, not {level!r}")
    return pt.finite_answer(_LEVELS[level], pt.checked(prompt))
