"""Corrected QT interval: Bazett, Fridericia, Framingham, Hodges, Rautaharju (QT in msec, HR in bpm)."""

from __future__ import annotations

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError

_ENTITIES = ("Heart Rate or Pulse", "QT Interval")


def _qt_hr(e: Entities) -> tuple[float, float]:
    qt = e.number("QT Interval")
    hr = e.number("Heart Rate or Pulse")
    if hr <= 0:
        raise EntityError("heart rate must be positive")
    return qt, hr


def rr_seconds(hr: float) -> float:
    """The interval between beats, in seconds, from the heart rate: 60 / HR."""
    return 60 / hr


@calculator(11, "QTc Bazett Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Bazett 1920 (Heart 7:353): QT / RR^(1/2)", entities=_ENTITIES)
def qtc_bazett(e: Entities) -> float:
    qt, hr = _qt_hr(e)
    return qt / rr_seconds(hr) ** 0.5


@calculator(56, "QTc Fridericia Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Fridericia 1920 (Acta Med Scand 53:469): QT / RR^(1/3)", entities=_ENTITIES)
def qtc_fridericia(e: Entities) -> float:
    qt, hr = _qt_hr(e)
    return qt / rr_seconds(hr) ** (1 / 3)


@calculator(57, "QTc Framingham Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Sagie 1992 (Am J Cardiol 70:797): QT + 154 (1 - RR)", entities=_ENTITIES)
def qtc_framingham(e: Entities) -> float:
    qt, hr = _qt_hr(e)
    return qt + 154 * (1 - rr_seconds(hr))


@calculator(58, "QTc Hodges Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Hodges 1983 (J Am Coll Cardiol 1:694): QT + 1.75 (HR - 60)", entities=_ENTITIES)
def qtc_hodges(e: Entities) -> float:
    qt, hr = _qt_hr(e)
    return qt + 1.75 * (60 / rr_seconds(hr) - 60)


@calculator(59, "QTc Rautaharju Calculator", category="physical", output_type="decimal", kind="decimal",
            source="Rautaharju heart-rate correction QT (120 + HR) / 180, as MDCalc and the benchmark",
            entities=_ENTITIES)
def qtc_rautaharju(e: Entities) -> float:
    qt, hr = _qt_hr(e)
    return qt * (120 + hr) / 180
