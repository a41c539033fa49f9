"""The independent MU solver: the seed's worksheet example, hand-worked levels, generated
items, and prompts it must refuse."""

from __future__ import annotations

import ast
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect, solve_prompt
from physbench.suites.medphys.verify.independent import mu
from physbench.suites.medphys.reference import reference_of

INDEPENDENT = pathlib.Path(mu.__file__).parent
MY_MODULES = ("mu.py", "hvl.py", "parse_fields.py", "tables_mu.py")
ASK = "Calculate the monitor units per fraction for this field, in MU. Give at least three significant " \
      "figures and write the final answer as \\boxed{value MU}."
OUTPUT = ("- Machine output D′0: 1.000 cGy/MU, at dmax = {dmax} cm depth in water for SSD 100 cm "
          "and a 10 × 10 cm² field\n")

# Seed 000, "Prompts and example items": the MU level-3 worksheet check (development split,
# seed 1): 6 MV, isocenter at 5.4 cm, collimator 16 × 14 cm², blocked field 167.6 cm² / 57.3 cm,
# 45° wedge 0.646, tray 0.959, 54 Gy in 30 fractions; its tables are copied below.
WORKSHEET_BULLETS = (
    "- Beam: 6 MV photons\n" + OUTPUT.format(dmax="1.5") +
    "- Isocenter depth: 5.4 cm\n"
    "- Collimator setting at the isocenter: 16 × 14 cm²\n"
    "- Blocked field area at the isocenter (corner blocks on a tray): 167.6 cm²\n"
    "- Blocked field perimeter at the isocenter: 57.3 cm\n"
    "- Wedge: 45° physical wedge, wedge factor WF = 0.646\n"
    "- Tray factor: TF = 0.959\n"
    "- Prescribed total dose at the isocenter: 54 Gy\n"
    "- Number of fractions: 30\n"
    "- Fields: this field delivers the whole prescription\n"
)
SIZES = "| 4 | 6 | 8 | 10 | 12 | 15 | 20 |"
TMR_ROWS = """| 1.5 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 |
| 4 | 0.924 | 0.926 | 0.928 | 0.930 | 0.932 | 0.935 | 0.941 |
| 6 | 0.867 | 0.870 | 0.874 | 0.877 | 0.881 | 0.886 | 0.895 |
| 8 | 0.813 | 0.818 | 0.822 | 0.827 | 0.832 | 0.839 | 0.851 |
| 10 | 0.763 | 0.768 | 0.774 | 0.780 | 0.786 | 0.794 | 0.809 |
| 12 | 0.715 | 0.722 | 0.728 | 0.735 | 0.742 | 0.752 | 0.769 |
| 14 | 0.671 | 0.678 | 0.685 | 0.692 | 0.700 | 0.711 | 0.730 |
| 16 | 0.629 | 0.636 | 0.644 | 0.652 | 0.660 | 0.672 | 0.692 |
| 18 | 0.590 | 0.598 | 0.606 | 0.614 | 0.622 | 0.635 | 0.656 |
| 20 | 0.553 | 0.561 | 0.569 | 0.578 | 0.587 | 0.600 | 0.622 |"""
PDD_ROWS = """| 1.5 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 | 100.0 |
| 4 | 88.1 | 88.3 | 88.5 | 88.7 | 88.9 | 89.2 | 89.7 |
| 6 | 79.6 | 80.0 | 80.3 | 80.6 | 81.0 | 81.5 | 82.3 |
| 8 | 72.0 | 72.5 | 72.9 | 73.4 | 73.8 | 74.5 | 75.6 |
| 10 | 65.2 | 65.7 | 66.3 | 66.8 | 67.3 | 68.1 | 69.5 |
| 12 | 59.1 | 59.7 | 60.3 | 60.9 | 61.5 | 62.4 | 63.9 |
| 14 | 53.5 | 54.2 | 54.8 | 55.5 | 56.1 | 57.1 | 58.7 |
| 16 | 48.5 | 49.2 | 49.9 | 50.6 | 51.3 | 52.3 | 54.1 |
| 18 | 44.0 | 44.8 | 45.5 | 46.2 | 46.9 | 48.0 | 49.8 |
| 20 | 40.0 | 40.7 | 41.5 | 42.2 | 42.9 | 44.0 | 45.9 |"""
WORKSHEET_TABLES = (
    "Beam data for this machine (6 MV). Field sizes are sides of equivalent squares; find the equivalent "
    "square of a field as 4A/P (4 × area / perimeter).\n\n"
    "Output factors (Sc is read at the collimator field, Sp at the irradiated, blocked field):\n\n"
    "| Field size (cm) | Sc | Sp |\n|---|---|---|\n"
    "| 4 | 0.955 | 0.970 |\n| 6 | 0.974 | 0.983 |\n| 8 | 0.989 | 0.993 |\n| 10 | 1.000 | 1.000 |\n"
    "| 12 | 1.009 | 1.005 |\n| 15 | 1.019 | 1.011 |\n| 20 | 1.029 | 1.017 |\n\n"
    "Tissue-maximum ratio TMR (rows: depth in cm; columns: side of the square field at that depth, cm):\n\n"
    f"| Depth (cm) {SIZES}\n|---|---|---|---|---|---|---|---|\n{TMR_ROWS}\n\n"
    "Percent depth dose PDD (%) at SSD 100 cm (rows: depth in cm; columns: side of the square field at "
    "the surface, cm):\n\n"
    f"| Depth (cm) {SIZES}\n|---|---|---|---|---|---|---|---|\n{PDD_ROWS}\n\n"
    "Interpolate linearly in the tables (bilinearly in the two-dimensional tables).\n\n"
)
WORKSHEET_PROMPT = (
    "A patient is treated isocentrically (SAD 100 cm) with a single blocked, wedged photon field. "
    "The dose is prescribed at the isocenter, on the central axis.\n\n" + WORKSHEET_BULLETS + "\n"
    + WORKSHEET_TABLES + ASK
)


