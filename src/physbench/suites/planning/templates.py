"""Objectives built from a goal list: the one the witness search, `planning plan` and the benchmark use."""

from __future__ import annotations

from physbench.suites.planning.goals import Goal
from physbench.suites.planning.optimizer import PRIORITY_MAX, Term
from physbench.suites.planning.openkbp import EXTERNAL

HARD_PRIORITY = 100.0
SOFT_PRIORITY = 1.0
ORGAN_MARGIN = 0.95  # organ levels sit 5 % inside their goals
TARGET_CEILING = 1.05  # hot-spot ceiling in every target, times the highest prescription


def goal_terms(goals: list[Goal], prescriptions: dict[str, float], boost: dict[int, float] | None = None,
               cord_level: float | None = None, cord: str = "SpinalCord") -> list[Term]:
    """One or two terms per goal: a target gets min_dose at its prescription and a ceiling at
    105 % of the highest prescription (beams crossing in a lower-dose target between two
    high-dose ones make the hottest voxels); an organ limit gets max_dose 5 % inside it; a mean
    goal gets mean_dose 5 % inside it; External gets max_dose at max(top Rx, 97 % of its limit).
    ``boost`` multiplies goal i's priority; ``cord_level`` overrides the cord term's level."""
    boost = boost or {}
    terms: list[Term] = []
    top = max(prescriptions.values()) if prescriptions else 0.0
    for i, g in enumerate(goals):
        pri = min(PRIORITY_MAX, (HARD_PRIORITY if g.kind == "hard" else SOFT_PRIORITY) * boost.get(i, 1.0))
        if g.structure in prescriptions and g.op == ">=":
            terms.append(Term(g.structure, "min_dose", prescriptions[g.structure], pri))
            terms.append(Term(g.structure, "max_dose", TARGET_CEILING * top, pri))
        elif g.metric == "Dmean" and g.upper:
            terms.append(Term(g.structure, "mean_dose", ORGAN_MARGIN * g.value, pri))
        elif g.structure == cord and cord_level is not None and g.upper:
            terms.append(Term(g.structure, "max_dose", cord_level, PRIORITY_MAX))
        elif g.structure == EXTERNAL and g.upper:
            terms.append(Term(g.structure, "max_dose", max(top, 0.97 * g.value), pri))
        elif g.upper:
            terms.append(Term(g.structure, "max_dose", ORGAN_MARGIN * g.value, pri))
    return terms
