"""CT patient dose: DLP, and the size-specific dose estimate of AAPM Reports 204 and 220 (levels 1-3)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec, transpose_digits
from physbench.suites.medphys.text import ask, bullets
from physbench.suites.medphys.worksheet import Sheet, Shown

# AAPM Report 204, exponential fits of the conversion factor f(D) = a exp(-b D), D in cm
# (Report 204 Sec. 4; the fits reproduce Tables 1D and 2D to within 0.005).
FIT = {32: (3.704369, 0.03671937), 16: (1.874799, 0.03871313)}
# Effective diameters (cm) covered by Report 204's tables for each reference phantom
FIT_RANGE_CM = {32: (8.0, 45.0), 16: (6.0, 55.0)}
# Helical pitches offered by common scanners; all differ from 1 by more than the 1% band
PITCHES = (0.516, 0.531, 0.562, 0.6, 0.75, 0.8, 0.813, 0.9, 0.938, 0.969, 1.2, 1.375, 1.5)
REGIONS_ADULT = ("chest", "abdomen and pelvis", "chest, abdomen and pelvis", "abdomen")
PRECISION = "at least three significant figures"


@dataclass(frozen=True)
class DlpScan:  # level 1
    region: str
    phantom_cm: int
    ctdi_vol_mgy: float
    scan_length_cm: float
    pitch: float


@dataclass(frozen=True)
class SsdeFromDimensions:  # level 2
    region: str
    phantom_cm: int
    ctdi_vol_mgy: float
    pitch: float
    ap_mm: float
    lat_mm: float


@dataclass(frozen=True)
class SsdeFromWaterDiameter:  # level 3
    region: str
    phantom_cm: int
    ctdi_vol_mgy: float
    pitch: float
    roi_area_cm2: float
    mean_ct_hu: float


# --- physics ------------------------------------------------------------------------------

def conversion_factor(d_cm: float, phantom_cm: int) -> float:
    """AAPM Report 204: f = a exp(-b D) for the CTDIvol's reference phantom."""
    a, b = FIT[phantom_cm]
    return a * math.exp(-b * d_cm)


def effective_diameter(ap_cm: float, lat_cm: float) -> float:
    """AAPM Report 204: D = sqrt(AP x LAT)."""
    return math.sqrt(ap_cm * lat_cm)


def water_equivalent_diameter(area_cm2: float, mean_ct_hu: float) -> float:
    """AAPM Report 220: Aw = (CT/1000 + 1) A, Dw = 2 sqrt(Aw / pi)."""
    return 2.0 * math.sqrt((mean_ct_hu / 1000.0 + 1.0) * area_cm2 / math.pi)


def _other(phantom_cm: int) -> int:
    return 16 if phantom_cm == 32 else 32


# --- step chains (solver, error modes and worksheets in one) --------------------------------

def _ssde_steps(s: Sheet, p: SsdeFromDimensions | SsdeFromWaterDiameter, d: Shown, d_label: str,
                mode: str | None) -> Shown:
    """Conversion factor and SSDE from a diameter: the last one or two steps of levels 2 and 3."""
    phantom = _other(p.phantom_cm) if mode == "other_phantom_fit" else p.phantom_cm
    a, b = FIT[phantom]
    ctdi = s.given(p.ctdi_vol_mgy, dec=1)
    pitch = s.given(p.pitch, dec=3)
    per_pitch = (" / pitch", f" / {pitch.text}", 1 / pitch) if mode == "pitch_again" else ("", "", 1.0)
    title = "Size-specific dose estimate"
    if mode == "f_omitted":
        return s.step("ssde", title, "SSDE = CTDIvol", f"{ctdi.text} mGy", _final(ctdi, mode), "mGy", sig=4)
    if s.vary("merge_f"):  # layout: the conversion factor is computed inside the SSDE step
        value = conversion_factor(d, phantom) * ctdi * per_pitch[2]
        return s.step("ssde", f"{title} ({phantom} cm phantom fit)",
                      f"SSDE = {a} × exp(−{b} × {d_label}) × CTDIvol{per_pitch[0]}",
                      f"{a} × exp(−{b} × {d.text}) × {ctdi.text} mGy{per_pitch[1]}", _final(value, mode), "mGy",
                      sig=4)
    f = s.step("f", f"Conversion factor for the {phantom} cm phantom",
               f"f = {a} × exp(−{b} × {d_label})", f"{a} × exp(−{b} × {d.text})",
               conversion_factor(d, phantom), sig=4)
    factors = s.order("ssde_factors", [("f", f, ""), ("CTDIvol", ctdi, " mGy")])
    formula = " × ".join(name for name, _, _ in factors) + per_pitch[0]
    subst = " × ".join(v.text + u for _, v, u in factors) + per_pitch[1]
    return s.step("ssde", title, f"SSDE = {formula}", subst, _final(f * ctdi * per_pitch[2], mode), "mGy", sig=4)