def test_level3_reproduces_the_seed_worksheet_example_307_7_mu() -> None:
    """Seed 000, MU L3 worksheet check: the correct result is 307.7 MU; the planted worksheet,
    which omits the isocentric ((100 + dmax)/100)² = (101.5/100)² factor, reports 317.0 MU.
    (Its step 8 prints "(4.4 − 4)" where the depth is 5.4 cm: a typo; 0.8958 needs 5.4.)"""
    value, unit = solve_prompt("mu", 3, WORKSHEET_PROMPT)
    assert unit == "MU"
    assert round(value, 1) == 307.7
    assert round(value * (101.5 / 100.0) ** 2, 1) == 317.0


def test_level3_worksheet_intermediate_steps_match_the_seed() -> None:
    """Seed worksheet steps 2-8: rc = 14.93 cm, rd = 11.70 cm, Sc 1.0188, Sp 1.0042, TMR 0.8958."""
    from physbench.suites.medphys.verify.independent.parse_fields import table_captioned
    from physbench.suites.medphys.verify.independent.tables_mu import (
        interpolate_1d, interpolate_2d, read_output_factors, read_tmr)

    factors = read_output_factors(table_captioned(WORKSHEET_PROMPT, "Output factors"), 10.0)
    tmr = read_tmr(table_captioned(WORKSHEET_PROMPT, "Tissue-maximum ratio"), 1.5)
    rc, rd = 2 * 16 * 14 / (16 + 14), 4 * 167.6 / 57.3
    assert (round(rc, 2), round(rd, 2)) == (14.93, 11.70)
    assert round(interpolate_1d(factors.sizes, factors.sc, rc, "Sc"), 4) == 1.0188
    assert round(interpolate_1d(factors.sizes, factors.sp, rd, "Sp"), 4) == 1.0042
    assert round(interpolate_2d(tmr, 5.4, rd, "TMR"), 4) == 0.8958


def _level1(pdd: str = "66.8", sc: str = "1.000", sp: str = "1.000", ssd: str = "100") -> str:
    return (
        f"A patient is treated with a single open photon field (no wedge, tray or blocks) at SSD {ssd} cm. "
        "The dose is prescribed on the central axis.\n\n- Beam: 6 MV photons\n" + OUTPUT.format(dmax="1.5") +
        "- Field size at the skin: 10 × 10 cm²\n- Prescription depth: 10.0 cm\n"
        "- Dose per fraction at the prescription depth: 200 cGy\n"
        f"- Collimator-scatter factor for this field: Sc = {sc}\n"
        f"- Phantom-scatter factor for this field: Sp = {sp}\n"
        f"- Percent depth dose at the prescription depth for this field at SSD 100 cm: PDD = {pdd}%\n\n" + ASK
    )


