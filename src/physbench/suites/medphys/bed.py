"""Fractionation in the linear-quadratic model: BED, EQD2 and iso-effective re-planning (levels 1-3).

Level 1: the BED that a structure receives from a regimen (formula printed). Level 2: its EQD2,
with the dose per fraction in cGy and no formula printed. Level 3: after some fractions of a course
have been given, the dose per fraction of a new schedule for the rest of the course that keeps the
course's BED, from the quadratic in d (seed 000, "Generator specifications"). No time factor.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec
from physbench.suites.medphys.text import ask, bullets

PRECISION = "at least three significant figures"

# Structures with an alpha/beta (Gy) commonly used for them, and the share of the prescribed dose
# per fraction they receive (%): organs at risk below or near it, targets near 100%.
STRUCTURES: dict[str, tuple[float, float, float]] = {
    "spinal cord": (2.0, 30.0, 95.0),
    "brainstem": (2.0, 30.0, 102.0),
    "optic chiasm": (2.0, 30.0, 102.0),
    "heart": (2.5, 30.0, 100.0),
    "rectal wall": (3.0, 40.0, 105.0),
    "lung": (3.0, 30.0, 100.0),
    "parotid gland": (3.0, 30.0, 100.0),
    "skin (acute reaction)": (10.0, 40.0, 105.0),
    "oral mucosa (acute reaction)": (10.0, 60.0, 105.0),
    "prostate tumour": (1.5, 95.0, 107.0),
    "breast tumour": (4.0, 95.0, 107.0),
    "head and neck squamous cell carcinoma": (10.0, 95.0, 107.0),
}
# Tissues whose BED a re-plan keeps (they receive the prescribed dose): alpha/beta in Gy
REPLAN_TISSUES: dict[str, float] = {
    "the tumour (head and neck squamous cell carcinoma)": 10.0,
    "the tumour (non-small-cell lung cancer)": 10.0,
    "the prostate tumour": 1.5,
    "late-responding normal tissue within the target": 3.0,
}


@dataclass(frozen=True)
class BedCourse:  # level 1
    structure: str
    alpha_beta_gy: float  # 1 decimal
    n_fractions: int
    d_rx_gy: float  # prescribed dose per fraction, 2 decimals
    percent_of_rx: float  # the structure's dose per fraction as % of the prescribed one, 1 decimal


@dataclass(frozen=True)
class Eqd2Course:  # level 2
    structure: str
    alpha_beta_gy: float
    n_fractions: int
    d_rx_cgy: float  # prescribed dose per fraction in cGy, integer-valued
    percent_of_rx: float


@dataclass(frozen=True)
class Replan:  # level 3
    tissue: str
    alpha_beta_gy: float
    n_planned: int
    d_planned_gy: float  # 2 decimals
    n_delivered: int
    n_new: int


# --- linear-quadratic model --------------------------------------------------------------------------

def bed(n: float, d_gy: float, alpha_beta: float) -> float:
    """Biologically effective dose, BED = n d (1 + d/(a/b)) (Fowler 1989, Br J Radiol 62:679-694)."""
    return n * d_gy * (1.0 + d_gy / alpha_beta)


def eqd2(bed_gy: float, alpha_beta: float) -> float:
    """Equivalent dose in 2 Gy fractions, EQD2 = BED/(1 + 2/(a/b)) (Joiner & van der Kogel, Basic
    Clinical Radiobiology, ch. 8; ICRU/ICRPaedia EQDX with X = 2)."""
    return bed_gy / (1.0 + 2.0 / alpha_beta)


def iso_effective_d(target_bed: float, n: int, alpha_beta: float, sign: float = -1.0) -> float:
    """Dose per fraction d with n d (1 + d/(a/b)) = BED: the positive root of
    d^2 + (a/b) d - (a/b) BED/n = 0, d = [-(a/b) + sqrt((a/b)^2 + 4 (a/b) BED/n)]/2.
    `sign=+1` is the sign error of Table 6 ([+(a/b) + sqrt(...)]/2)."""
    root = math.sqrt(alpha_beta * alpha_beta + 4.0 * alpha_beta * target_bed / n)
    return (sign * alpha_beta + root) / 2.0


# --- solvers and error modes (one function per level; `mode` names the Table 6 error) -------------------

def structure_dose_per_fraction(p: BedCourse | Eqd2Course, mode: str | None) -> float:
    """The dose per fraction (Gy) that the structure receives (or the prescription, a mode)."""
    d_rx = p.d_rx_gy if isinstance(p, BedCourse) else p.d_rx_cgy / 100.0
    return d_rx if mode == "prescribed_dose" else d_rx * p.percent_of_rx / 100.0


def course_bed(p: BedCourse | Eqd2Course, mode: str | None) -> float:
    d = structure_dose_per_fraction(p, mode)
    if mode == "no_fractionation":
        return p.n_fractions * d
    if mode == "total_for_d":
        total = p.n_fractions * d
        return total * (1.0 + total / p.alpha_beta_gy)
    return bed(p.n_fractions, d, p.alpha_beta_gy)


def bed_level(p: BedCourse, mode: str | None = None) -> float:
    """Level 1: BED of the structure for the course (Gy)."""
    return course_bed(p, mode)


def eqd2_level(p: Eqd2Course, mode: str | None = None) -> float:
    """Level 2: EQD2 of the structure for the course (Gy); cGy per fraction converted to Gy."""
    if mode == "no_fractionation":  # the physical dose reported as the EQD2
        return course_bed(p, mode)
    b = course_bed(p, mode)
    if mode == "bed_as_eqd2":
        return b
    return eqd2(b, 10.0 if mode == "eqd2_ab10" else p.alpha_beta_gy)


def replan_level(p: Replan, mode: str | None = None) -> float:
    """Level 3: dose per fraction of the new fractions that keeps the course's BED (Gy).

    BED still to deliver = BED(planned course) - BED(delivered fractions) = BED of the remaining
    planned fractions; then n_new d (1 + d/(a/b)) = that BED, solved for d."""
    ab, remaining = p.alpha_beta_gy, p.n_planned - p.n_delivered
    if mode == "no_fractionation":  # the remaining physical dose matched instead of the BED
        return remaining * p.d_planned_gy / p.n_new
    target = bed(p.n_planned if mode == "delivered_ignored" else remaining, p.d_planned_gy, ab)
    d = iso_effective_d(target, p.n_new, ab, +1.0 if mode == "quadratic_sign" else -1.0)
    return p.n_new * d if mode == "total_dose_reported" else d


# --- sampling and plausibility -------------------------------------------------------------------------

def _regimen(rng: random.Random) -> tuple[int, float]:
    """A prescription (fractions, Gy per fraction): conventional, moderately hypofractionated or SBRT."""
    kind = rng.random()
    if kind < 0.5:
        return rng.randint(23, 40), dec(rng.choice((1.8, 2.0, 2.0, 2.2, rng.uniform(1.8, 2.2))), 2)
    if kind < 0.8:
        return rng.randint(5, 20), dec(rng.uniform(2.5, 4.0), 2)
    return rng.randint(1, 5), dec(rng.uniform(6.0, 15.0), 1)


def _structure(rng: random.Random, names: tuple[str, ...] = tuple(STRUCTURES)) -> tuple[str, float, float]:
    name = rng.choice(names)
    ab, lo, hi = STRUCTURES[name]
    return name, ab, dec(rng.uniform(lo, hi), 1)


def sample_l1(rng: random.Random) -> BedCourse:
    name, ab, pct = _structure(rng)
    n, d = _regimen(rng)
    return BedCourse(name, ab, n, d, pct)


# EQD2 items ask about endpoints whose alpha/beta is not 10 Gy (late effects, low-alpha/beta tumours)
EQD2_STRUCTURES = tuple(name for name, (ab, _, _) in STRUCTURES.items() if ab != 10.0)


def sample_l2(rng: random.Random) -> Eqd2Course:
    name, ab, pct = _structure(rng, EQD2_STRUCTURES)
    n, d = _regimen(rng)
    return Eqd2Course(name, ab, n, dec(d * 100.0, 0), pct)


def sample_l3(rng: random.Random) -> Replan:
    tissue = rng.choice(tuple(REPLAN_TISSUES))
    if rng.random() < 0.7:
        n1, d1 = rng.randint(20, 40), dec(rng.choice((1.8, 2.0, 2.0, 2.2, rng.uniform(1.8, 2.2))), 2)
    else:
        n1, d1 = rng.randint(10, 20), dec(rng.uniform(2.5, 3.5), 2)
    k = rng.randint(1, n1 - 3)
    remaining = n1 - k
    return Replan(tissue, REPLAN_TISSUES[tissue], n1, d1, k, rng.randint(max(1, round(0.3 * remaining)),
                                                                         max(2, round(1.5 * remaining))))


def _course_rules(p: BedCourse | Eqd2Course) -> list[str]:
    out = []
    d = structure_dose_per_fraction(p, None)
    if p.structure not in STRUCTURES:
        out.append("structure not one of the generator's structures")
    if not 0.5 <= p.alpha_beta_gy <= 20.0:
        out.append("alpha/beta outside 0.5-20 Gy")
    if not 1 <= p.n_fractions <= 45:
        out.append("number of fractions outside 1-45")
    if not 10.0 <= p.percent_of_rx <= 110.0:
        out.append("structure dose outside 10-110% of the prescription")
    if not 0.3 <= d <= 16.0:
        out.append("structure dose per fraction outside 0.3-16 Gy")
    if p.n_fractions * d > 85.0:
        out.append("structure total dose above 85 Gy")
    return out


def violations_l1(p: BedCourse) -> list[str]:
    return _course_rules(p)


def violations_l2(p: Eqd2Course) -> list[str]:
    out = _course_rules(p)
    if p.d_rx_cgy != round(p.d_rx_cgy):
        out.append("dose per fraction in cGy not a whole number")
    return out


def violations_l3(p: Replan) -> list[str]:
    out = []
    if p.tissue not in REPLAN_TISSUES:
        out.append("tissue not one of the generator's tissues")
    if not 0.5 <= p.alpha_beta_gy <= 20.0:
        out.append("alpha/beta outside 0.5-20 Gy")
    if not 1 <= p.n_delivered <= p.n_planned - 1 or p.n_new < 1:
        out.append("delivered fractions must leave some of the course, and the new schedule has fractions")
        return out
    if p.n_new == p.n_planned - p.n_delivered:
        out.append("new schedule has as many fractions as remain (no change)")
    if not 1.0 <= replan_level(p) <= 12.0:
        out.append("new dose per fraction outside 1-12 Gy")
    return out


# --- prompts ---------------------------------------------------------------------------------------------

LQ_NOTE = "Use the linear-quadratic model with no correction for overall treatment time."


def _course_facts(p: BedCourse | Eqd2Course) -> list[str]:
    per_fraction = (f"{fmt_dec(p.d_rx_gy, 2)} Gy" if isinstance(p, BedCourse) else f"{fmt_dec(p.d_rx_cgy, 0)} cGy")
    return [f"Number of fractions: {p.n_fractions}",
            f"Prescribed dose per fraction: {per_fraction}",
            f"Structure: {p.structure}",
            f"Dose per fraction to the {p.structure}: {fmt_dec(p.percent_of_rx, 1)}% of the prescribed dose per fraction",
            f"α/β of the {p.structure}: {fmt_dec(p.alpha_beta_gy, 1)} Gy"]


def quantity_l1(p: BedCourse) -> str:
    return f"the biologically effective dose (BED) to the {p.structure} for the whole course"


def quantity_l2(p: Eqd2Course) -> str:
    return f"the EQD2 (equivalent total dose in 2 Gy fractions) to the {p.structure} for the whole course"


def quantity_l3(p: Replan) -> str:
    return f"the dose per fraction of each of the {p.n_new} new fractions"


def prompt_l1(p: BedCourse) -> str:
    return "\n\n".join([
        "An external-beam radiotherapy course is delivered in equal fractions.",
        bullets(_course_facts(p)),
        LQ_NOTE + " BED = n × d × (1 + d/(α/β)), with n the number of fractions and d the dose per fraction.",
        ask(quantity_l1(p), "Gy", PRECISION),
    ])


def prompt_l2(p: Eqd2Course) -> str:
    return "\n\n".join([
        "An external-beam radiotherapy course is delivered in equal fractions.",
        bullets(_course_facts(p)),
        LQ_NOTE,
        ask(quantity_l2(p), "Gy", PRECISION),
    ])


def prompt_l3(p: Replan) -> str:
    return "\n\n".join([
        "A radiotherapy course was planned in equal fractions. Part of it has been delivered as planned; the rest "
        "of the course will now be given in a new number of equal fractions.",
        bullets([f"Planned number of fractions: {p.n_planned}",
                 f"Planned dose per fraction: {fmt_dec(p.d_planned_gy, 2)} Gy",
                 f"Fractions already delivered: {p.n_delivered}",
                 f"Number of new fractions for the rest of the course: {p.n_new}",
                 f"Tissue whose biological effect must be kept: {p.tissue}, which receives the prescribed dose",
                 f"α/β of that tissue: {fmt_dec(p.alpha_beta_gy, 1)} Gy"]),
        LQ_NOTE + " The whole course (fractions delivered plus new fractions) must have the same biologically "
        "effective dose in this tissue as the course originally planned.",
        ask(quantity_l3(p), "Gy", PRECISION),
    ])


# --- error modes (seed 000, Table 6) ------------------------------------------------------------------

_LEVELS: dict[int, Callable[..., float]] = {1: bed_level, 2: eqd2_level, 3: replan_level}


def _solve(level: int, p: object) -> float:
    return _LEVELS[level](p)


def _mode_answer(mode: str, level: int, p: object) -> float:
    return _LEVELS[level](p, mode)


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("no_fractionation", "fractionation ignored (d/(α/β) term omitted), so the physical dose is reported; "
          "at L3 the remaining physical dose is matched", "conceptual", (1, 2, 3)),
    _mode("prescribed_dose", "prescribed dose per fraction used instead of the dose the structure receives",
          "conceptual", (1, 2)),
    _mode("eqd2_ab10", "EQD2 denominator 1 + 2/10 used whatever the endpoint's α/β", "conceptual", (2,)),
    _mode("bed_as_eqd2", "BED reported as the EQD2", "conceptual", (2,)),
    _mode("total_for_d", "total dose used for the dose per fraction in d/(α/β)", "conceptual", (1, 2)),
    _mode("quadratic_sign", "sign error in the quadratic formula, d2 = [α/β + √(...)]/2", "arithmetic", (3,)),
    _mode("total_dose_reported", "total dose n2 d2 reported instead of the dose per fraction", "conceptual", (3,)),
    _mode("delivered_ignored", "fractions already delivered ignored, the full original BED matched in the new "
          "fractions", "conceptual", (3,)),
)

GENERATOR = Generator(
    name="bed",
    title="Fractionation changes and re-planning",
    document="Linear-quadratic model (BED, EQD2)",
    band=0.01,
    levels={
        1: LevelSpec(1, BedCourse, sample_l1, violations_l1, partial(_solve, 1), lambda p: "Gy", quantity_l1,
                     prompt_l1),
        2: LevelSpec(2, Eqd2Course, sample_l2, violations_l2, partial(_solve, 2), lambda p: "Gy", quantity_l2,
                     prompt_l2),
        3: LevelSpec(3, Replan, sample_l3, violations_l3, partial(_solve, 3), lambda p: "Gy", quantity_l3,
                     prompt_l3),
    },
    error_modes=ERROR_MODES,
)