def _final(value: float, mode: str | None) -> float:
    return transpose_digits(value, 4) if mode == "transposed_final" else value


def _pitch_note(s: Sheet, p: DlpScan | SsdeFromDimensions | SsdeFromWaterDiameter) -> None:
    """Optional layout step: correct worksheets sometimes say why the pitch is not applied."""
    if s.vary("pitch_note"):
        s.step("pitch", "Pitch", "CTDIvol already includes the pitch (CTDIvol = CTDIw / pitch)",
               "no further pitch correction; pitch", p.pitch, dec=3)


def dlp_chain(p: DlpScan, s: Sheet, mode: str | None = None) -> Shown:
    """DLP = CTDIvol x scan length (CTDIvol already includes the pitch)."""
    ctdi, length, pitch = s.given(p.ctdi_vol_mgy, dec=1), s.given(p.scan_length_cm, dec=1), s.given(p.pitch, dec=3)
    if mode != "pitch_again":
        _pitch_note(s, p)
    if mode == "pitch_again":
        return s.step("dlp", "Dose-length product", "DLP = CTDIvol × L / pitch",
                      f"{ctdi.text} mGy × {length.text} cm / {pitch.text}", _final(ctdi * length / pitch, mode),
                      "mGy cm", sig=4)
    factors = s.order("dlp_factors", [("CTDIvol", ctdi, " mGy"), ("L", length, " cm")])
    return s.step("dlp", "Dose-length product", "DLP = " + " × ".join(n for n, _, _ in factors),
                  " × ".join(v.text + u for _, v, u in factors), _final(ctdi * length, mode), "mGy cm", sig=4)


def dimensions_chain(p: SsdeFromDimensions, s: Sheet, mode: str | None = None) -> Shown:
    """Report 204: D = sqrt(AP x LAT) in cm, f(D) for the phantom, SSDE = f x CTDIvol."""
    ap_mm, lat_mm = s.given(p.ap_mm, dec=0), s.given(p.lat_mm, dec=0)
    if mode != "pitch_again":
        _pitch_note(s, p)
    if mode == "mm_in_fit":  # the error: no conversion, D stays in mm
        ap, lat, unit, scale, to_cm = ap_mm, lat_mm, "mm", "", 1.0
    elif s.vary("merge_cm"):  # layout: the conversion to cm is folded into the diameter step
        ap, lat, unit, scale, to_cm = ap_mm, lat_mm, "cm", " / 10", 10.0
    else:
        ap = s.step("ap_cm", "AP dimension in cm", "AP = AP(mm) / 10", f"{ap_mm.text} mm / 10", p.ap_mm / 10,
                    "cm", dec=1)
        lat = s.step("lat_cm", "Lateral dimension in cm", "LAT = LAT(mm) / 10", f"{lat_mm.text} mm / 10",
                     p.lat_mm / 10, "cm", dec=1)
        unit, scale, to_cm = "cm", "", 1.0
    if mode == "mean_diameter":
        formula, subst, value = "D = (AP + LAT) / 2", f"({ap.text} + {lat.text}) / 2", (ap + lat) / 2
    elif mode == "lateral_diameter":
        formula, subst, value = "D = LAT", f"{lat.text}", lat
    else:
        formula, subst, value = "D = √(AP × LAT)", f"√({ap.text} × {lat.text})", effective_diameter(ap, lat)
    d = s.step("d_eff", "Effective diameter", formula + scale, subst + scale, value / to_cm, unit, dec=1)
    return _ssde_steps(s, p, d, "D", mode)


