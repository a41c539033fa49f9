"""The printed inputs of the MU items (levels 1-3) and their normalization conditions (AAPM TG-71).

Generated items are normalized at dmax for SSD 100 cm (SAD 100 cm); the `convention` fields let a
params file state another normalization as a published example prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

from physbench.suites.medphys.base import convention

SAD_CM = 100.0
SSD0_CM = 100.0  # calibration SSD of the generated items


@dataclass(frozen=True)
class OpenFieldSsd:  # level 1: SSD 100 cm, square open field, Sc, Sp and PDD given
    energy_mv: int
    dmax_cm: float
    output_cgy_per_mu: float
    field_cm: float
    depth_cm: float
    sc: float
    sp: float
    pdd_percent: float
    dose_cgy: float
    # normalization of D'0 (TG-71): SSD0, depth d0 (None: dmax) and the PDD at d0 for this field
    calibration_ssd_cm: float = convention(100.0)
    calibration_depth_cm: float | None = convention(None)
    pdd_calibration_percent: float = convention(100.0)


@dataclass(frozen=True)
class ExtendedSsd:  # level 2: extended SSD, PDD measured at that SSD, wedge and tray
    energy_mv: int
    dmax_cm: float
    output_cgy_per_mu: float
    ssd_cm: float
    field_cm: float
    depth_cm: float
    sc: float
    sp: float
    pdd_percent: float
    wedge_angle_deg: int
    wedge_factor: float
    tray_factor: float
    total_dose_gy: float
    fractions: int
    calibration_ssd_cm: float = convention(100.0)
    calibration_depth_cm: float | None = convention(None)
    pdd_calibration_percent: float = convention(100.0)  # PDD at d0 for this field at the treatment SSD


@dataclass(frozen=True)
class IsocentricBlocked:  # level 3: isocentric, blocked and wedged field, tables to interpolate
    energy_mv: int
    dmax_cm: float
    output_cgy_per_mu: float
    depth_cm: float
    coll_x_cm: float
    coll_y_cm: float
    blocked_area_cm2: float
    blocked_perimeter_cm: float
    wedge_angle_deg: int
    wedge_factor: float
    tray_factor: float
    total_dose_gy: float
    fractions: int
    fields_cm: tuple[float, ...]
    sc_table: tuple[float, ...]
    sp_table: tuple[float, ...]
    depths_cm: tuple[float, ...]  # first row is dmax
    tmr_table: tuple[tuple[float, ...], ...]
    pdd_table: tuple[tuple[float, ...], ...]
    calibration_ssd_cm: float = convention(100.0)
    calibration_depth_cm: float | None = convention(None)  # None: dmax; else TPR = TMR(d)/TMR(d0)
    sad_cm: float = convention(100.0)
    equivalent_square_stated: bool = convention(True)  # the prompt names 4A/P (v1.1; not in v1.0 items)


def normalization_depth(p: OpenFieldSsd | ExtendedSsd | IsocentricBlocked) -> float:
    """d0, the depth at which D'0 is given: dmax unless the params give another."""
    return p.dmax_cm if p.calibration_depth_cm is None else p.calibration_depth_cm


def calibrated_at_dmax_ssd100(p: OpenFieldSsd | ExtendedSsd | IsocentricBlocked) -> bool:
    return p.calibration_depth_cm is None and p.calibration_ssd_cm == SSD0_CM


def num(x: float) -> str:
    """A grid value or prescription number as printed: no trailing '.0' on whole numbers."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
