"""Patient notes for the synthetic set: short templated notes that state every drawn entity.

The note is the only place a model sees the values, so every entity of the row appears in it,
in the unit the row gives; absent criteria are stated as absent, as a careful clinician writes.
"""

from __future__ import annotations

import random
from typing import Any

_SETTINGS = ("the emergency department", "the medical ward", "the outpatient clinic", "the intensive care unit",
             "the pre-operative assessment clinic")
_OPENINGS = ("{who} is seen in {where}.", "{who} presents to {where}.", "{who} is reviewed in {where} today.")
_FINDINGS = ("Recorded values: {items}.", "Examination and laboratory results: {items}.",
             "The chart lists {items}.")
_PRESENT = ("Present: {items}.", "The history and examination note {items}.")
_ABSENT = ("Not present: {items}.", "There is no {items}.")


def _number(x: Any) -> str:
    return str(x)


def _who(entities: dict[str, Any], rng: random.Random) -> str:
    sex = "female" if "Last menstrual date" in entities else str(entities.get("sex", "")).lower()
    person = {"male": "man", "female": "woman"}.get(sex, "patient")
    age = entities.get("age")
    if isinstance(age, list) and len(age) == 2:
        years = _number(age[0])
        article = "An" if years.startswith("8") or years.split(".")[0] in ("11", "18") else "A"
        return f"{article} {years}-year-old {person}"
    return rng.choice(("A patient", "An adult patient")) if person == "patient" else f"An adult {person}"


def _dose_phrase(name: str, value: list, per_day: Any) -> str:
    times = per_day[0] if isinstance(per_day, list) else per_day
    return f"{name[: -len(' Dose')]} {_number(value[0])} {value[1]}, {times} time{'s' if times != 1 else ''} a day"


def _phrases(entities: dict[str, Any]) -> tuple[list[str], list[str], list[str], list[str]]:
    """(findings, present criteria, absent criteria, other sentences) stating each entity once."""
    findings: list[str] = []
    present: list[str] = []
    absent: list[str] = []
    other: list[str] = []
    for name, value in entities.items():
        if name in ("age", "sex") or name.endswith(" Dose Per Day"):
            continue
        if name.endswith(" Dose") and isinstance(value, list):
            other.append(f"Current opioid: {_dose_phrase(name, value, entities.get(name + ' Per Day', 1))}.")
        elif name == "input steroid":
            other.append(f"The patient takes {_number(value[1])} {value[2]} of {value[0]}.")
        elif name == "target steroid":
            other.append(f"The team plans to switch to {value}.")
        elif name == "Last menstrual date":
            other.append(f"Her last menstrual period began on {value}.")
        elif name == "Current Date":
            other.append(f"Today's date is {value}.")
        elif name == "cycle length":
            other.append(f"Her cycles last {value} days.")
        elif isinstance(value, bool):
            (present if value else absent).append(name[0].lower() + name[1:] if name[1:2].islower() else name)
        elif isinstance(value, list) and len(value) == 2:
            findings.append(f"{name} {_number(value[0])} {value[1]}")
        else:
            findings.append(f"{name}: {value}")
    return findings, present, absent, other


def note(entities: dict[str, Any], rng: random.Random) -> str:
    """A short note stating every entity of the case (drawn phrasing, same facts)."""
    findings, present, absent, other = _phrases(entities)
    parts = [rng.choice(_OPENINGS).format(who=_who(entities, rng), where=rng.choice(_SETTINGS))]
    if findings:
        parts.append(rng.choice(_FINDINGS).format(items="; ".join(findings)))
    if present:
        parts.append(rng.choice(_PRESENT).format(items="; ".join(present)))
    if absent:
        parts.append(rng.choice(_ABSENT).format(items="; ".join(absent) if len(absent) == 1 else
                                                "; ".join(absent[:-1]) + "; nor " + absent[-1]))
    parts.extend(other)
    return " ".join(parts)


def explanation(calc: Any, gold: str) -> str:
    """The Ground Truth Explanation of a synthetic row: where its answer came from."""
    return (f"Synthetic case. {calc.name} computed by the physbench calculator library ({calc.source}) "
            f"from the Relevant Entities of this row gives {gold}.")