def water_chain(p: SsdeFromWaterDiameter, s: Sheet, mode: str | None = None) -> Shown:
    """Report 220: Aw = (CT/1000 + 1) A, Dw = 2 sqrt(Aw/pi), then Report 204's f for the phantom."""
    area, ct = s.given(p.roi_area_cm2, dec=1), s.given(p.mean_ct_hu, dec=0)
    if mode != "pitch_again":
        _pitch_note(s, p)
    if mode != "ct_not_converted" and mode != "pi_omitted" and s.vary("merge_area"):
        # layout: the water-equivalent area is computed inside the diameter step
        dw = s.step("d_w", "Water-equivalent diameter", "Dw = 2 × √((CT/1000 + 1) × A / π)",
                    f"2 × √(({ct.text}/1000 + 1) × {area.text} / π)",
                    water_equivalent_diameter(area, ct), "cm", dec=1)
        return _ssde_steps(s, p, dw, "Dw", mode)
    if mode == "ct_not_converted":
        aw = area
    else:
        aw = s.step("a_w", "Water-equivalent area", "Aw = (CT/1000 + 1) × A",
                    f"({ct.text}/1000 + 1) × {area.text} cm²", (ct / 1000 + 1) * area, "cm²", dec=1)
    if mode == "pi_omitted":
        dw = s.step("d_w", "Water-equivalent diameter", "Dw = 2 × √Aw", f"2 × √{aw.text}", 2 * math.sqrt(aw), "cm",
                    dec=1)
    else:
        label = "Dw = 2 × √(A / π)" if mode == "ct_not_converted" else "Dw = 2 × √(Aw / π)"
        dw = s.step("d_w", "Water-equivalent diameter", label, f"2 × √({aw.text} / π)",
                    2 * math.sqrt(aw / math.pi), "cm", dec=1)
    return _ssde_steps(s, p, dw, "Dw", mode)


def _solve(chain, p) -> float:  # type: ignore[no-untyped-def]
    return float(chain(p, Sheet()))


# --- sampling and plausibility ------------------------------------------------------------------

def _phantom_and_region(rng: random.Random) -> tuple[int, str]:
    if rng.random() < 0.75:
        return 32, rng.choice(REGIONS_ADULT)
    return 16, rng.choice(("chest", "abdomen and pelvis", "abdomen"))  # paediatric body protocols


def sample_l1(rng: random.Random) -> DlpScan:
    phantom = 16 if rng.random() < 0.25 else 32
    region = "head" if phantom == 16 else rng.choice(REGIONS_ADULT)
    return DlpScan(region, phantom, dec(rng.uniform(3.0, 60.0 if phantom == 16 else 25.0), 1),
                   dec(rng.uniform(12.0, 20.0) if phantom == 16 else rng.uniform(20.0, 70.0), 1), rng.choice(PITCHES))


def violations_l1(p: DlpScan) -> list[str]:
    out = []
    if not 1.0 <= p.ctdi_vol_mgy <= 80.0:
        out.append("CTDIvol outside 1-80 mGy")
    if not 5.0 <= p.scan_length_cm <= 100.0:
        out.append("scan length outside 5-100 cm")
    if p.pitch not in PITCHES:
        out.append("pitch not a scanner value")
    return out


