"""Beam data for the MU generator: smooth, realistic Sc, Sp, TMR and PDD drawn per machine.

The printed tables of an MU item come from a small model of a megavoltage photon beam whose
parameters vary a little from draw to draw. The model is built so that the usual relations hold:
Sc and Sp rise with field size and saturate, TMR falls with depth and rises with field size, and
the PDD at any SSD follows from TMR, Sp and the inverse square law (Khan, "The Physics of
Radiation Therapy", ch. 10). Interpolation helpers shared by the solver and the worksheets live here.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

# Field sizes (sides of equivalent squares, cm) and depths (cm, after the d_max row) of the tables
FIELDS_CM: tuple[float, ...] = (4.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0)
DEPTHS_CM: tuple[float, ...] = (4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0)


@dataclass(frozen=True)
class Energy:
    """Typical beam parameters of one nominal energy (values as in common linac beam data).

    TMR at 10 x 10: ln TMR = -mu_inf x + (mu_inf - mu_0) lam (1 - exp(-x/lam)), x = d - dmax,
    which gives the shallow shoulder of measured TMR (slope mu_0 near dmax, mu_inf at depth).
    Field size: ln TMR(x, r) = ln TMR(x, 10) (1 - k ln(r/10)).
    Sc, Sp: (1 + A (1 - exp(-r/rho))) normalised to r = 10 cm.
    """

    mv: int
    dmax_cm: tuple[float, float]
    mu_inf: float
    mu_0: float
    lam: float
    k: float
    sc_a: float
    sc_rho: float
    sp_a: float
    sp_rho: float
    wedge_lo: float  # wedge factor of a 60 deg wedge (lower end); 15 deg wedges lie near 0.9


ENERGIES: dict[int, Energy] = {
    6: Energy(6, (1.4, 1.6), 0.0340, 0.0200, 4.0, 0.25, 0.156, 8.1, 0.099, 7.0, 0.50),
    10: Energy(10, (2.2, 2.5), 0.0300, 0.0160, 4.0, 0.23, 0.150, 8.1, 0.080, 7.0, 0.53),
    15: Energy(15, (2.8, 3.0), 0.0265, 0.0130, 4.0, 0.22, 0.145, 8.1, 0.070, 7.0, 0.55),
    18: Energy(18, (3.0, 3.3), 0.0245, 0.0110, 4.0, 0.21, 0.140, 8.1, 0.065, 7.0, 0.57),
}


@dataclass(frozen=True)
class Machine:
    """One draw of beam data for one energy: the continuous model behind the printed tables."""

    mv: int
    dmax_cm: float
    mu_inf: float
    mu_0: float
    lam: float
    k: float
    sc_a: float
    sc_rho: float
    sp_a: float
    sp_rho: float

    def sc(self, r_cm: float) -> float:
        """Collimator-scatter factor, 1 at 10 x 10."""
        return _saturating(r_cm, self.sc_a, self.sc_rho)

    def sp(self, r_cm: float) -> float:
        """Phantom-scatter factor, 1 at 10 x 10."""
        return _saturating(r_cm, self.sp_a, self.sp_rho)

    def tmr(self, d_cm: float, r_cm: float) -> float:
        """Tissue-maximum ratio at depth d for an r x r field at that depth (1 at dmax)."""
        x = max(d_cm - self.dmax_cm, 0.0)
        log10x10 = -self.mu_inf * x + (self.mu_inf - self.mu_0) * self.lam * (1.0 - math.exp(-x / self.lam))
        return math.exp(log10x10 * (1.0 - self.k * math.log(r_cm / 10.0)))

    def pdd(self, d_cm: float, r_cm: float, ssd_cm: float) -> float:
        """Percent depth dose (%) at depth d for an r x r field at the surface at this SSD.

        PDD = 100 TMR(d, r_d) Sp(r_d)/Sp(r_m) ((f + dmax)/(f + d))^2 with r_d, r_m the field at
        depth d and at dmax (Khan, ch. 10), so that PDD(dmax) = 100 exactly.
        """
        r_d = r_cm * (ssd_cm + d_cm) / ssd_cm
        r_m = r_cm * (ssd_cm + self.dmax_cm) / ssd_cm
        isq = ((ssd_cm + self.dmax_cm) / (ssd_cm + d_cm)) ** 2
        return 100.0 * self.tmr(d_cm, r_d) * self.sp(r_d) / self.sp(r_m) * isq


    def tables(self, depths: Sequence[float], fields: Sequence[float]) -> tuple[list[list[float]], list[list[float]]]:
        """TMR and PDD (SSD 100 cm) tables on a grid, the same values as `tmr` and `pdd` but with the
        separable parts (depth term, log of field size) computed once per row and column."""
        log_f = [math.log(f / 10.0) for f in fields]
        sp_m = [self.sp(f * (100.0 + self.dmax_cm) / 100.0) for f in fields]
        tmr_rows, pdd_rows = [], []
        for d in depths:
            x = max(d - self.dmax_cm, 0.0)
            base = -self.mu_inf * x + (self.mu_inf - self.mu_0) * self.lam * (1.0 - math.exp(-x / self.lam))
            grow = (100.0 + d) / 100.0
            log_grow = math.log(grow)
            isq = 100.0 * ((100.0 + self.dmax_cm) / (100.0 + d)) ** 2
            tmr_rows.append([math.exp(base * (1.0 - self.k * lf)) for lf in log_f])
            pdd_rows.append([math.exp(base * (1.0 - self.k * (lf + log_grow))) * self.sp(f * grow) / m * isq
                             for f, lf, m in zip(fields, log_f, sp_m)])
        return tmr_rows, pdd_rows


def _saturating(r_cm: float, a: float, rho: float) -> float:
    return (1.0 + a * (1.0 - math.exp(-r_cm / rho))) / (1.0 + a * (1.0 - math.exp(-10.0 / rho)))


def draw_machine(rng: random.Random, mv: int, dmax_cm: float) -> Machine:
    """Beam data of one machine: the typical values of `mv` varied by a few per cent."""
    e = ENERGIES[mv]
    return Machine(mv, dmax_cm,
                   mu_inf=e.mu_inf * rng.uniform(0.97, 1.03), mu_0=e.mu_0 * rng.uniform(0.9, 1.1),
                   lam=e.lam * rng.uniform(0.9, 1.1), k=e.k * rng.uniform(0.9, 1.1),
                   sc_a=e.sc_a * rng.uniform(0.85, 1.15), sc_rho=e.sc_rho * rng.uniform(0.9, 1.1),
                   sp_a=e.sp_a * rng.uniform(0.85, 1.15), sp_rho=e.sp_rho * rng.uniform(0.9, 1.1))


def wedge_factor(rng: random.Random, mv: int, angle_deg: int) -> float:
    """A physical wedge factor: about 0.9 at 15 deg falling to about 0.5-0.6 at 60 deg."""
    lo = ENERGIES[mv].wedge_lo
    nominal = 1.0 - (1.0 - lo) * angle_deg / 60.0 + 0.04 * (angle_deg / 60.0) * (1 - angle_deg / 60.0)
    return nominal * rng.uniform(0.96, 1.04)


# --- linear interpolation in the printed tables ---------------------------------------------------

def bracket(grid: Sequence[float], x: float) -> int:
    """Index i of the grid interval [grid[i], grid[i+1]] that holds x (the last one at the top end)."""
    for i in range(len(grid) - 2, -1, -1):
        if grid[i] <= x:
            return i
    return 0


def lerp(x0: float, x1: float, y0: float, y1: float, x: float) -> float:
    """Linear interpolation between (x0, y0) and (x1, y1)."""
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def interp1(grid: Sequence[float], values: Sequence[float], x: float) -> float:
    """Linear interpolation of a 1-D table."""
    i = bracket(grid, x)
    return lerp(grid[i], grid[i + 1], values[i], values[i + 1], x)


def interp2(rows: Sequence[float], cols: Sequence[float], table: Sequence[Sequence[float]], y: float,
            x: float) -> float:
    """Bilinear interpolation of table[row][col] at row coordinate y, column coordinate x."""
    i = bracket(rows, y)
    lo = interp1(cols, table[i], x)
    hi = interp1(cols, table[i + 1], x)
    return lerp(rows[i], rows[i + 1], lo, hi, y)
