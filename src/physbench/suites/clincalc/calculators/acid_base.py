"""Acid-base arithmetic: anion gap, delta gap and ratio, and their albumin-corrected forms."""

from __future__ import annotations

from physbench.suites.clincalc.calculators.registry import calculator
from physbench.suites.clincalc.entities import Entities, EntityError

_ELECTROLYTES = ("Chloride", "Bicarbonate", "Sodium")
_WITH_ALBUMIN = (*_ELECTROLYTES, "Albumin")


def anion_gap(e: Entities) -> float:
    """Na - (Cl + HCO3), all in mEq/L (Emmett & Narins 1977, Medicine 56:38)."""
    na = e.conc("Sodium", "mEq/L", "sodium")
    cl = e.conc("Chloride", "mEq/L", "chloride")
    hco3 = e.conc("Bicarbonate", "mEq/L", "bicarbonate")
    return na - (cl + hco3)


def albumin_corrected_gap(e: Entities) -> float:
    """Figge 1998 (Crit Care Med 26:1807): anion gap + 2.5 (4 - albumin g/dL)."""
    return anion_gap(e) + 2.5 * (4 - e.conc("Albumin", "g/dL", "albumin"))


def bicarbonate_drop(e: Entities) -> float:
    """24 - HCO3 (mEq/L), the denominator of the delta ratio."""
    drop = 24 - e.conc("Bicarbonate", "mEq/L", "bicarbonate")
    if drop == 0:
        raise EntityError("bicarbonate of 24 mEq/L makes the delta ratio undefined")
    return drop


@calculator(39, "Anion Gap", category="lab test", output_type="decimal", kind="decimal",
            source="anion gap Na - (Cl + HCO3) (Emmett & Narins 1977)", entities=_ELECTROLYTES)
def anion_gap_calc(e: Entities) -> float:
    return anion_gap(e)


@calculator(63, "Delta Gap", category="lab test", output_type="decimal", kind="decimal",
            source="delta gap = anion gap - 12 (Wrenn 1990, Ann Emerg Med 19:1310)", entities=_ELECTROLYTES)
def delta_gap(e: Entities) -> float:
    return anion_gap(e) - 12


@calculator(64, "Delta Ratio", category="lab test", output_type="decimal", kind="decimal",
            source="delta ratio = (anion gap - 12) / (24 - HCO3) (Rastegar 2007, J Am Soc Nephrol 18:2429)",
            entities=_ELECTROLYTES)
def delta_ratio(e: Entities) -> float:
    return (anion_gap(e) - 12) / bicarbonate_drop(e)


@calculator(65, "Albumin Corrected Anion Gap", category="lab test", output_type="decimal", kind="decimal",
            source="Figge 1998: anion gap + 2.5 (4 - albumin g/dL)", entities=_WITH_ALBUMIN)
def albumin_corrected_anion_gap(e: Entities) -> float:
    return albumin_corrected_gap(e)


@calculator(66, "Albumin Corrected Delta Gap", category="lab test", output_type="decimal", kind="decimal",
            source="albumin-corrected anion gap - 12 (Figge 1998; Wrenn 1990)", entities=_WITH_ALBUMIN)
def albumin_corrected_delta_gap(e: Entities) -> float:
    return albumin_corrected_gap(e) - 12


@calculator(67, "Albumin Corrected Delta Ratio", category="lab test", output_type="decimal", kind="decimal",
            source="(albumin-corrected anion gap - 12) / (24 - HCO3) (Figge 1998; Rastegar 2007)",
            entities=_WITH_ALBUMIN)
def albumin_corrected_delta_ratio(e: Entities) -> float:
    return (albumin_corrected_gap(e) - 12) / bicarbonate_drop(e)