def sample_l2(rng: random.Random) -> SsdeFromDimensions:
    phantom, region = _phantom_and_region(rng)
    ap = rng.uniform(180.0, 340.0) if phantom == 32 else rng.uniform(100.0, 220.0)
    lat = ap * rng.uniform(1.05, 1.5)
    return SsdeFromDimensions(region, phantom, dec(rng.uniform(4.0, 25.0) if phantom == 32 else rng.uniform(2.0, 10.0),
                                                   1), rng.choice(PITCHES), dec(ap, 0), dec(lat, 0))


def _diameter_ok(d_cm: float, phantom: int) -> bool:
    lo, hi = FIT_RANGE_CM[phantom]
    return lo <= d_cm <= hi


def violations_l2(p: SsdeFromDimensions) -> list[str]:
    out = []
    if not 1.0 <= p.ctdi_vol_mgy <= 60.0:
        out.append("CTDIvol outside 1-60 mGy")
    if not 1.0 <= p.lat_mm / p.ap_mm <= 1.8:
        out.append("LAT/AP ratio outside 1.0-1.8")
    if not _diameter_ok(effective_diameter(p.ap_mm, p.lat_mm) / 10, p.phantom_cm):
        out.append("effective diameter outside the range of Report 204's table for this phantom")
    if p.phantom_cm == 16 and effective_diameter(p.ap_mm, p.lat_mm) > 250:
        out.append("16 cm phantom for an adult-size patient")
    return out


def sample_l3(rng: random.Random) -> SsdeFromWaterDiameter:
    phantom, region = _phantom_and_region(rng)
    d = rng.uniform(20.0, 40.0) if phantom == 32 else rng.uniform(10.0, 24.0)
    hu = rng.uniform(-300.0, 30.0) if "chest" in region else rng.uniform(-120.0, 30.0)
    return SsdeFromWaterDiameter(region, phantom,
                                 dec(rng.uniform(4.0, 25.0) if phantom == 32 else rng.uniform(2.0, 10.0), 1),
                                 rng.choice(PITCHES), dec(math.pi * d * d / 4, 1), dec(hu, 0))


def violations_l3(p: SsdeFromWaterDiameter) -> list[str]:
    out = []
    if not 1.0 <= p.ctdi_vol_mgy <= 60.0:
        out.append("CTDIvol outside 1-60 mGy")
    if not -400.0 <= p.mean_ct_hu <= 100.0:
        out.append("mean CT number outside -400..100 HU")
    if not _diameter_ok(water_equivalent_diameter(p.roi_area_cm2, p.mean_ct_hu), p.phantom_cm):
        out.append("water-equivalent diameter outside the range of Report 204's table for this phantom")
    return out


# --- prompts ---------------------------------------------------------------------------------

def _patient(p: DlpScan | SsdeFromDimensions | SsdeFromWaterDiameter) -> str:
    who = "a child" if p.phantom_cm == 16 and p.region != "head" else "an adult"
    return f"A helical CT scan of the {p.region} of {who}"


def _ctdi_line(p: DlpScan | SsdeFromDimensions | SsdeFromWaterDiameter) -> list[str]:
    return [f"Helical pitch: {fmt_dec(p.pitch, 3)}",
            f"CTDIvol displayed by the scanner: {fmt_dec(p.ctdi_vol_mgy, 1)} mGy, referenced to the "
            f"{p.phantom_cm} cm diameter PMMA dosimetry phantom"]


def _fit_text() -> str:
    return ("AAPM Report 204 conversion factors, fitted as f = a × exp(−b × D) with D the patient's diameter "
            "in cm:\n" + bullets([f"CTDIvol referenced to the 32 cm phantom: a = {FIT[32][0]}, b = {FIT[32][1]} per cm",
                                   f"CTDIvol referenced to the 16 cm phantom: a = {FIT[16][0]}, b = {FIT[16][1]} per cm"]))


