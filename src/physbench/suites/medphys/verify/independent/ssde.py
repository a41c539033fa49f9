"""Independent CT dose solver (DLP, SSDE by AAPM Reports 204 and 220), inputs from the prompt.

DLP = CTDIvol × scan length (CTDIvol already includes the pitch); SSDE = f(D) × CTDIvol with
f = a exp(-b D), the Report 204 fit for the phantom the CTDIvol refers to (coefficients as
printed); D the effective diameter sqrt(AP × LAT) (Report 204) or the water-equivalent
diameter 2 sqrt(Aw/π), Aw = (mean CT/1000 + 1) × A_ROI (Report 220, Eqs. 3-4 for one image).
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent import parse_text as pt
from physbench.suites.medphys.verify.independent.errors import PromptDefect

_LENGTH_TO_CM = {"cm": 1.0, "mm": 0.1, "m": 100.0}
_AREA_TO_CM2 = {"cm²": 1.0, "mm²": 0.01, "cm^2": 1.0, "mm^2": 0.01}
_DOSE_FROM_MGY = {"mGy": 1.0, "Gy": 1e-3, "cGy": 0.1}
_DLP_FROM_MGY_CM = {"mGy cm": 1.0, "mGy·cm": 1.0, "mGy*cm": 1.0, "Gy cm": 1e-3, "mGy m": 0.01}


def dlp(ctdi_vol_mgy: float, scan_length_cm: float) -> float:
    """Dose-length product, mGy cm (the pitch is already in CTDIvol)."""
    return ctdi_vol_mgy * scan_length_cm


def effective_diameter(ap_cm: float, lat_cm: float) -> float:
    """AAPM Report 204 effective diameter, the geometric mean of AP and LAT."""
    return math.sqrt(ap_cm * lat_cm)


def water_equivalent_diameter(area_cm2: float, mean_ct_hu: float) -> float:
    """AAPM Report 220 Dw = 2 sqrt(Aw/π), Aw = (mean CT/1000 + 1) A_ROI (single image)."""
    aw = (mean_ct_hu / 1000.0 + 1.0) * area_cm2
    if aw <= 0:
        raise PromptDefect("the water-equivalent area is not positive")
    return 2.0 * math.sqrt(aw / math.pi)


def conversion_factor(a: float, b_per_cm: float, diameter_cm: float) -> float:
    """AAPM Report 204 size conversion factor, exponential fit f = a exp(-b D)."""
    return a * math.exp(-b_per_cm * diameter_cm)


# --- reading the prompt ------------------------------------------------------------------


def _ctdi_vol(text: str) -> tuple[float, int]:
    """(CTDIvol in mGy, diameter in cm of the PMMA phantom it refers to)."""
    m = pt.one_match(
        text,
        r"CTDIvol displayed by the scanner: (" + pt.NUMBER + r") (mGy|Gy|cGy), referenced to the (\d+) cm diameter PMMA",
        "the CTDIvol and its reference phantom",
    )
    value = pt.to_float(m.group(1)) / _DOSE_FROM_MGY[m.group(2)]
    return value, int(m.group(3))


def _fit(text: str, phantom_cm: int) -> tuple[float, float]:
    """(a, b per cm) of the exponential fit printed for the CTDIvol's phantom."""
    pt.requires(
        text,
        r"fitted as f = a × exp\(−b × D\) with D the patient's diameter in cm",
        "the form of the size conversion factor is not stated",
    )
    m = pt.one_match(
        text,
        rf"CTDIvol referenced to the {phantom_cm} cm phantom: a = ({pt.NUMBER}), b = ({pt.NUMBER}) per cm",
        f"the fit coefficients for the {phantom_cm} cm phantom",
    )
    return pt.to_float(m.group(1)), pt.to_float(m.group(2))


def _ssde(text: str, diameter_cm: float) -> tuple[float, str]:
    ctdi, phantom = _ctdi_vol(text)
    a, b = _fit(text, phantom)
    pt.requires(text, r"size-specific dose estimate \(SSDE\)", "the prompt does not ask for the SSDE")
    unit = pt.boxed_unit(text)
    if unit not in _DOSE_FROM_MGY:
        raise PromptDefect(f"the SSDE is asked in {unit!r}, not a dose unit")
    return conversion_factor(a, b, diameter_cm) * ctdi * _DOSE_FROM_MGY[unit], unit


# --- levels ------------------------------------------------------------------------------


def _level1(text: str) -> tuple[float, str]:
    """DLP of the scan."""
    ctdi, _ = _ctdi_vol(text)
    length, l_unit = pt.labelled_with_unit(text, r"- Scan length:", tuple(_LENGTH_TO_CM), "the scan length")
    pt.requires(text, r"dose-length product \(DLP\)", "the prompt does not ask for the DLP")
    unit = pt.boxed_unit(text)
    if unit not in _DLP_FROM_MGY_CM:
        raise PromptDefect(f"the DLP is asked in {unit!r}, not a dose-length unit")
    return dlp(ctdi, length * _LENGTH_TO_CM[l_unit]) * _DLP_FROM_MGY_CM[unit], unit


def _level2(text: str) -> tuple[float, str]:
    """SSDE from the effective diameter of the localizer's AP and LAT dimensions."""
    pt.requires(text, r"Use the effective diameter of AAPM Report 204 as D", "the size metric D is not stated")
    m = pt.one_match(
        text,
        r"the patient measures (" + pt.NUMBER + r") (mm|cm) anteroposterior \(AP\) and (" + pt.NUMBER + r") (mm|cm) lateral \(LAT\)",
        "the patient's AP and LAT dimensions",
    )
    ap_cm = pt.to_float(m.group(1)) * _LENGTH_TO_CM[m.group(2)]
    lat_cm = pt.to_float(m.group(3)) * _LENGTH_TO_CM[m.group(4)]
    return _ssde(text, effective_diameter(ap_cm, lat_cm))


def _level3(text: str) -> tuple[float, str]:
    """SSDE from the water-equivalent diameter of one axial image's skin-contour ROI."""
    pt.requires(
        text, r"Use the water-equivalent diameter of AAPM Report 220", "the size metric D is not stated"
    )
    m = pt.one_match(
        text,
        r"region of interest drawn along the patient's skin contour has an area of (" + pt.NUMBER
        + r") (cm²|mm²|cm\^2|mm\^2) and a mean CT number of (" + pt.NUMBER + r") HU",
        "the ROI's area and mean CT number",
    )
    area_cm2 = pt.to_float(m.group(1)) * _AREA_TO_CM2[m.group(2)]
    return _ssde(text, water_equivalent_diameter(area_cm2, pt.to_float(m.group(3))))


_LEVELS = {1: _level1, 2: _level2, 3: _level3}


def solve(level: int, prompt: str) -> tuple[float, str]:
    """The answer (value, unit) to a CT dose (DLP/SSDE) calculation prompt of ``level``."""
    if level not in _LEVELS:
        raise ValueError(f"ssde has levels 1-3, not {level!r}")
    text = pt.checked(prompt)
    if re.search(r"\bCT\b", text) is None:
        raise PromptDefect("the prompt does not describe a CT scan")
    return pt.finite_answer(_LEVELS[level], text)
