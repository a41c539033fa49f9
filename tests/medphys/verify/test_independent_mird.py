"""The second MIRD solver reads every input from the prompt and reproduces hand calculations
and the generator's references (seed 000, "A second implementation")."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from physbench.suites.medphys.verify.independent import PromptDefect
from physbench.suites.medphys.verify.independent import mird

INDEPENDENT = Path(mird.__file__).parent
LN2 = math.log(2)
MODEL = ("Assume instantaneous uptake and mono-exponential clearance with the stated effective half-life, "
         "and integrate over all time (to complete decay).")


def _prompt(inputs: list[str], question: str, unit: str, model: str = MODEL, extra: str = "") -> str:
    lines = "\n".join(f"- {line}" for line in inputs)
    return (f"A patient is given I-131 sodium iodide for hyperthyroidism (I-131).\n\n{lines}\n\n{model}{extra}\n\n"
            f"Calculate {question}, in {unit}. Give at least three significant figures and write the final "
            f"answer as \\boxed{{value {unit}}}.")


L1 = _prompt(["Administered activity A0: 740 MBq",
              "Fraction of the administered activity taken up by the thyroid: 0.20",
              "Effective half-life in the thyroid: 5.0 d"],
             "the time-integrated activity (cumulated activity) in the thyroid", "MBq h")


def test_level1_time_integrated_activity_converts_days_to_hours() -> None:
    """Ã = f A0 T_eff/ln 2 = 0.20 × 740 MBq × 120 h/0.693147 = 25 622 MBq h (by hand)."""
    value, unit = mird.solve(1, L1)
    assert unit == "MBq h"
    assert value == pytest.approx(0.20 * 740 * 120 / LN2, rel=1e-12)
    assert value == pytest.approx(25622.26, rel=1e-6)


def test_level2_self_dose_converts_mbq_h_to_mbq_s() -> None:
    """D = Ã S: 0.3 × 370 MBq × 144 h/ln 2 × 3600 s/h × 1.6e-3 mGy/(MBq s) = 132 826 mGy (by hand)."""
    prompt = _prompt(["Administered activity A0: 370 MBq",
                      "Fraction of the administered activity taken up by the thyroid: 0.3",
                      "Effective half-life in the thyroid: 6.0 d",
                      "S value S(thyroid←thyroid): 1.6 × 10^-3 mGy/(MBq s)"],
                     "the absorbed dose to the thyroid from the activity in the thyroid (self-dose)", "mGy",
                     extra=" Use the MIRD schema.")
    value, unit = mird.solve(2, prompt)
    assert unit == "mGy"
    assert value == pytest.approx(132825.8, rel=1e-6)


def _level3(s_cross: str = "8.0 × 10^-8") -> str:
    return _prompt(["Administered activity A0: 200 MBq",
                    "Physical half-life of Tc-99m: 6.01 h",
                    "Fraction of the administered activity taken up by the spleen: 0.05",
                    "Biological half-life in the spleen: 12 h",
                    "Fraction of the administered activity taken up by the liver: 0.6",
                    "Biological half-life in the liver: 60 h",
                    "S value S(spleen←spleen): 2.5 × 10^-5 mGy/(MBq s)",
                    f"S value S(spleen←liver): {s_cross} mGy/(MBq s)"],
                   "the absorbed dose to the spleen from the activity in the spleen and in the liver", "mGy",
                   model="Assume instantaneous uptake in each organ and mono-exponential clearance with the "
                         "organ's effective half-life, and integrate over all time (to complete decay).",
                   extra=" Use the MIRD schema.")


def test_level3_combines_effective_half_lives_and_adds_the_cross_dose() -> None:
    """T_eff = 6.01×12/18.01 = 4.0044 h (spleen), 6.01×60/66.01 = 5.4628 h (liver);
    D = 3600 (Ã_s 2.5e-5 + Ã_l 8.0e-8) = 5.4718 mGy (by hand)."""
    t_s, t_l = 6.01 * 12 / 18.01, 6.01 * 60 / 66.01
    expected = 3600 * (0.05 * 200 * t_s / LN2 * 2.5e-5 + 0.6 * 200 * t_l / LN2 * 8.0e-8)
    value, unit = mird.solve(3, _level3())
    assert unit == "mGy"
    assert value == pytest.approx(expected, rel=1e-12)
    assert value == pytest.approx(5.47184, rel=1e-5)


def test_unstated_time_activity_model_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="time-activity model"):
        mird.solve(1, L1.replace(MODEL, ""))


def test_missing_cross_s_value_is_a_prompt_defect() -> None:
    prompt = "\n".join(line for line in _level3().splitlines() if "spleen←liver" not in line)
    with pytest.raises(PromptDefect, match="S value"):
        mird.solve(3, prompt)


def test_box_unit_disagreeing_with_the_question_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="box"):
        mird.solve(1, L1.replace("\\boxed{value MBq h}", "\\boxed{value MBq s}"))


MY_MODULES = ["mird.py", "decay.py", "tg43.py", "parse_listing.py", "units_nucmed.py"]