def prompt_l1(p: DlpScan) -> str:
    return "\n\n".join([
        f"{_patient(p)} was acquired with the following settings.",
        bullets([*_ctdi_line(p), f"Scan length: {fmt_dec(p.scan_length_cm, 1)} cm"]),
        ask("the dose-length product (DLP) of this scan", "mGy cm", PRECISION),
    ])


def prompt_l2(p: SsdeFromDimensions) -> str:
    return "\n\n".join([
        f"{_patient(p)} was acquired with the following settings.",
        bullets(_ctdi_line(p)),
        f"On the CT localizer image at the middle of the scan range the patient measures "
        f"{fmt_dec(p.ap_mm, 0)} mm anteroposterior (AP) and {fmt_dec(p.lat_mm, 0)} mm lateral (LAT).",
        _fit_text(),
        "Use the effective diameter of AAPM Report 204 as D.",
        ask("the size-specific dose estimate (SSDE) for this scan", "mGy", PRECISION),
    ])


def prompt_l3(p: SsdeFromWaterDiameter) -> str:
    return "\n\n".join([
        f"{_patient(p)} was acquired with the following settings.",
        bullets(_ctdi_line(p)),
        f"On the axial image at the middle of the scan range, the region of interest drawn along the patient's "
        f"skin contour has an area of {fmt_dec(p.roi_area_cm2, 1)} cm² and a mean CT number of "
        f"{fmt_dec(p.mean_ct_hu, 0)} HU.",
        _fit_text(),
        "Use the water-equivalent diameter of AAPM Report 220 (from this one image) as D.",
        ask("the size-specific dose estimate (SSDE) for this scan", "mGy", PRECISION),
    ])


# --- error modes (Table 6 of seed 000) -------------------------------------------------------------

_CHAINS = {1: dlp_chain, 2: dimensions_chain, 3: water_chain}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return float(_CHAINS[level](p, Sheet(), mode))


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("pitch_again", "CTDIvol divided by the pitch again, although it already includes the pitch",
          "conceptual", (1, 2, 3)),
    _mode("mean_diameter", "effective diameter taken as the arithmetic mean (AP + LAT)/2", "conceptual", (2,)),
    _mode("lateral_diameter", "lateral dimension used as the effective diameter", "conceptual", (2,)),
    _mode("mm_in_fit", "AP and LAT left in mm in the cm-based fit", "unit", (2,)),
    _mode("other_phantom_fit", "fit of the other reference phantom used", "conceptual", (2, 3)),
    _mode("f_omitted", "CTDIvol reported as the SSDE (conversion factor omitted)", "conceptual", (2, 3)),
    _mode("ct_not_converted", "mean CT number not converted to relative attenuation (contour taken as water)",
          "conceptual", (3,)),
    _mode("pi_omitted", "π omitted from the water-equivalent diameter, Dw = 2√Aw", "conceptual", (3,)),
    _mode("transposed_final", "two adjacent digits transposed in the final product", "arithmetic", (1, 2, 3)),
)

GENERATOR = Generator(
    name="ssde",
    title="CT patient dose estimate",
    document="AAPM Reports 204 and 220",
    band=0.01,
    levels={
        1: LevelSpec(1, DlpScan, sample_l1, violations_l1, partial(_solve, dlp_chain), lambda p: "mGy cm",
                     lambda p: "the dose-length product (DLP) of the scan", prompt_l1, dlp_chain),
        2: LevelSpec(2, SsdeFromDimensions, sample_l2, violations_l2, partial(_solve, dimensions_chain),
                     lambda p: "mGy", lambda p: "the size-specific dose estimate (SSDE) of the scan", prompt_l2,
                     dimensions_chain),
        3: LevelSpec(3, SsdeFromWaterDiameter, sample_l3, violations_l3, partial(_solve, water_chain),
                     lambda p: "mGy", lambda p: "the size-specific dose estimate (SSDE) of the scan", prompt_l3,
                     water_chain),
    },
    error_modes=ERROR_MODES,
    checking=True,
)
