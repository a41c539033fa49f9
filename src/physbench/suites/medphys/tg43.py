"""HDR Ir-192 point dose by the TG-43U1 one-dimensional (point-source) formalism (levels 1-3;
seed 000, Table 1 and "Generator specifications")."""

from __future__ import annotations

import bisect
import datetime
import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Sequence

from physbench.core.errors import UserError
from physbench.suites.medphys.base import ErrorMode, Generator, LevelSpec
from physbench.suites.medphys.numbers import dec, fmt_dec
from physbench.suites.medphys.text import ask, bullets, table

PRECISION = "at least three significant figures"
R0_CM = 1.0  # TG-43U1 reference distance
SECONDS_PER_HOUR = 3600.0
IR192_HALF_LIFE_D = 73.83  # ENSDF 73.829 d, printed in level-3 items
# Radii (cm) at which every item tabulates g_P(r) and phi_an(r)
RADII_CM: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0)
EDGE_TOLERANCE = 0.005  # relative
FIRST_DATE = datetime.date(2024, 1, 1).toordinal()
LAST_DATE = datetime.date(2026, 12, 31).toordinal()


@dataclass(frozen=True)
class SingleDwell:  # level 1
    air_kerma_strength_u: float
    dose_rate_constant: float
    distance_cm: float
    dwell_s: float
    radii_cm: tuple[float, ...]
    radial_dose: tuple[float, ...]
    anisotropy: tuple[float, ...]


@dataclass(frozen=True)
class TwoDwells:  # level 2
    air_kerma_strength_u: float
    dose_rate_constant: float
    distances_cm: tuple[float, ...]
    dwells_s: tuple[float, ...]
    radii_cm: tuple[float, ...]
    radial_dose: tuple[float, ...]
    anisotropy: tuple[float, ...]


@dataclass(frozen=True)
class CatheterDwells:  # level 3
    calibration_strength_u: float
    calibration_date: str  # ISO date
    treatment_date: str  # ISO date
    half_life_d: float
    dose_rate_constant: float
    dwell_z_cm: tuple[float, ...]  # positions along the catheter (the z-axis, x = y = 0)
    dwells_s: tuple[float, ...]
    point_cm: tuple[float, ...]  # (x, y, z) of the calculation point
    radii_cm: tuple[float, ...]
    radial_dose: tuple[float, ...]
    anisotropy: tuple[float, ...]


# --- physics ---------------------------------------------------------------------------------------

