"""The second decay solver reads every input from the prompt and reproduces hand calculations,
the textbook Mo-99/Tc-99m ingrowth facts and the generator's references."""

from __future__ import annotations

import math

import pytest

from physbench.suites.medphys.verify.independent import PromptDefect
from physbench.suites.medphys.verify.independent import decay


def _prompt(intro: str, inputs: list[str], question: str, unit: str, extra: str = "") -> str:
    lines = "\n".join(f"- {line}" for line in inputs)
    return (f"{intro}\n\n{lines}\n\n{extra}Calculate {question}, in {unit}. Give at least three significant "
            f"figures and write the final answer as \\boxed{{value {unit}}}.")


def _level1(time: str = "3 h", unit: str = "MBq") -> str:
    return _prompt("The activity of a Tc-99m radiopharmaceutical syringe was measured in the dose calibrator, "
                   "and the preparation is used later.",
                   ["Measured activity: 740 MBq", f"Time from the measurement to the administration: {time}",
                    "Half-life of Tc-99m: 6.01 h"],
                   "the activity of the preparation at the time of administration", unit)


def test_level1_decay_law() -> None:
    """740 MBq × 2^(-3/6.01) = 523.56 MBq (by hand)."""
    value, unit = decay.solve(1, _level1())
    assert unit == "MBq"
    assert value == pytest.approx(740 * 2 ** (-3 / 6.01), rel=1e-12)
    assert value == pytest.approx(523.561, rel=1e-5)


def test_level1_converts_time_and_activity_units() -> None:
    """180 min is 3 h; 523.56 MBq is 14.150 mCi at 37 MBq/mCi."""
    value, unit = decay.solve(1, _level1(time="180 min", unit="mCi"))
    assert unit == "mCi"
    assert value == pytest.approx(740 * 2 ** (-3 / 6.01) / 37, rel=1e-12)


def _level2(measured: str = "1480 MBq", unit: str = "h") -> str:
    return _prompt("The activity of a Tc-99m radiopharmaceutical syringe was measured in the dose calibrator. "
                   "The preparation is to be administered when its activity has decayed to the prescribed activity.",
                   [f"Measured activity: {measured}", "Prescribed activity: 10 mCi", "Half-life of Tc-99m: 6.01 h",
                    "1 mCi = 37 MBq"],
                   "the time from the measurement until the activity equals the prescribed activity", unit)


def test_level2_time_is_two_half_lives_for_a_factor_four() -> None:
    """1480 MBq = 40 mCi decays to 10 mCi in two half-lives: 12.02 h = 721.2 min (by hand)."""
    assert decay.solve(2, _level2()) == (pytest.approx(12.02, rel=1e-12), "h")
    assert decay.solve(2, _level2(unit="min"))[0] == pytest.approx(721.2, rel=1e-12)


def test_level2_prescribed_above_measured_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="prescribed"):
        decay.solve(2, _level2(measured="200 MBq"))


def _level3(time: str = "6 h 40 min", unit: str = "mCi") -> str:
    return _prompt("A Mo-99/Tc-99m generator was eluted completely, leaving no Tc-99m on the column, and is "
                   "eluted again later.",
                   ["Mo-99 activity on the column at the first elution: 37 GBq",
                    f"Time from the first elution to the second: {time}", "Half-life of Mo-99: 65.94 h",
                    "Half-life of Tc-99m: 6.01 h", "Fraction of Mo-99 decays that produce Tc-99m: 0.876",
                    "1 mCi = 37 MBq"],
                   "the Tc-99m activity available at the second elution", unit,
                   extra="Take the whole Tc-99m activity on the column at the second elution "
                         "(elution efficiency 100%).\n\n")


def test_level3_bateman_ingrowth() -> None:
    """1000 mCi of Mo-99, 6 h 40 min after elution: 0.876 × 1000 × λT/(λT − λMo)(e^-λMo t − e^-λT t)
    = 451.84 mCi (by hand)."""
    lt, lm, t = math.log(2) / 6.01, math.log(2) / 65.94, 6 + 40 / 60
    expected = 0.876 * 1000 * lt / (lt - lm) * (math.exp(-lm * t) - math.exp(-lt * t))
    value, unit = decay.solve(3, _level3())
    assert unit == "mCi"
    assert value == pytest.approx(expected, rel=1e-12)
    assert value == pytest.approx(451.842, rel=1e-5)


def test_level3_ingrowth_peaks_near_23_hours_and_tends_to_equilibrium_ratio() -> None:
    """Textbook facts: Tc-99m activity is largest about 22.9 h after elution; in transient
    equilibrium A_Tc/A_Mo = 0.876 T_Mo/(T_Mo − T_Tc) = 0.964."""
    peak = decay.solve(3, _level3("22 h 51 min"))[0]
    assert peak > decay.solve(3, _level3("20 h 0 min"))[0]
    assert peak > decay.solve(3, _level3("26 h 0 min"))[0]
    late_h = 240
    a_tc = decay.solve(3, _level3(f"{late_h} h 0 min"))[0]
    a_mo = 1000 * 2 ** (-late_h / 65.94)
    assert a_tc / a_mo == pytest.approx(0.876 * 65.94 / (65.94 - 6.01), rel=1e-6)


def test_level3_without_the_empty_column_statement_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="column"):
        decay.solve(3, _level3().replace(", leaving no Tc-99m on the column", ""))


def test_unreadable_time_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect):
        decay.solve(3, _level3("about six hours"))