def _level2(pdd_ssd: str = "120", extra: str = "") -> str:
    return (
        "A patient is treated with a single photon field at an extended SSD. The dose is prescribed on the "
        "central axis.\n\n- Beam: 6 MV photons\n" + OUTPUT.format(dmax="1.5") +
        "- Treatment SSD: 120 cm\n- Field size at the skin: 12 × 12 cm²\n- Prescription depth: 8.0 cm\n"
        "- Prescribed total dose at the prescription depth: 40 Gy\n- Number of fractions: 20\n"
        "- Fields: this field delivers the whole prescription\n"
        "- Wedge: 30° physical wedge, wedge factor WF = 0.700\n- Tray factor: TF = 0.950\n"
        "- Blocks: none on the tray\n"
        "- Collimator-scatter factor for this collimator setting: Sc = 1.010\n"
        "- Phantom-scatter factor for the field at the skin: Sp = 1.005\n" + extra +
        f"- Percent depth dose at the prescription depth for this field, measured at SSD {pdd_ssd} cm: "
        "PDD = 70.0%\n\n" + ASK
    )


def test_level1_open_field_at_ssd_100_is_dose_over_output_and_pdd() -> None:
    """200 cGy at 10 cm, PDD 66.8 %, Sc = Sp = 1: MU = 200/0.668 = 299.40 (no inverse square at SSD 100)."""
    value, unit = solve_prompt("mu", 1, _level1())
    assert unit == "MU" and value == pytest.approx(299.4012, rel=1e-6)


def test_level2_extended_ssd_applies_inverse_square_from_the_calibration_point() -> None:
    """D = 40 Gy/20 = 200 cGy; ISF = (101.5/121.5)² = 0.697878; D′ = 1.010 × 1.005 × 0.700 × 0.700
    × 0.950 × 0.697878 = 0.329751 cGy/MU; MU = 606.52 (worked by hand)."""
    value, _ = solve_prompt("mu", 2, _level2())
    assert value == pytest.approx(606.52, rel=2e-5)


def test_whole_item_text_with_the_system_message_is_read_the_same() -> None:
    item = calculation_item("mu", 3, 7)
    text = "\n\n".join(m.content for m in item.messages)
    assert solve_prompt("mu", 3, text)[0] == pytest.approx(reference_of(item).value, rel=1e-9)


@pytest.mark.parametrize(
    ("prompt", "why"),
    [
        (_level2(pdd_ssd="100"), "PDD for another SSD needs a Mayneord or TMR conversion"),
        (_level2(extra="- Bolus: 1 cm\n"), "an input the solver does not know"),
        (_level1().replace("(no wedge, tray or blocks) ", ""), "no statement about wedge or tray"),
        (WORKSHEET_PROMPT.replace("Interpolate linearly in the tables (bilinearly in the two-dimensional "
                                  "tables).", ""), "interpolation not stated"),
        (WORKSHEET_PROMPT.replace("find the equivalent square of a field as 4A/P", "use a lookup"),
         "equivalent-square rule not stated"),
        (WORKSHEET_PROMPT.replace("Isocenter depth: 5.4 cm", "Isocenter depth: 25.4 cm"), "depth beyond table"),
        (WORKSHEET_PROMPT.replace("16 × 14 cm²", "36 × 34 cm²"), "field beyond the table"),
        (WORKSHEET_PROMPT.replace("this field delivers the whole prescription", "one of two fields"),
         "field weight unclear"),
        (WORKSHEET_PROMPT.replace("\\boxed{value MU}", "\\boxed{value cGy}"), "answer not asked in MU"),
    ],
)
def test_prompts_missing_an_input_or_convention_are_defects(prompt: str, why: str) -> None:
    with pytest.raises(PromptDefect):
        solve_prompt("mu", 2 if "extended SSD" in prompt else 3 if "isocentrically" in prompt else 1, prompt)


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(0, len(WORKSHEET_PROMPT)), junk=st.text(max_size=40))
def test_damaged_prompts_give_an_answer_or_a_defect_never_a_crash(cut: int, junk: str) -> None:
    damaged = WORKSHEET_PROMPT[:cut] + junk + WORKSHEET_PROMPT[cut + len(junk):]
    try:
        value, _ = solve_prompt("mu", 3, damaged)
    except PromptDefect:
        return
    assert value > 0


def test_independent_modules_import_nothing_from_the_generators() -> None:
    """Independence (brief): these modules import only stdlib, physbench.core and the
    independent package itself."""
    allowed = ("physbench.suites.medphys.verify.independent", "physbench.core")
    for name in MY_MODULES:
        tree = ast.parse((INDEPENDENT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.ImportFrom):
                targets = [node.module or ""]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for target in targets:
                if target.startswith("physbench"):
                    assert target.startswith(allowed), f"{name} imports {target}"
