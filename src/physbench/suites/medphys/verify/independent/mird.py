"""Second solver for the MIRD organ-dose items, from the printed prompt alone.

MIRD schema (Bolch et al., MIRD Pamphlet No. 21, J Nucl Med 50:477 (2009); seed 000, Table 1 and
Section A): D(target) = sum over sources of Ã(source) S(target <- source). With instantaneous uptake of a
fraction f of A0 and mono-exponential clearance, Ã = f A0 ∫ exp(-ln2 t/T_eff) dt = f A0 T_eff/ln 2;
the effective half-life combines decay and biological clearance, 1/T_eff = 1/T_p + 1/T_b.
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_listing import (
    Bullet, asked, bullets, has, matching, one, optional, quantity,
)
from physbench.suites.medphys.verify.independent.units_nucmed import ActivityUnits, hours, mgy

_TIME_INTEGRAL = re.compile(r"the time-integrated activity(?: \(cumulated activity\))? in the (?P<organ>.+)")
_DOSE = re.compile(r"the absorbed dose to the (?P<target>.+?) from the activity in the (?P<sources>.+?)"
                   r"(?: \(self-dose\))?")
_S_UNIT = re.compile(r"(?P<dose>\w+)/\((?P<act>\w+) (?P<time>\w+)\)")


def solve(level: int, prompt: str) -> tuple[float, str]:
    """(value, unit) of a MIRD item: Ã in the asked activity-time unit (L1) or the target dose (L2-3)."""
    if level not in (1, 2, 3):
        raise ValueError(f"mird has levels 1-3, not {level}")
    if not has(prompt, "instantaneous uptake", "mono-exponential clearance", "integrate over all time"):
        raise PromptDefect("the time-activity model (instantaneous uptake, mono-exponential clearance, "
                           "integration to infinity) is not stated, so Ã is not determined")
    items = bullets(prompt)
    what, unit = asked(prompt)
    a0_mbq = _administered_mbq(items)
    if (m := _TIME_INTEGRAL.fullmatch(what)) is not None:
        act_unit, time_unit = _activity_time_unit(unit)
        a_tilde_mbq_h = time_integrated_activity_mbq_h(items, m.group("organ"), a0_mbq)
        activities = ActivityUnits(items)
        return activities.from_mbq(a_tilde_mbq_h, act_unit, "answer unit") / hours(1.0, time_unit, "answer unit"), unit
    if (m := _DOSE.fullmatch(what)) is not None:
        if level == 2 and not has(prompt, "MIRD schema"):
            raise PromptDefect("the dose method (MIRD schema) is not named")
        target = m.group("target")
        sources = [s.strip() for s in re.split(r" and in the | and the ", m.group("sources"))]
        dose_mgy = 0.0
        for source in sources:
            a_tilde = time_integrated_activity_mbq_h(items, source, a0_mbq)
            dose_mgy += a_tilde * s_value_mgy_per_mbq_h(items, target, source)  # MIRD schema: D = Σ Ã S
        return dose_mgy / mgy(1.0, unit, "answer unit"), unit
    raise PromptDefect(f"cannot tell what is asked: {what!r}")


def _administered_mbq(items: list[Bullet]) -> float:
    _, bullet = one(items, r"Administered activity(?: A0)?", "the administered activity")
    value, act_unit = quantity(bullet.value, "administered activity")
    return ActivityUnits(items).mbq(value, act_unit, "administered activity")


def _activity_time_unit(unit: str) -> tuple[str, str]:
    parts = unit.replace("·", " ").replace("×", " ").split()
    if len(parts) != 2:
        raise PromptDefect(f"cannot read the activity-time unit {unit!r}")
    return parts[0], parts[1]


def time_integrated_activity_mbq_h(items: list[Bullet], organ: str, a0_mbq: float) -> float:
    """Ã = f A0 T_eff/ln 2 in MBq h (instantaneous uptake, mono-exponential clearance)."""
    _, bullet = one(items, rf"Fraction of the administered activity taken up by the {re.escape(organ)}",
                    f"the uptake fraction of the {organ}")
    uptake = float(_plain_number(bullet.value, f"uptake fraction of the {organ}"))
    if not 0.0 < uptake <= 1.0:
        raise PromptDefect(f"the uptake fraction of the {organ} ({uptake}) is not in (0, 1]")
    return uptake * a0_mbq * effective_half_life_h(items, organ) / math.log(2)


def effective_half_life_h(items: list[Bullet], organ: str) -> float:
    """T_eff of the organ: printed, or T_p T_b/(T_p + T_b) from the physical and biological ones."""
    printed = optional(items, rf"Effective half-life in the {re.escape(organ)}", f"T_eff of the {organ}")
    biological = optional(items, rf"Biological half-life in the {re.escape(organ)}", f"T_b of the {organ}")
    physical = matching(items, r"Physical half-life of (?P<nuclide>.+)")
    if printed is not None:
        if biological is not None:
            raise PromptDefect(f"both an effective and a biological half-life are given for the {organ}")
        return hours(*quantity(printed[1].value, f"T_eff of the {organ}"), f"T_eff of the {organ}")
    if biological is None or len(physical) != 1:
        raise PromptDefect(f"the effective half-life of the {organ} cannot be formed: need one "
                           "physical half-life and the organ's biological half-life")
    t_b = hours(*quantity(biological[1].value, f"T_b of the {organ}"), f"T_b of the {organ}")
    t_p = hours(*quantity(physical[0][1].value, "physical half-life"), "physical half-life")
    return t_p * t_b / (t_p + t_b)  # 1/T_eff = 1/T_p + 1/T_b


def s_value_mgy_per_mbq_h(items: list[Bullet], target: str, source: str) -> float:
    """S(target <- source) converted to mGy per MBq h."""
    _, bullet = one(items, rf"S value S\({re.escape(target)}\s*←\s*{re.escape(source)}\)",
                    f"the S value S({target} ← {source})")
    value, unit = quantity(bullet.value, f"S({target} ← {source})")
    match = _S_UNIT.fullmatch(unit)
    if match is None:
        raise PromptDefect(f"cannot read the S-value unit {unit!r}")
    what = f"S({target} ← {source}) unit"
    per_mbq_h = ActivityUnits(items).mbq(1.0, match.group("act"), what) * hours(1.0, match.group("time"), what)
    return mgy(value, match.group("dose"), what) / per_mbq_h


def _plain_number(text: str, what: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise PromptDefect(f"{what}: {text!r} is not a plain number") from None
