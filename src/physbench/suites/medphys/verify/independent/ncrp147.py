"""Second implementation of the NCRP Report 147 radiographic-room items (levels 1-3), computed
from the printed prompt alone: the required transmission B (L1), a lead thickness with one
printed TVL (L2), and a lead thickness by inverting the printed Archer model (L3).
"""

from __future__ import annotations

import math
import re

from physbench.suites.medphys.verify.independent.errors import PromptDefect
from physbench.suites.medphys.verify.independent.parse_shielding import (
    checked_text,
    column,
    field,
    parse_number,
    quantity,
    requested_unit,
    statement,
    table_with_header,
)

KERMA_MGY = {"mGy": 1.0, "µGy": 1e-3, "μGy": 1e-3, "Gy": 1e3}
GOAL_MGY_WEEK = {"mGy/week": 1.0, "µGy/week": 1e-3, "μGy/week": 1e-3, "Gy/week": 1e3}
DISTANCE_M = {"m": 1.0, "cm": 0.01}
THICKNESS_MM = {"mm": 1.0, "cm": 10.0}

# The Archer model as the items print it (compared with spaces removed).
ARCHER_FORM = "B(x)=[(1+β/α)×exp(αγx)−β/α]^(−1/γ)"


# --- NCRP Report 147 relations -------------------------------------------------------------


def required_transmission(goal_mgy_week: float, distance_m: float, kerma_mgy: float, use: float,
                          patients_week: float, occupancy: float) -> float:
    """B = P d² / (K1 U N T), K1 the unshielded air kerma per patient at 1 m (NCRP 147 Sec. 4)."""
    return goal_mgy_week * distance_m**2 / (kerma_mgy * use * patients_week * occupancy)


def thickness_one_tvl(transmission: float, tvl: float) -> float:
    """x = TVL log10(1/B) with a single TVL; no barrier when B >= 1."""
    return max(math.log10(1.0 / transmission), 0.0) * tvl


def archer_thickness(transmission: float, alpha: float, beta: float, gamma: float) -> float:
    """Invert B = [(1 + β/α) e^(αγx) − β/α]^(−1/γ) (Archer et al. 1983, the model of NCRP 147):
    x = ln[(B^−γ + β/α) / (1 + β/α)] / (αγ); no barrier when B >= 1."""
    ratio = beta / alpha
    x = math.log((transmission ** (-gamma) + ratio) / (1.0 + ratio)) / (alpha * gamma)
    return max(x, 0.0)


# --- Reading the prompt --------------------------------------------------------------------


def _positive(value: float, what: str) -> float:
    if not (value > 0.0 and math.isfinite(value)):
        raise PromptDefect(f"{what} is {value}, not a positive number")
    return value


def _fraction(text: str, label: str, what: str) -> float:
    value = parse_number(field(text, label, what), what)
    if not 0.0 < value <= 1.0:
        raise PromptDefect(f"{what} is {value}, outside (0, 1]")
    return value


def _transmission(text: str) -> tuple[float, bool]:
    """Required B of the barrier, and whether the barrier is primary."""
    line = statement(
        text, r"^[ \t]*[-*•][ \t]*K1, unshielded (primary|secondary \(leakage plus scatter\)) air "
              r"kerma per patient at (?P<at>[^ ]+) m \(NCRP Report 147 Table [\d.]+\)[ \t]*:[ \t]*(.+)$",
        "the unshielded air kerma per patient K1")
    if parse_number(line.group("at"), "the distance of K1") != 1.0:
        raise PromptDefect("K1 is not stated at 1 m from the source")
    kerma = _positive(quantity(line.group(3), KERMA_MGY, "K1"), "K1")
    patients = _positive(parse_number(field(text, r"Patients per week N", "N"), "N"), "N")
    distance = _positive(quantity(field(text, r"Distance from the X-ray source to the point of "
                                              r"interest d", "the distance d"), DISTANCE_M, "d"), "d")
    goal_line = field(text, r"Shielding design goal P", "the design goal P")
    goal = _positive(quantity(goal_line, GOAL_MGY_WEEK, "the design goal P"), "P")
    b = required_transmission(goal, distance, kerma,
                              _fraction(text, r"Use factor U of this barrier", "U"), patients,
                              _fraction(text, r"Occupancy factor T", "T"))
    return b, line.group(1) == "primary"


def _no_preshielding(text: str, primary: bool) -> None:
    """A primary barrier's thickness depends on preshielding credit, which must be stated."""
    if primary:
        statement(text, r"Take no credit for attenuation in the patient, the table or the image "
                        r"receptor", "whether preshielding (patient, table, receptor) is credited")


def _level1(text: str) -> tuple[float, str]:
    b, _ = _transmission(text)
    statement(text, r"Calculate the transmission B that this barrier must provide",
              "that the answer is the transmission B")
    return b, requested_unit(text, ("",))


def _answer_mm(text: str, x_mm: float) -> tuple[float, str]:
    statement(text, r"Calculate the lead thickness this barrier needs", "the lead thickness asked")
    unit = requested_unit(text, tuple(THICKNESS_MM))
    return x_mm / THICKNESS_MM[unit], unit


def _level2(text: str) -> tuple[float, str]:
    b, primary = _transmission(text)
    _no_preshielding(text, primary)
    line = statement(text, r"single tenth-value layer for this room's workload spectrum: "
                           r"TVL = (?P<tvl>[^ ]+) (mm|cm) of lead", "the lead TVL")
    tvl_mm = _positive(parse_number(line.group("tvl"), "TVL"), "TVL") * THICKNESS_MM[line.group(2)]
    return _answer_mm(text, thickness_one_tvl(b, tvl_mm))


def _level3(text: str) -> tuple[float, str]:
    b, primary = _transmission(text)
    _no_preshielding(text, primary)
    form = statement(text, r"follows the Archer model, (B\(x\) = .*?), with x the lead thickness "
                           r"in (mm)\b", "the Archer model and the unit of x")
    if re.sub(r"\s+", "", form.group(1)) != ARCHER_FORM:
        raise PromptDefect(f"the transmission model is printed as {form.group(1)!r}, not in the "
                           "Archer form this solver inverts")
    table = table_with_header(text, r"Material", "the Archer-parameter table")
    rows = [row for row in table.rows if row[0] == "Lead"]
    if len(rows) != 1:
        raise PromptDefect(f"the Archer-parameter table has {len(rows)} rows for lead")
    alpha = parse_number(rows[0][column(table, r"α \(mm⁻¹\)", "α")], "α")
    beta = parse_number(rows[0][column(table, r"β \(mm⁻¹\)", "β")], "β")
    gamma = parse_number(rows[0][column(table, r"γ", "γ")], "γ")
    x_mm = archer_thickness(b, _positive(alpha, "α"), _positive(beta, "β"), _positive(gamma, "γ"))
    return _answer_mm(text, x_mm)


_LEVELS = {1: _level1, 2: _level2, 3: _level3}


def solve(level: int, prompt: str) -> tuple[float, str]:
    """Required transmission (L1) or lead thickness (L2, L3) of an ncrp147 prompt."""
    if level not in _LEVELS:
        raise ValueError(f"ncrp147 has levels 1-3, not {level!r}")
    return _LEVELS[level](checked_text(prompt))
