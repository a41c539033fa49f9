"""The MU items' beam-data tables (Sc/Sp against field size, TMR against depth and field
size) and linear / bilinear interpolation in them, as the level-3 prompts ask."""

from __future__ import annotations

from dataclasses import dataclass

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_fields import Table, one_number


@dataclass(frozen=True)
class OutputFactors:
    """Sc and Sp against the side of the equivalent square (cm)."""

    sizes: tuple[float, ...]
    sc: tuple[float, ...]
    sp: tuple[float, ...]


@dataclass(frozen=True)
class Grid:
    """A two-dimensional table: values[i][j] at depths[i] (cm) and sizes[j] (cm)."""

    depths: tuple[float, ...]
    sizes: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]


def _increasing(values: list[float], what: str) -> tuple[float, ...]:
    if len(values) < 2 or any(b <= a for a, b in zip(values, values[1:])):
        raise PromptDefect(f"{what} are not strictly increasing: {values}")
    return tuple(values)


def read_output_factors(table: Table, reference_field_cm: float) -> OutputFactors:
    """Sc and Sp columns; both must be 1 at the calibration field (normalised there)."""
    names = tuple(h.split("(")[0].strip() for h in table.header)
    if names != ("Field size", "Sc", "Sp") or "(cm)" not in table.header[0]:
        raise PromptDefect(f"output-factor table has columns {table.header}, expected field size (cm), Sc, Sp")
    sizes = _increasing(table.column(0, "field size"), "output-factor field sizes")
    factors = OutputFactors(sizes, tuple(table.column(1, "Sc")), tuple(table.column(2, "Sp")))
    if reference_field_cm in sizes:
        i = sizes.index(reference_field_cm)
        if factors.sc[i] != 1.0 or factors.sp[i] != 1.0:
            raise PromptDefect("Sc and Sp are not 1 at the calibration field; their normalisation is unclear")
    return factors


def read_tmr(table: Table, dmax_cm: float) -> Grid:
    """TMR rows by depth (cm), columns by field side (cm); TMR is 1 at dmax by definition."""
    if not table.header[0].startswith("Depth (cm)"):
        raise PromptDefect(f"TMR table's first column is {table.header[0]!r}, not the depth in cm")
    sizes = _increasing([one_number(h, "TMR field size") for h in table.header[1:]], "TMR field sizes")
    depths = _increasing(table.column(0, "TMR depth"), "TMR depths")
    values = tuple(tuple(one_number(c, "TMR") for c in row[1:]) for row in table.rows)
    if dmax_cm in depths and any(v != 1.0 for v in values[depths.index(dmax_cm)]):
        raise PromptDefect("TMR is not 1 at dmax; the table's normalisation is unclear")
    return Grid(depths, sizes, values)


def _bracket(axis: tuple[float, ...], x: float, what: str) -> tuple[int, float]:
    """Index i and weight w with x = (1 − w) axis[i] + w axis[i+1]; outside the table is a defect
    (extrapolation is not what the prompt asks for)."""
    if not axis[0] <= x <= axis[-1]:
        raise PromptDefect(f"{what}: {x:g} lies outside the table ({axis[0]:g} to {axis[-1]:g})")
    i = 0
    while i < len(axis) - 2 and x > axis[i + 1]:
        i += 1
    return i, (x - axis[i]) / (axis[i + 1] - axis[i])


def interpolate_1d(axis: tuple[float, ...], values: tuple[float, ...], x: float, what: str) -> float:
    """Linear interpolation of a tabulated function."""
    i, w = _bracket(axis, x, what)
    return values[i] + w * (values[i + 1] - values[i])


def interpolate_2d(grid: Grid, depth: float, size: float, what: str) -> float:
    """Bilinear interpolation: linear in field size at the two bracketing depths, then in depth
    (the same result in either order)."""
    i, u = _bracket(grid.depths, depth, f"{what} (depth)")
    j, w = _bracket(grid.sizes, size, f"{what} (field size)")
    lower = grid.values[i][j] + w * (grid.values[i][j + 1] - grid.values[i][j])
    upper = grid.values[i + 1][j] + w * (grid.values[i + 1][j + 1] - grid.values[i + 1][j])
    return lower + u * (upper - lower)
