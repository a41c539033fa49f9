"""X-ray beam quality and filters: narrow-beam attenuation and the first half-value layer (levels 1-3).

Level 1: narrow-beam transmission of monoenergetic photons through a slab, from the linear
attenuation coefficient or from the HVL. Level 2: the slab thickness that brings the air kerma
down to a target. Level 3: the first HVL of a diagnostic beam from air kerma readings with added
aluminium, by log-linear interpolation between the readings that bracket half the open-field
reading (seed 000, Generator specifications).

Narrow-beam attenuation: K(x) = K0 exp(-mu x), HVL = ln 2 / mu, so K(x) = K0 0.5^(x/HVL)
(Johns & Cunningham, "The Physics of Radiology", ch. 5; Attix, ch. 3).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial

from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec, fmt_sig, sig
from physbench.suites.medphys.text import ask, bullets, table

PRECISION = "at least three significant figures"
LN2 = math.log(2.0)

# NIST XCOM / Hubbell & Seltzer (NISTIR 5632) mass attenuation coefficients mu/rho (cm^2/g, with
# coherent scattering) and the densities (g/cm^3) that NIST uses.
MATERIALS: dict[str, tuple[float, dict[int, float]]] = {
    "aluminium": (2.699, {30: 1.128, 40: 0.5685, 50: 0.3681, 60: 0.2778, 80: 0.2018, 100: 0.1704, 150: 0.1378}),
    "water": (1.000, {30: 0.3756, 40: 0.2683, 50: 0.2269, 60: 0.2059, 80: 0.1837, 100: 0.1707, 150: 0.1505}),
}
# Minimum first HVL (mm Al) for diagnostic X-ray systems other than dental (21 CFR 1020.30 Table 1;
# state rules that adopt it); linear interpolation between the listed tube potentials.
MIN_HVL_MM = ((50, 1.2), (60, 1.3), (70, 1.5), (71, 2.1), (80, 2.3), (90, 2.5), (100, 2.7), (110, 3.0),
              (120, 3.2), (130, 3.5))
STEPS_MM = (0.5, 1.0, 1.0, 1.5, 2.0)
KVP_CHOICES = (60, 66, 70, 73, 77, 81, 85, 90, 96, 100, 102, 109, 117, 120, 125)


@dataclass(frozen=True)
class NarrowBeamTransmission:  # level 1
    material: str
    energy_kev: int
    given: str  # "mu" (linear attenuation coefficient printed) or "hvl"
    mu_per_cm: float  # 0.0 when the HVL is given
    hvl_mm: float  # 0.0 when mu is given
    thickness_mm: float


@dataclass(frozen=True)
class ThicknessForTarget:  # level 2
    material: str
    energy_kev: int
    given: str
    mu_per_cm: float
    hvl_mm: float
    open_air_kerma_mgy: float
    target_air_kerma_ugy: float


@dataclass(frozen=True)
class FirstHvl:  # level 3
    kvp: int
    added_al_mm: tuple[float, ...]
    air_kerma_mgy: tuple[float, ...]


Coefficient = NarrowBeamTransmission | ThicknessForTarget


def mu_of(material: str, energy_kev: int) -> float:
    """Linear attenuation coefficient (1/cm) from NIST mu/rho and density."""
    rho, table_ = MATERIALS[material]
    return table_[energy_kev] * rho


# --- solvers ---------------------------------------------------------------------------------

def transmission(p: NarrowBeamTransmission, mode: str | None = None) -> float:
    """K/K0 = exp(-mu x) with x in cm, or 0.5^(x/HVL)."""
    if p.given == "mu":
        x_cm = p.thickness_mm / 10.0
        if mode == "mu_cm_with_mm":
            return math.exp(-p.mu_per_cm * p.thickness_mm)
        if mode == "base10":
            return 10.0 ** (-p.mu_per_cm * x_cm)
        return math.exp(-p.mu_per_cm * x_cm)
    n = p.thickness_mm / p.hvl_mm  # number of HVLs
    if mode == "point_one_pow_n":
        return 0.1**n
    if mode == "mu_as_inverse_hvl":
        return math.exp(-n)
    return 0.5**n


def thickness_mm(p: ThicknessForTarget, mode: str | None = None) -> float:
    """x = ln(K0/K)/mu (cm, then mm), or x = HVL log2(K0/K)."""
    attenuation = p.open_air_kerma_mgy / (p.target_air_kerma_ugy / 1000.0)  # K0/K, both in mGy
    if p.given == "mu":
        if mode == "mu_cm_with_mm":
            return math.log(attenuation) / p.mu_per_cm  # a length in cm reported as mm
        if mode == "base10":
            return 10.0 * math.log10(attenuation) / p.mu_per_cm
        return 10.0 * math.log(attenuation) / p.mu_per_cm
    if mode == "point_one_pow_n":
        return p.hvl_mm * math.log10(attenuation)
    if mode == "mu_as_inverse_hvl":
        return p.hvl_mm * math.log(attenuation)
    return p.hvl_mm * math.log(attenuation) / LN2


def _bracket(p: FirstHvl) -> int:
    """Index i with K_i > K0/2 >= K_{i+1} (readings fall with thickness)."""
    half = p.air_kerma_mgy[0] / 2.0
    for i in range(len(p.air_kerma_mgy) - 1):
        if p.air_kerma_mgy[i] > half >= p.air_kerma_mgy[i + 1]:
            return i
    raise ValueError("half the open-field reading is not bracketed by the readings")


def _log_linear(x1: float, x2: float, k1: float, k2: float, k: float) -> float:
    """Thickness at which the straight line through (x1, ln k1), (x2, ln k2) reaches ln k."""
    return x1 + (x2 - x1) * math.log(k1 / k) / math.log(k1 / k2)


def first_hvl(p: FirstHvl, mode: str | None = None) -> float:
    """First HVL: log-linear interpolation between the readings that bracket K0/2."""
    x, k = p.added_al_mm, p.air_kerma_mgy
    half = k[0] / 2.0
    if mode == "single_exponential":  # one exponential through the open-field and last readings
        return x[-1] * LN2 / math.log(k[0] / k[-1])
    i = _bracket(p)
    if mode == "linear_interpolation":
        return x[i] + (x[i + 1] - x[i]) * (k[i] - half) / (k[i] - k[i + 1])
    if mode == "non_bracketing_pair":  # the adjacent pair on the thinner side (thicker if none)
        j = i - 1 if i >= 1 else i + 1
        return _log_linear(x[j], x[j + 1], k[j], k[j + 1], half)
    return _log_linear(x[i], x[i + 1], k[i], k[i + 1], half)


# --- sampling and plausibility ---------------------------------------------------------------------

def _coefficient(rng: random.Random) -> tuple[str, int, str, float, float]:
    material = rng.choice(tuple(MATERIALS))
    energy = rng.choice(tuple(MATERIALS[material][1]))
    mu = mu_of(material, energy)
    if rng.random() < 0.5:
        return material, energy, "mu", sig(mu, 4), 0.0
    return material, energy, "hvl", 0.0, sig(10.0 * LN2 / mu, 3)


def sample_l1(rng: random.Random) -> NarrowBeamTransmission:
    material, energy, given, mu, hvl = _coefficient(rng)
    mu_x = rng.uniform(0.1, 4.0)  # attenuation in mean free paths
    return NarrowBeamTransmission(material, energy, given, mu, hvl, sig(10.0 * mu_x / mu_of(material, energy), 3))


def sample_l2(rng: random.Random) -> ThicknessForTarget:
    material, energy, given, mu, hvl = _coefficient(rng)
    k0 = dec(rng.uniform(1.0, 20.0), 2)
    return ThicknessForTarget(material, energy, given, mu, hvl, k0, sig(1000.0 * k0 * rng.uniform(0.01, 0.5), 3))


def _coefficient_violations(p: Coefficient) -> list[str]:
    if p.material not in MATERIALS or p.energy_kev not in MATERIALS[p.material][1]:
        return ["material or energy not in the attenuation table"]
    mu = mu_of(p.material, p.energy_kev)
    if p.given == "mu" and not (p.hvl_mm == 0.0 and abs(p.mu_per_cm / mu - 1.0) < 1e-3):
        return ["printed mu differs from the NIST value"]
    if p.given == "hvl" and not (p.mu_per_cm == 0.0 and abs(p.hvl_mm * mu / (10.0 * LN2) - 1.0) < 5e-3):
        return ["printed HVL differs from ln 2 / mu"]
    if p.given not in ("mu", "hvl"):
        return ["given must be 'mu' or 'hvl'"]
    return []


def violations_l1(p: NarrowBeamTransmission) -> list[str]:
    out = _coefficient_violations(p)
    if not out and not 0.005 <= transmission(p) <= 0.95:
        out.append("transmission outside 0.005-0.95")
    if not p.thickness_mm > 0:
        out.append("thickness must be positive")
    return out


def violations_l2(p: ThicknessForTarget) -> list[str]:
    out = _coefficient_violations(p)
    if not 0.5 <= p.open_air_kerma_mgy <= 50.0:
        out.append("open-field air kerma outside 0.5-50 mGy")
    if not 0.005 <= p.target_air_kerma_ugy / 1000.0 / p.open_air_kerma_mgy <= 0.6:
        out.append("target transmission outside 0.005-0.6")
    return out


def _beam_readings(rng: random.Random, hvl: float) -> tuple[float, float, float]:
    """A two-component attenuation curve w e^(-mu1 x) + (1 - w) e^(-mu2 x), mu2 < mu1 (beam hardening),
    scaled so that its first HVL is `hvl`: returns (w, mu1, mu2) with mu in 1/mm."""
    w, r = rng.uniform(0.35, 0.65), rng.uniform(0.3, 0.6)
    lo, hi = LN2, LN2 / r  # f(m) = w e^-m + (1 - w) e^(-r m) crosses 1/2 between these
    for _ in range(40):
        m = 0.5 * (lo + hi)
        if w * math.exp(-m) + (1.0 - w) * math.exp(-r * m) > 0.5:
            lo = m
        else:
            hi = m
    mu1 = 0.5 * (lo + hi) / hvl
    return w, mu1, r * mu1


def sample_l3(rng: random.Random) -> FirstHvl:
    kvp = rng.choice(KVP_CHOICES)
    hvl = (0.033 * kvp + 0.3) * rng.uniform(0.9, 1.15)  # typical radiographic beams, 2.5-4 mm Al total filtration
    w, mu1, mu2 = _beam_readings(rng, hvl)
    # filter increments in common use; the first increment stays below the HVL so that at least one
    # pair of readings lies before the one that brackets half the open-field reading, and at most
    # about ten readings are needed
    step = rng.choice([s for s in STEPS_MM if s < 0.8 * hvl and hvl / s < 8.0])
    n = math.floor(hvl / step) + 2 + rng.randrange(3)
    k0 = rng.uniform(1.0, 8.0)
    xs = tuple(step * j for j in range(n + 1))
    return FirstHvl(kvp, xs, tuple(sig(k0 * (w * math.exp(-mu1 * x) + (1 - w) * math.exp(-mu2 * x)), 4) for x in xs))


def min_hvl_mm(kvp: float) -> float:
    """Regulatory minimum first HVL at this tube potential (interpolated)."""
    pts = MIN_HVL_MM
    if kvp <= pts[0][0]:
        return pts[0][1]
    for (v0, h0), (v1, h1) in zip(pts, pts[1:]):
        if kvp <= v1:
            return h0 + (h1 - h0) * (kvp - v0) / (v1 - v0)
    return pts[-1][1]


def violations_l3(p: FirstHvl) -> list[str]:
    x, k = p.added_al_mm, p.air_kerma_mgy
    out = []
    if not 50 <= p.kvp <= 130:
        out.append("tube potential outside 50-130 kVp")
    if len(x) != len(k) or not 4 <= len(x) <= 12 or x[0] != 0.0:
        return out + ["need 4-12 readings starting with the open field"]
    if not all(b > a for a, b in zip(x, x[1:])) or not all(0 < b < a for a, b in zip(k, k[1:])):
        return out + ["thicknesses must rise and readings fall"]
    mus = [math.log(k[j] / k[j + 1]) / (x[j + 1] - x[j]) for j in range(len(x) - 1)]
    if any(b > 1.03 * a for a, b in zip(mus, mus[1:])):
        out.append("effective attenuation rises with filtration (the beam must harden)")
    half = k[0] / 2.0
    i = next((j for j in range(len(k) - 1) if k[j] > half >= k[j + 1]), None)
    if i is None or i < 1 or i + 1 >= len(k) or half == k[i + 1]:
        out.append("half the open-field reading must lie strictly between two later readings")
        return out
    hvl = first_hvl(p)
    if not min_hvl_mm(p.kvp) <= hvl <= 7.0:
        out.append("first HVL below the regulatory minimum for this kVp or above 7 mm Al")
    return out


# --- prompts ---------------------------------------------------------------------------------

def _coefficient_line(p: Coefficient) -> str:
    if p.given == "mu":
        return (f"Linear attenuation coefficient of {p.material} for {p.energy_kev} keV photons: "
                f"μ = {fmt_sig(p.mu_per_cm, 4)} cm⁻¹")
    return f"Half-value layer of {p.material} for {p.energy_kev} keV photons: HVL = {fmt_sig(p.hvl_mm, 3)} mm"


def prompt_l1(p: NarrowBeamTransmission) -> str:
    return "\n\n".join([
        "A narrow beam of monoenergetic photons falls perpendicularly on a slab. The geometry is narrow-beam "
        "(good geometry): scattered photons do not reach the detector.",
        bullets([f"Photon energy: {p.energy_kev} keV", f"Slab material: {p.material}",
                 f"Slab thickness: {fmt_sig(p.thickness_mm, 3)} mm", _coefficient_line(p)]),
        ask("the narrow-beam transmission through the slab, that is the fraction of the incident photons that "
            "pass through without interacting", "", PRECISION),
    ])


def prompt_l2(p: ThicknessForTarget) -> str:
    return "\n\n".join([
        "A narrow beam of monoenergetic photons reaches a detector in narrow-beam (good) geometry: scattered "
        "photons do not reach the detector. A slab is to be placed in the beam to reduce the air kerma at the "
        "detector.",
        bullets([f"Photon energy: {p.energy_kev} keV", f"Slab material: {p.material}",
                 f"Air kerma at the detector without the slab: {fmt_dec(p.open_air_kerma_mgy, 2)} mGy",
                 f"Air kerma wanted at the detector with the slab: {fmt_sig(p.target_air_kerma_ugy, 3)} µGy",
                 _coefficient_line(p)]),
        ask(f"the thickness of {p.material} needed", "mm", PRECISION),
    ])


def prompt_l3(p: FirstHvl) -> str:
    rows = [[fmt_dec(x, 1), fmt_sig(k, 4)] for x, k in zip(p.added_al_mm, p.air_kerma_mgy)]
    return "\n\n".join([
        "The beam quality of a radiographic X-ray tube was measured in narrow-beam geometry. With the tube "
        "settings held fixed, the air kerma was measured with increasing thicknesses of high-purity aluminium "
        "added in the beam (0 mm is the open field).",
        bullets([f"Tube potential: {p.kvp} kVp"]),
        table(["Added aluminium (mm)", "Air kerma (mGy)"], rows),
        "Determine the first half-value layer by log-linear interpolation (the logarithm of the air kerma taken "
        "as linear in thickness between measurements).",
        ask("the first half-value layer of this beam (a thickness of aluminium)", "mm", PRECISION),
    ])


# --- error modes (seed 000, Table 6) ---------------------------------------------------------------

def _mode_answer(mode: str, level: int, p: object) -> float:
    """The erroneous answer; on an item that prints the other coefficient the mode cannot occur and
    the answer is the reference."""
    if level == 1:
        return transmission(p, mode)  # type: ignore[arg-type]
    if level == 2:
        return thickness_mm(p, mode)  # type: ignore[arg-type]
    return first_hvl(p, mode)  # type: ignore[arg-type]


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("mu_cm_with_mm", "μ in cm⁻¹ combined with a thickness in mm (unit slip; items that give μ)", "unit",
          (1, 2)),
    _mode("base10", "base-10 exponential/logarithm used for the natural one (items that give μ)", "conceptual",
          (1, 2)),
    _mode("point_one_pow_n", "0.1ⁿ used for 0.5ⁿ, with n counted in HVLs (items that give the HVL)", "conceptual",
          (1, 2)),
    _mode("mu_as_inverse_hvl", "μ taken as 1/HVL instead of ln 2/HVL (items that give the HVL)", "conceptual", (1, 2)),
    _mode("linear_interpolation", "linear instead of log-linear interpolation between the bracketing readings",
          "convention", (3,)),
    _mode("non_bracketing_pair", "log-linear interpolation through an adjacent pair of readings that does not "
          "bracket half the open-field reading", "conceptual", (3,)),
    _mode("single_exponential", "one exponential through the open-field and last readings, ignoring beam hardening",
          "conceptual", (3,)),
)

GENERATOR = Generator(
    name="hvl",
    title="X-ray beam quality, filters",
    document="Narrow-beam attenuation",
    band=0.01,
    levels={
        1: LevelSpec(1, NarrowBeamTransmission, sample_l1, violations_l1, transmission, lambda p: "",
                     lambda p: "the narrow-beam transmission through the slab", prompt_l1),
        2: LevelSpec(2, ThicknessForTarget, sample_l2, violations_l2, thickness_mm, lambda p: "mm",
                     lambda p: f"the thickness of {p.material} that brings the air kerma down to the target",
                     prompt_l2),
        3: LevelSpec(3, FirstHvl, sample_l3, violations_l3, first_hvl, lambda p: "mm",
                     lambda p: "the first half-value layer of the beam, in mm of aluminium", prompt_l3),
    },
    error_modes=ERROR_MODES,
)