def interpolate(x: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    """Linear interpolation in a table (the items ask for it); exact at tabulated points. A point within
    EDGE_TOLERANCE of either end (a rounding of a tabulated edge distance) uses the end segment."""
    if not xs[0] * (1 - EDGE_TOLERANCE) <= x <= xs[-1] * (1 + EDGE_TOLERANCE):
        raise UserError(f"r = {x:.4g} cm lies outside the table ({xs[0]}-{xs[-1]} cm)")
    i = min(max(bisect.bisect_right(xs, x), 1), len(xs) - 1)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def geometry_factor(r_cm: float, mode: str | None = None) -> float:
    """TG-43U1 point-source geometry function relative to r0: (r0/r)^2."""
    if mode == "geometry_omitted":
        return 1.0
    if mode == "inverse_r":
        return R0_CM / r_cm
    return (R0_CM / r_cm) ** 2


def dose_rate(s_k_u: float, dose_rate_constant: float, r_cm: float, p: SingleDwell | TwoDwells | CatheterDwells,
              mode: str | None = None) -> float:
    """TG-43U1 Eq. 11 (1-D): D'(r) = S_K Lambda (r0/r)^2 g_P(r) phi_an(r), in cGy/h for S_K in U."""
    lam = 1.0 if mode == "lambda_omitted" else dose_rate_constant
    g = 1.0 if mode == "radial_dose_omitted" else interpolate(r_cm, p.radii_cm, p.radial_dose)
    phi = 1.0 if mode == "anisotropy_omitted" else interpolate(r_cm, p.radii_cm, p.anisotropy)
    return s_k_u * lam * geometry_factor(r_cm, mode) * g * phi


def dwell_hours(seconds: float, mode: str | None = None) -> float:
    """Dwell time in hours (the dose rate is per hour)."""
    if mode == "seconds_as_hours":
        return seconds
    if mode == "seconds_as_minutes":
        return seconds / 60.0
    return seconds / SECONDS_PER_HOUR


def elapsed_days(p: CatheterDwells) -> int:
    """Whole days from the calibration date to the treatment date (same time of day)."""
    return (datetime.date.fromisoformat(p.treatment_date) - datetime.date.fromisoformat(p.calibration_date)).days


def strength_on_treatment_day(p: CatheterDwells, mode: str | None = None) -> float:
    """S_K decayed from the calibration date: S_K(t) = S_K(0) exp(-ln2 t / T1/2)."""
    if mode == "no_decay":
        return p.calibration_strength_u
    sign = 1.0 if mode == "decay_reversed" else -1.0
    return p.calibration_strength_u * math.exp(sign * math.log(2.0) * elapsed_days(p) / p.half_life_d)


def distances(p: CatheterDwells, mode: str | None = None) -> list[float]:
    """Source-to-point distance for each dwell on the catheter (the z-axis)."""
    x, y, z = p.point_cm
    rho2 = x * x + y * y
    if mode == "perpendicular_distance":
        return [math.sqrt(rho2)] * len(p.dwell_z_cm)
    return [math.sqrt(rho2 + (z - zi) ** 2) for zi in p.dwell_z_cm]


# --- solvers (reference when mode is None) ------------------------------------------------------------

def _sum_dwells(s_k: float, lam: float, rs: Sequence[float], times: Sequence[float], p: TwoDwells | CatheterDwells,
                mode: str | None) -> float:
    n = len(rs) - 1 if mode == "last_dwell_omitted" else len(rs)
    return sum(dose_rate(s_k, lam, rs[i], p, mode) * dwell_hours(times[i], mode) for i in range(n))


def dose_single(p: SingleDwell, mode: str | None = None) -> float:
    return dose_rate(p.air_kerma_strength_u, p.dose_rate_constant, p.distance_cm, p, mode) * dwell_hours(p.dwell_s,
                                                                                                         mode)


def dose_two(p: TwoDwells, mode: str | None = None) -> float:
    return _sum_dwells(p.air_kerma_strength_u, p.dose_rate_constant, p.distances_cm, p.dwells_s, p, mode)


def dose_catheter(p: CatheterDwells, mode: str | None = None) -> float:
    return _sum_dwells(strength_on_treatment_day(p, mode), p.dose_rate_constant, distances(p, mode), p.dwells_s, p,
                       mode)


# --- sampling and plausibility -------------------------------------------------------------------------

def _tables(rng: random.Random) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per-draw g_P(r) and phi_an(r) shaped like Ir-192 HDR data: g_P = 1 at 1 cm, rising by under 1%
    to 2-3 cm and falling beyond; phi_an a few percent below 1, slowly rising with r."""
    c1, c2 = rng.uniform(0.002, 0.006), rng.uniform(-0.0016, -0.0007)
    p0, p1 = rng.uniform(0.965, 0.985), rng.uniform(0.002, 0.008)
    # round(x, 3) rounds exactly as fmt_dec(x, 3) prints (both round the binary value correctly),
    # at a fraction of the cost for the 16 entries of every draw
    g = tuple(round(1.0 + c1 * (r - 1.0) + c2 * (r - 1.0) ** 2, 3) for r in RADII_CM)
    phi = tuple(round(p0 + p1 * math.log(r), 3) for r in RADII_CM)
    return g, phi


def _source(rng: random.Random, low: float = 15000.0, high: float = 48000.0) -> tuple[float, float]:
    return dec(rng.uniform(low, high), 0), dec(rng.uniform(1.094, 1.121), 3)


def _dwell(rng: random.Random, low: float = 5.0, high: float = 120.0) -> float:
    return dec(rng.uniform(low, high), 1)


def _table_violations(radii: Sequence[float], g: Sequence[float], phi: Sequence[float]) -> list[str]:
    out = []
    if tuple(radii) != RADII_CM or len(g) != len(radii) or len(phi) != len(radii):
        out.append("tables must list g_P and phi_an at the standard radii")
        return out
    if g[radii.index(1.0)] != 1.0:
        out.append("g_P(1 cm) must be 1")
    if not all(0.95 <= v <= 1.02 for v in g):
        out.append("g_P outside 0.95-1.02 (Ir-192 within 6 cm)")
    if not all(0.93 <= v <= 1.0 for v in phi):
        out.append("phi_an outside 0.93-1.00")
    if any(abs(b - a) > 0.02 for a, b in zip(g, g[1:])) or any(b < a for a, b in zip(phi, phi[1:])):
        out.append("tables not smooth (g_P steps over 0.02, or phi_an falling with r)")
    return out


def _source_violations(s_k: float, lam: float, times: Sequence[float]) -> list[str]:
    out = []
    if not 10000.0 <= s_k <= 50000.0:
        out.append("air-kerma strength outside 10 000-50 000 U (HDR Ir-192)")
    if not 1.09 <= lam <= 1.125:
        out.append("dose-rate constant outside 1.090-1.125 cGy/(h U)")
    if not all(1.0 <= t <= 300.0 for t in times):
        out.append("dwell time outside 1-300 s")
    return out


def _dose_violation(dose: float) -> list[str]:
    return [] if 5.0 <= dose <= 2000.0 else ["dose outside 5-2000 cGy"]


def sample_l1(rng: random.Random) -> SingleDwell:
    s_k, lam = _source(rng)
    g, phi = _tables(rng)
    return SingleDwell(s_k, lam, rng.choice(RADII_CM), _dwell(rng), RADII_CM, g, phi)


def violations_l1(p: SingleDwell) -> list[str]:
    out = _table_violations(p.radii_cm, p.radial_dose, p.anisotropy)
    out += _source_violations(p.air_kerma_strength_u, p.dose_rate_constant, (p.dwell_s,))
    if p.distance_cm not in RADII_CM:
        out.append("level-1 distance must be a tabulated one")
    return out or _dose_violation(dose_single(p))


def _untabulated(rng: random.Random) -> float:
    while True:
        r = dec(rng.uniform(0.6, 5.9), 1)
        if r not in RADII_CM:
            return r


def sample_l2(rng: random.Random) -> TwoDwells:
    s_k, lam = _source(rng)
    g, phi = _tables(rng)
    return TwoDwells(s_k, lam, (_untabulated(rng), _untabulated(rng)), (_dwell(rng), _dwell(rng)), RADII_CM, g, phi)


def violations_l2(p: TwoDwells) -> list[str]:
    out = _table_violations(p.radii_cm, p.radial_dose, p.anisotropy)
    out += _source_violations(p.air_kerma_strength_u, p.dose_rate_constant, p.dwells_s)
    if len(p.distances_cm) != 2 or len(p.dwells_s) != 2:
        out.append("level 2 has two dwells")
    elif any(r in RADII_CM or not 0.5 < r < 6.0 for r in p.distances_cm):
        out.append("level-2 distances must be untabulated and inside the table")
    return out or _dose_violation(dose_two(p))


def _grid(x: float) -> float:
    return dec(x, 1)  # the 0.1 cm grid of dwell positions and points


def sample_l3(rng: random.Random) -> CatheterDwells:
    cal = rng.randint(FIRST_DATE, LAST_DATE)
    step = rng.choice((0.5, 0.5, 1.0))
    z1 = _grid(rng.uniform(-1.0, 1.0))
    zs = (z1, _grid(z1 + step), _grid(z1 + 2 * step))
    point = (_grid(rng.uniform(-3.0, 3.0)), _grid(rng.uniform(-3.0, 3.0)), _grid(rng.uniform(z1 - 1.5, zs[2] + 1.5)))
    s_k, lam = _source(rng, 35000.0, 48000.0)
    g, phi = _tables(rng)
    return CatheterDwells(s_k, datetime.date.fromordinal(cal).isoformat(),
                          datetime.date.fromordinal(cal + rng.randint(1, 100)).isoformat(), IR192_HALF_LIFE_D, lam,
                          zs, (_dwell(rng), _dwell(rng), _dwell(rng)), point, RADII_CM, g, phi)


def violations_l3(p: CatheterDwells) -> list[str]:
    out = _table_violations(p.radii_cm, p.radial_dose, p.anisotropy)
    out += _source_violations(p.calibration_strength_u, p.dose_rate_constant, p.dwells_s)
    if p.half_life_d != IR192_HALF_LIFE_D:
        out.append("Ir-192 half-life is the printed 73.83 d")
    if len(p.dwell_z_cm) != 3 or len(p.dwells_s) != 3 or len(p.point_cm) != 3:
        out.append("level 3 has three dwells and one point (x, y, z)")
        return out
    if any(round(v, 1) != v for v in (*p.dwell_z_cm, *p.point_cm)) or list(p.dwell_z_cm) != sorted(set(p.dwell_z_cm)):
        out.append("dwell positions and point must lie on the 0.1 cm grid, dwells in order along the catheter")
    try:
        days = elapsed_days(p)
    except ValueError:
        return out + ["dates must be ISO dates (YYYY-MM-DD)"]
    if not 1 <= days <= 100:
        out.append("treatment 1-100 days after the source calibration")
    rs = distances(p) + distances(p, "perpendicular_distance")[:1]
    if not all(0.5 <= r <= 6.0 for r in rs):
        out.append("a distance (or the perpendicular distance) lies outside the 0.5-6 cm table")
    return out or _dose_violation(dose_catheter(p))


# --- prompts ---------------------------------------------------------------------------------------------

def _source_lines(s_k: float, lam: float) -> list[str]:
    return [f"Air-kerma strength S_K: {fmt_dec(s_k, 0)} U (1 U = 1 cGy cm² h⁻¹)",
            f"Dose-rate constant Λ: {fmt_dec(lam, 3)} cGy h⁻¹ U⁻¹"]


def _table_text(p: SingleDwell | TwoDwells | CatheterDwells) -> str:
    rows = [[f"{r:.1f}", f"{g:.3f}", f"{f:.3f}"] for r, g, f in zip(p.radii_cm, p.radial_dose, p.anisotropy)]
    return ("Source data for this Ir-192 source model:\n\n"
            + table(["r (cm)", "Radial dose function g_P(r)", "1-D anisotropy function φ_an(r)"], rows))


HDR_INTRO = "An HDR brachytherapy treatment uses an Ir-192 source in water (full scatter conditions)."
FORMALISM = "Use the TG-43U1 one-dimensional formalism with the point-source geometry factor (r0 = 1 cm)."
INTERPOLATE = ("Where a distance is not tabulated, interpolate g_P(r) and φ_an(r) each linearly in r "
               "between the neighbouring rows.")


def prompt_l1(p: SingleDwell) -> str:
    return "\n\n".join([
        HDR_INTRO + " The source stops at one dwell position.",
        bullets([*_source_lines(p.air_kerma_strength_u, p.dose_rate_constant),
                 f"Dwell time: {fmt_dec(p.dwell_s, 1)} s",
                 f"Distance from the source centre to the point: {fmt_dec(p.distance_cm, 1)} cm"]),
        _table_text(p),
        "Use the TG-43U1 one-dimensional (point-source) formalism: dose rate "
        "D'(r) = S_K × Λ × (r0/r)² × g_P(r) × φ_an(r), with r0 = 1 cm.",
        ask("the dose to water at the point from this dwell", "cGy", PRECISION),
    ])


def prompt_l2(p: TwoDwells) -> str:
    dwells = [f"Dwell {i + 1}: dwell time {fmt_dec(t, 1)} s, distance from the source centre to point P "
              f"{fmt_dec(r, 1)} cm" for i, (t, r) in enumerate(zip(p.dwells_s, p.distances_cm))]
    return "\n\n".join([
        HDR_INTRO + " The source stops at two dwell positions.",
        bullets([*_source_lines(p.air_kerma_strength_u, p.dose_rate_constant), *dwells]),
        _table_text(p),
        FORMALISM + " " + INTERPOLATE,
        ask("the total dose to water at point P from both dwells", "cGy", PRECISION),
    ])


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def _date_text(iso: str) -> str:
    d = datetime.date.fromisoformat(iso)
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"  # not strftime: its month names follow the locale


def prompt_l3(p: CatheterDwells) -> str:
    x, y, z = (fmt_dec(v, 1) for v in p.point_cm)
    dwells = [f"Dwell {i + 1}: at z = {fmt_dec(zi, 1)} cm, dwell time {fmt_dec(t, 1)} s"
              for i, (zi, t) in enumerate(zip(p.dwell_z_cm, p.dwells_s))]
    return "\n\n".join([
        HDR_INTRO + " A straight catheter runs along the z-axis (x = 0, y = 0, coordinates in cm), and the source "
        "stops at three dwell positions in it.",
        bullets([f"Air-kerma strength S_K on the calibration certificate: {fmt_dec(p.calibration_strength_u, 0)} U "
                 "(1 U = 1 cGy cm² h⁻¹)",
                 f"Calibration date: {_date_text(p.calibration_date)}",
                 f"Treatment date: {_date_text(p.treatment_date)} (same time of day as the calibration)",
                 f"Half-life of Ir-192: {fmt_dec(p.half_life_d, 2)} d",
                 f"Dose-rate constant Λ: {fmt_dec(p.dose_rate_constant, 3)} cGy h⁻¹ U⁻¹",
                 *dwells,
                 f"Point P: x = {x} cm, y = {y} cm, z = {z} cm"]),
        _table_text(p),
        FORMALISM + " Treat each dwell as a point source at its dwell position. Compute each source-to-point "
        "distance to at least three significant figures. " + INTERPOLATE,
        ask("the total dose to water at point P from the three dwells on the treatment date", "cGy", PRECISION),
    ])


# --- error modes (Table 6 of seed 000) --------------------------------------------------------------

_SOLVERS = {1: dose_single, 2: dose_two, 3: dose_catheter}


def _mode_answer(mode: str, level: int, p: object) -> float:
    return _SOLVERS[level](p, mode)  # type: ignore[operator]


def _mode(name: str, description: str, category: str, levels: tuple[int, ...]) -> ErrorMode:
    return ErrorMode(name, description, category, levels, partial(_mode_answer, name))  # type: ignore[arg-type]


ERROR_MODES = (
    _mode("seconds_as_hours", "dwell time in seconds used as hours", "unit", (1, 2, 3)),
    _mode("seconds_as_minutes", "dwell time divided by 60 instead of 3600 (seconds taken as minutes)", "unit",
          (1, 2, 3)),
    _mode("geometry_omitted", "geometry factor (r0/r)^2 omitted", "conceptual", (1, 2, 3)),
    _mode("inverse_r", "1/r law: (r0/r) instead of (r0/r)^2", "conceptual", (1, 2, 3)),
    _mode("radial_dose_omitted", "radial dose function g_P(r) omitted", "correction", (1, 2, 3)),
    _mode("anisotropy_omitted", "1-D anisotropy function phi_an(r) omitted", "correction", (1, 2, 3)),
    _mode("lambda_omitted", "dose-rate constant omitted (air-kerma strength used as the dose rate at 1 cm)",
          "conceptual", (1, 2, 3)),
    _mode("no_decay", "S_K not decay-corrected from the calibration date", "conceptual", (3,)),
    _mode("decay_reversed", "decay correction applied in the wrong direction", "conceptual", (3,)),
    _mode("perpendicular_distance", "perpendicular distance to the catheter used as r for every dwell", "conceptual",
          (3,)),
    _mode("last_dwell_omitted", "last dwell position left out of the sum", "arithmetic", (2, 3)),
)

GENERATOR = Generator(
    name="tg43",
    title="HDR point-dose check",
    document="AAPM TG-43U1, 1-D formalism",
    band=0.02,
    levels={
        1: LevelSpec(1, SingleDwell, sample_l1, violations_l1, dose_single, lambda p: "cGy",
                     lambda p: "the dose to water at the point from this dwell", prompt_l1),
        2: LevelSpec(2, TwoDwells, sample_l2, violations_l2, dose_two, lambda p: "cGy",
                     lambda p: "the total dose to water at point P from both dwells", prompt_l2),
        3: LevelSpec(3, CatheterDwells, sample_l3, violations_l3, dose_catheter, lambda p: "cGy",
                     lambda p: "the total dose to water at point P from the three dwells on the treatment date",
                     prompt_l3),
    },
    error_modes=ERROR_MODES,
    checking=False,
)
