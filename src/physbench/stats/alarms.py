"""Share of alarms that point at a real error at a hypothetical error rate, with conservative bounds.

Seed 000, Section F ("Share of real alarms"): at a share pi of wrong calculations, the share of
alarms that are real is pi*s / [pi*s + (1 - pi)*f]. Its lower bound puts the lower exact 95% limit
of detection s with the upper limit of the false-alarm rate f, the upper bound the reverse; each is
a conservative one-sided 95% bound and the two do not form a two-sided interval.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

from physbench.stats import _checks
from physbench.stats.proportions import clopper_pearson


def _is_real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class RealAlarms(NamedTuple):
    """Point estimate and the two conservative one-sided bounds (NaN where no alarm can occur)."""

    share: float
    lower: float
    upper: float


def alarm_share(prevalence: float, detection: float, false_alarm: float) -> float:
    """pi*s / [pi*s + (1 - pi)*f] (seed 000, Section F); NaN when neither kind of alarm can occur."""
    for value, name in ((prevalence, "prevalence"), (detection, "detection"), (false_alarm, "false_alarm")):
        if not (_is_real(value) and math.isfinite(value) and 0.0 <= value <= 1.0):
            raise ValueError(f"{name} must be a rate in [0, 1], got {value!r}")
    real = prevalence * detection
    false = (1.0 - prevalence) * false_alarm
    if real + false == 0.0:
        return math.nan
    return real / (real + false)


def real_alarms(
    prevalence: float, det_k: int, det_n: int, fa_k: int, fa_n: int, alpha: float = 0.05
) -> RealAlarms:
    """Share of real alarms at error share `prevalence` with the seed's conservative one-sided bounds (000 Section F, Clopper-Pearson ends)."""
    det_k, det_n = _checks.successes(det_k, det_n, "det_k", "det_n")
    fa_k, fa_n = _checks.successes(fa_k, fa_n, "fa_k", "fa_n")
    if not (_is_real(prevalence) and 0.0 < prevalence < 1.0):
        raise ValueError(f"prevalence must be strictly between 0 and 1, got {prevalence!r}")
    s_lo, s_hi = clopper_pearson(det_k, det_n, alpha)
    f_lo, f_hi = clopper_pearson(fa_k, fa_n, alpha)
    return RealAlarms(
        share=alarm_share(prevalence, det_k / det_n, fa_k / fa_n),
        lower=alarm_share(prevalence, s_lo, f_hi),
        upper=alarm_share(prevalence, s_hi, f_lo),
    )
