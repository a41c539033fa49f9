"""Second solver for the HDR Ir-192 point-dose items (TG-43U1 1-D formalism), from the prompt alone.

TG-43U1 (Rivard et al., Med Phys 31:633 (2004)), Eq. 11 with the point-source geometry factor:
D'(r) = S_K Λ (r0/r)² g_P(r) φ_an(r), r0 = 1 cm; the dose of a dwell is D'(r) times its dwell time
(the source decays negligibly during one dwell). Level 3 decays S_K from the calibration date,
S_K(t) = S_K(0) exp(-ln 2 t/T½), and takes each distance from the printed coordinates.

``distance_rounding_check`` reproduces the seed's distance-rounding check (seed 000, "Tolerance
bands" and "Verification detail"): how far the level-3 dose moves when a solver rounds every
source-to-point distance, as the items let it, to three significant figures or to 0.01 cm.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import re
import statistics
from dataclasses import dataclass
from typing import Callable

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_listing import (
    Bullet, asked, bullets, checked, has, markdown_tables, numbers, one, quantity,
)
from physbench.suites.medphys.verify.independent.units_nucmed import hours

ROUNDINGS = ("3sf", "0.01cm")
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_MONTHS = {name: i for i, name in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}
_R0 = re.compile(r"r0 = (?P<r0>\d+(?:\.\d+)?) cm")
_STOPS = re.compile(r"stops at (?P<count>\w+) dwell positions?")
_CATHETER = re.compile(r"runs along the z-axis \(x = (?P<x>-?\d+(?:\.\d+)?), y = (?P<y>-?\d+(?:\.\d+)?), "
                       r"coordinates in cm\)")
_L2_DWELL = re.compile(r"dwell time (?P<t>.+?), distance from the source centre to point P (?P<r>.+)")
_L3_DWELL = re.compile(r"at z = (?P<z>-?\d+(?:\.\d+)?) cm, dwell time (?P<t>.+)")
_POINT = re.compile(r"x = (?P<x>-?\d+(?:\.\d+)?) cm, y = (?P<y>-?\d+(?:\.\d+)?) cm, z = (?P<z>-?\d+(?:\.\d+)?) cm")
_DATE = re.compile(r"(?P<day>\d{1,2}) (?P<month>[A-Za-z]+) (?P<year>\d{4})")


@dataclass(frozen=True)
class SourceTable:
    """The printed radial dose function g_P(r) and 1-D anisotropy function φ_an(r)."""

    r_cm: tuple[float, ...]
    g_p: tuple[float, ...]
    phi_an: tuple[float, ...]

    def at(self, r_cm: float, interpolate: bool) -> tuple[float, float]:
        """(g_P, φ_an) at r: tabulated, or linear between the bracketing rows when allowed."""
        if r_cm in self.r_cm:
            i = self.r_cm.index(r_cm)
            return self.g_p[i], self.phi_an[i]
        if not self.r_cm[0] < r_cm < self.r_cm[-1]:
            raise PromptDefect(f"distance {r_cm:.4g} cm is outside the printed table "
                               f"({self.r_cm[0]}-{self.r_cm[-1]} cm) and no extrapolation rule is stated")
        if not interpolate:
            raise PromptDefect(f"distance {r_cm:.4g} cm is not tabulated and no interpolation rule is stated")
        hi = bisect.bisect_right(self.r_cm, r_cm)
        lo = hi - 1
        w = (r_cm - self.r_cm[lo]) / (self.r_cm[hi] - self.r_cm[lo])
        return (self.g_p[lo] + w * (self.g_p[hi] - self.g_p[lo]),
                self.phi_an[lo] + w * (self.phi_an[hi] - self.phi_an[lo]))


@dataclass(frozen=True)
class Dwell:
    """One dwell: its source-to-point distance (cm, as used) and dwell time (h)."""

    r_cm: float
    time_h: float


def solve(level: int, prompt: str, *, distance_rounding: str | None = None) -> tuple[float, str]:
    """(total dose, unit) at the point; ``distance_rounding`` ("3sf", "0.01cm" or None) rounds every
    source-to-point distance as a hand calculation might (None keeps full precision)."""
    return sum(dwell_doses(level, prompt, distance_rounding=distance_rounding)), _answer_unit(prompt)


def dwell_doses(level: int, prompt: str, *, distance_rounding: str | None = None) -> list[float]:
    """The dose of each dwell in the asked unit (cGy), in the order printed."""
    if level not in (1, 2, 3):
        raise ValueError(f"tg43 has levels 1-3, not {level}")
    if distance_rounding is not None and distance_rounding not in ROUNDINGS:
        raise ValueError(f"distance_rounding must be one of {ROUNDINGS} or None, not {distance_rounding!r}")
    prompt = checked(prompt)
    _answer_unit(prompt)
    _require_point_source(prompt)
    items = bullets(prompt)
    s_k = _air_kerma_strength_u(items)
    if level == 3:
        s_k *= _decay_factor(prompt, items)
    dose_rate_1cm = s_k * _dose_rate_constant(items)  # cGy/h: S_K Λ, U × cGy h⁻¹ U⁻¹
    r0 = _reference_distance(prompt)
    table = _source_table(prompt)
    interpolate = has(prompt, "interpolate g_P(r) and φ_an(r) each linearly in r")
    dwells = {1: _dwells_l1, 2: _dwells_l2, 3: _dwells_l3}[level](prompt, items)
    _check_dwell_count(prompt, len(dwells))
    doses = []
    for dwell in dwells:
        r = round_distance(dwell.r_cm, distance_rounding)
        if r <= 0:
            raise PromptDefect("a dwell position coincides with the point")
        g_p, phi_an = table.at(r, interpolate)
        doses.append(dose_rate_1cm * (r0 / r) ** 2 * g_p * phi_an * dwell.time_h)  # TG-43U1 Eq. 11
    return doses


def round_distance(r_cm: float, mode: str | None) -> float:
    """A distance as a hand calculation carries it: full precision, 3 significant figures or 0.01 cm."""
    if mode is None:
        return r_cm
    if mode == "3sf":
        return float(f"{r_cm:.3g}")
    if mode == "0.01cm":
        return round(r_cm, 2)
    raise ValueError(f"unknown distance rounding {mode!r}")


def _answer_unit(prompt: str) -> str:
    _, unit = asked(prompt)
    if unit != "cGy":
        raise PromptDefect(f"the dose is asked in {unit!r}; this solver reads dose rates in cGy/h only")
    return unit


def _require_point_source(prompt: str) -> None:
    if not (has(prompt, "one-dimensional") and has(prompt, "point-source")):
        raise PromptDefect("the prompt does not say 1-D formalism with the point-source geometry factor; "
                           "the line-source factor G_L would be another defensible choice")


def _air_kerma_strength_u(items: list[Bullet]) -> float:
    _, bullet = one(items, r"Air-kerma strength S_K(?: on the calibration certificate)?", "the air-kerma strength")
    value, unit = quantity(bullet.value, "air-kerma strength")
    definition = re.fullmatch(r"U(?: \((?P<def>.+)\))?", unit)
    if definition is None:
        raise PromptDefect(f"air-kerma strength in {unit!r}, not in U")
    stated = definition.group("def")
    if stated is not None and stated.replace("μ", "µ") not in ("1 U = 1 cGy cm2 h-1", "1 U = 1 µGy m2 h-1"):
        raise PromptDefect(f"unexpected definition of the unit U: {stated!r}")
    return value


def _dose_rate_constant(items: list[Bullet]) -> float:
    _, bullet = one(items, r"Dose-rate constant Λ", "the dose-rate constant")
    value, unit = quantity(bullet.value, "dose-rate constant")
    if unit not in ("cGy h-1 U-1", "cGy/(h U)", "cGy/(U h)"):
        raise PromptDefect(f"dose-rate constant in {unit!r}, not cGy h⁻¹ U⁻¹")
    return value


def _reference_distance(prompt: str) -> float:
    found = {float(m.group("r0")) for m in _R0.finditer(prompt)}
    if len(found) != 1:
        raise PromptDefect(f"the reference distance r0 is not stated exactly once (found {sorted(found)})")
    return found.pop()


def _source_table(prompt: str) -> SourceTable:
    candidates = []
    for table in markdown_tables(prompt):
        header = [h.replace(" ", "") for h in table[0]]
        if len(header) == 3 and header[0] == "r(cm)" and "g_P(r)" in header[1] and "φ_an(r)" in header[2]:
            candidates.append(table[1:])
    if len(candidates) != 1:
        raise PromptDefect(f"expected one table of r (cm), g_P(r), φ_an(r); found {len(candidates)}")
    rows = []
    for cells in candidates[0]:
        if len(cells) != 3:
            raise PromptDefect(f"the table row {cells!r} does not have the three columns of its header")
        values = [numbers(c) for c in cells]
        if any(len(v) != 1 for v in values):
            raise PromptDefect(f"cannot read the table row {cells!r}")
        rows.append(tuple(v[0] for v in values))
    r = tuple(row[0] for row in rows)
    if len(r) < 2 or any(b <= a for a, b in zip(r, r[1:])):
        raise PromptDefect("the table distances are not strictly increasing")
    return SourceTable(r, tuple(row[1] for row in rows), tuple(row[2] for row in rows))


def _dwell_time_h(text: str, what: str) -> float:
    time_h = hours(*quantity(text, what), what)
    if time_h <= 0:
        raise PromptDefect(f"{what} is not positive")
    return time_h


def _dwells_l1(prompt: str, items: list[Bullet]) -> list[Dwell]:
    _, time = one(items, r"Dwell time", "the dwell time")
    _, dist = one(items, r"Distance from the source centre to the point", "the distance")
    r_value, r_unit = quantity(dist.value, "distance")
    if r_unit != "cm":
        raise PromptDefect(f"distance in {r_unit!r}, not cm")
    return [Dwell(r_value, _dwell_time_h(time.value, "dwell time"))]


def _numbered_dwells(items: list[Bullet]) -> list[Bullet]:
    found = [b for b in items if re.fullmatch(r"Dwell \d+", b.label)]
    if [int(b.label.split()[1]) for b in found] != list(range(1, len(found) + 1)):
        raise PromptDefect("the dwells are not numbered 1, 2, ... in order")
    return found


def _dwells_l2(prompt: str, items: list[Bullet]) -> list[Dwell]:
    dwells = []
    for bullet in _numbered_dwells(items):
        match = _L2_DWELL.fullmatch(bullet.value)
        if match is None:
            raise PromptDefect(f"cannot read {bullet.label}: {bullet.value!r}")
        r_value, r_unit = quantity(match.group("r"), f"{bullet.label} distance")
        if r_unit != "cm":
            raise PromptDefect(f"{bullet.label} distance in {r_unit!r}, not cm")
        dwells.append(Dwell(r_value, _dwell_time_h(match.group("t"), f"{bullet.label} dwell time")))
    return dwells


def _dwells_l3(prompt: str, items: list[Bullet]) -> list[Dwell]:
    catheter = list(_CATHETER.finditer(" ".join(prompt.split())))
    if len(catheter) != 1:
        raise PromptDefect("the catheter's position (a line along z at given x, y) is not stated once")
    xc, yc = float(catheter[0].group("x")), float(catheter[0].group("y"))
    _, point = one(items, r"Point P", "the position of point P")
    p = _POINT.fullmatch(point.value)
    if p is None:
        raise PromptDefect(f"cannot read the coordinates of P: {point.value!r}")
    px, py, pz = (float(p.group(k)) for k in "xyz")
    dwells = []
    for bullet in _numbered_dwells(items):
        match = _L3_DWELL.fullmatch(bullet.value)
        if match is None:
            raise PromptDefect(f"cannot read {bullet.label}: {bullet.value!r}")
        z = float(match.group("z"))
        r = math.sqrt((px - xc) ** 2 + (py - yc) ** 2 + (pz - z) ** 2)  # distance source centre to P
        dwells.append(Dwell(r, _dwell_time_h(match.group("t"), f"{bullet.label} dwell time")))
    return dwells


def _check_dwell_count(prompt: str, count: int) -> None:
    stated = _STOPS.findall(prompt)
    if len(stated) != 1 or _COUNT_WORDS.get(stated[0]) != count:
        raise PromptDefect(f"the stated number of dwell positions {stated} does not match the {count} listed")


def _date(text: str, what: str) -> dt.date:
    match = _DATE.match(text)
    if match is None or match.group("month").lower() not in _MONTHS:
        raise PromptDefect(f"cannot read the {what} {text!r}")
    try:
        return dt.date(int(match.group("year")), _MONTHS[match.group("month").lower()], int(match.group("day")))
    except ValueError:
        raise PromptDefect(f"the {what} {text!r} is not a calendar date") from None


def _decay_factor(prompt: str, items: list[Bullet]) -> float:
    """exp(-ln 2 t/T½) with t the whole days from the calibration date to the treatment date."""
    _, cal = one(items, r"Calibration date", "the calibration date")
    _, treat = one(items, r"Treatment date", "the treatment date")
    if "same time of day" not in treat.value:
        raise PromptDefect("the times of day of calibration and treatment are not stated, so the decay time is open")
    _, half = one(items, r"Half-life of Ir-192", "the Ir-192 half-life")
    half_life_h = hours(*quantity(half.value, "Ir-192 half-life"), "Ir-192 half-life")
    elapsed_h = 24.0 * (_date(treat.value, "treatment date") - _date(cal.value, "calibration date")).days
    return math.exp(-math.log(2) * elapsed_h / half_life_h)


def distance_rounding_check(item: Callable[[int], tuple[str, float]], n: int = 10000, start: int = 0) -> dict:
    """Largest and 99th-percentile relative dose change when every source-to-point distance is
    rounded ("3sf", "0.01cm"), over public level-3 seeds start..start+n-1 (seed 000, "Verification
    detail"). Also reports the largest change of a single dwell's dose and the largest relative
    difference between this solver at full precision and the item's reference."""
    if n < 1:
        raise ValueError("n must be at least 1")
    fetch = item  # seed -> (prompt, reference value) of a public level-3 item
    changes: dict[str, list[float]] = {mode: [] for mode in ROUNDINGS}
    worst = {mode: (-1.0, start) for mode in ROUNDINGS}
    dwell_max = {mode: 0.0 for mode in ROUNDINGS}
    ref_diff = 0.0
    for seed in range(start, start + n):
        prompt, reference = fetch(seed)
        exact = dwell_doses(3, prompt)
        total = sum(exact)
        ref_diff = max(ref_diff, abs(total - reference) / abs(reference))
        for mode in ROUNDINGS:
            rounded = dwell_doses(3, prompt, distance_rounding=mode)
            change = abs(sum(rounded) - total) / total
            if change > worst[mode][0]:
                worst[mode] = (change, seed)
            changes[mode].append(change)
            dwell_max[mode] = max(dwell_max[mode], *(abs(a - b) / b for a, b in zip(rounded, exact)))
    report: dict = {"generator": "tg43", "level": 3, "draws": n, "start": start,
                    "max_rel_diff_vs_reference": ref_diff}
    for mode in ROUNDINGS:
        values = changes[mode]
        # 99th percentile by linear interpolation between order statistics (numpy's default method)
        p99 = statistics.quantiles(values, n=100, method="inclusive")[98] if n > 1 else values[0]
        report[mode] = {"max": max(values), "p99": p99, "max_seed": worst[mode][1],
                        "max_single_dwell": dwell_max[mode]}
    return report
