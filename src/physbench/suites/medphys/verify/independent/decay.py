"""Second solver for the radioactive-decay items, from the printed prompt alone.

Decay law A(t) = A0 exp(-λ t), λ = ln 2/T½ (level 1 forward, level 2 solved for t); level 3 is the
parent-daughter Bateman solution for a daughter absent at t = 0 (Mo-99 -> Tc-99m after a complete
elution): A_D(t) = BR A_P(0) λ_D/(λ_D - λ_P) (exp(-λ_P t) - exp(-λ_D t))
(Bateman, Proc. Camb. Phil. Soc. 15, 423 (1910); PROTOCOL-FACTS, "Decay and nuclear medicine").
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_listing import (
    Bullet, asked, bullets, has, number, one, quantity,
)
from physbench.suites.medphys.verify.independent.units_nucmed import ActivityUnits, compound_hours, hours

_NUCLIDE = r"(?P<nuclide>[A-Z][a-z]?-\d{1,3}m?)"


def solve(level: int, prompt: str) -> tuple[float, str]:
    """(value, unit) of a decay item at ``level``."""
    if level == 1:
        return _activity_later(prompt)
    if level == 2:
        return _time_to_activity(prompt)
    if level == 3:
        return _daughter_after_elution(prompt)
    raise ValueError(f"decay has levels 1-3, not {level}")


def decay_constant_per_h(items: list[Bullet], nuclide: str) -> float:
    """λ = ln 2/T½ in 1/h from the printed half-life of ``nuclide``."""
    _, bullet = one(items, rf"Half-life of {re.escape(nuclide)}", f"the half-life of {nuclide}")
    half_life_h = hours(*quantity(bullet.value, f"half-life of {nuclide}"), f"half-life of {nuclide}")
    if half_life_h <= 0:
        raise PromptDefect(f"the half-life of {nuclide} is not positive")
    return math.log(2) / half_life_h


def _only_half_life(items: list[Bullet]) -> str:
    match, _ = one(items, rf"Half-life of {_NUCLIDE}", "the half-life")  # read as matched (case-insensitive)
    return match.group("nuclide")


def _activity_later(prompt: str) -> tuple[float, str]:
    """Level 1: A = A_measured exp(-λ t), t from the measurement to the administration."""
    items = bullets(prompt)
    what, unit = asked(prompt)
    if what != "the activity of the preparation at the time of administration":
        raise PromptDefect(f"level 1 asks for something other than the later activity: {what!r}")
    activities = ActivityUnits(items)
    _, measured = one(items, r"Measured activity", "the measured activity")
    a_mbq = activities.mbq(*quantity(measured.value, "measured activity"), "measured activity")
    _, elapsed = one(items, r"Time from the measurement to the administration", "the elapsed time")
    t_h = hours(*quantity(elapsed.value, "elapsed time"), "elapsed time")
    lam = decay_constant_per_h(items, _only_half_life(items))
    return activities.from_mbq(a_mbq * math.exp(-lam * t_h), unit, "answer unit"), unit


def _time_to_activity(prompt: str) -> tuple[float, str]:
    """Level 2: t = ln(A_measured/A_prescribed)/λ."""
    items = bullets(prompt)
    what, unit = asked(prompt)
    if what != "the time from the measurement until the activity equals the prescribed activity":
        raise PromptDefect(f"level 2 asks for something other than the decay time: {what!r}")
    activities = ActivityUnits(items)
    _, measured = one(items, r"Measured activity", "the measured activity")
    _, prescribed = one(items, r"Prescribed activity", "the prescribed activity")
    a_m = activities.mbq(*quantity(measured.value, "measured activity"), "measured activity")
    a_p = activities.mbq(*quantity(prescribed.value, "prescribed activity"), "prescribed activity")
    if not 0 < a_p < a_m:
        raise PromptDefect("the prescribed activity is not below the measured one, so no decay time reaches it")
    lam = decay_constant_per_h(items, _only_half_life(items))
    t_h = math.log(a_m / a_p) / lam
    return t_h / hours(1.0, unit, "answer unit"), unit


def _daughter_after_elution(prompt: str) -> tuple[float, str]:
    """Level 3: daughter activity grown in since a complete elution (Bateman, daughter zero at t = 0)."""
    items = bullets(prompt)
    what, unit = asked(prompt)
    asked_match = re.fullmatch(rf"the {_NUCLIDE} activity available at the second elution", what)
    if asked_match is None:
        raise PromptDefect(f"level 3 asks for something other than the eluted daughter activity: {what!r}")
    daughter = asked_match.group("nuclide")
    if not has(prompt, f"leaving no {daughter} on the column"):
        raise PromptDefect(f"the {daughter} activity on the column after the first elution is not stated")
    parent_match, parent_bullet = one(items, rf"{_NUCLIDE} activity on the column at the first elution",
                                      "the parent activity at the first elution")
    parent = parent_match.group("nuclide")
    _, branch_bullet = one(items, rf"Fraction of {re.escape(parent)} decays that produce "
                                      rf"{re.escape(daughter)}", "the branching fraction")
    branching = number(branch_bullet.value, "branching fraction")
    if not 0 < branching <= 1:
        raise PromptDefect(f"the branching fraction {branching} is not in (0, 1]")
    activities = ActivityUnits(items)
    a_parent_mbq = activities.mbq(*quantity(parent_bullet.value, "parent activity"), "parent activity")
    _, elapsed = one(items, r"Time from the first elution to the second", "the time between elutions")
    t_h = compound_hours(elapsed.value, "time between elutions")
    lam_p = decay_constant_per_h(items, parent)
    lam_d = decay_constant_per_h(items, daughter)
    if lam_p == lam_d:
        raise PromptDefect("parent and daughter half-lives are equal; the printed Bateman form does not apply")
    efficiency = _elution_efficiency(prompt)
    # Bateman solution, daughter activity zero at t = 0
    a_d_mbq = branching * a_parent_mbq * lam_d / (lam_d - lam_p) * (math.exp(-lam_p * t_h) - math.exp(-lam_d * t_h))
    return activities.from_mbq(efficiency * a_d_mbq, unit, "answer unit"), unit


def _elution_efficiency(prompt: str) -> float:
    found = re.findall(r"elution efficiency (\d+(?:\.\d+)?)\s?%", prompt)
    if len(found) != 1:
        raise PromptDefect("the elution efficiency (share of the column's activity eluted) is not stated once")
    return float(found[0]) / 100.0
