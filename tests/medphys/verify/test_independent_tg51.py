"""The independent TG-51 solver: seed example, hand-worked levels, generated items, defects."""

from __future__ import annotations

import ast
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect
from physbench.suites.medphys.verify.independent import tg51

INDEPENDENT = pathlib.Path(tg51.__file__).parent

HEADER = (
    "TG-51 reference dosimetry of the {mv} MV photon beam of a linear accelerator (a pulsed beam). "
    "Ion chamber: PTW 30013 (cylindrical), at 10 cm depth in water (SSD 100 cm, 10 × 10 cm² field "
    "at the phantom surface). Each reading is the charge collected for {mu} MU.\n\n"
)
READINGS = (
    "Chamber readings at 10 cm depth (magnitudes):\n\n"
    "| Bias voltage | Reading (nC) |\n|---|---|\n"
    "| {s}300 V (routine polarity, operating voltage) | {m_raw} |\n"
    "| {o}300 V (opposite polarity) | {m_opp} |\n"
    "| {s}150 V (routine polarity, reduced voltage) | {m_low} |\n\n"
    "- Temperature in the phantom at the chamber: {t} °C\n"
    "- Air pressure: {p} kPa\n"
    "- Electrometer correction factor P_elec: {p_elec}\n"
    "- Absorbed-dose-to-water calibration coefficient N_D,w (60Co): {ndw} Gy/C\n"
)
KQ_TABLE = (
    "k_Q of the PTW 30013 against the photon-component depth dose:\n\n"
    "| %dd(10)x (%) | k_Q |\n|---|---|\n"
    "| 63 | 0.995 |\n| 66 | 0.992 |\n| 71 | 0.987 |\n| 76 | 0.978 |\n| 81 | 0.968 |\n| 86 | 0.955 |\n\n"
    "Interpolate k_Q linearly between the rows of this table.\n\n"
)


def seed_example_prompt(foil_cm: int = 50, pulsed: str = "(a pulsed beam)", pdd_pb: str = "78.5") -> str:
    """Seed 000, "Prompts and example items": TG-51 level 3, development seed 0 (1.018 cGy/MU)."""
    return (
        HEADER.format(mv=15, mu=100).replace("(a pulsed beam)", pulsed)
        + "Beam quality: the depth-dose measurement for the beam-quality specifier was made with a 1 mm "
        f"lead foil in the beam, {foil_cm} cm from the phantom surface (SSD 100 cm, 10 × 10 cm² field at "
        f"the phantom surface).\n\n- %dd(10)Pb: {pdd_pb}%\n- The foil was removed for the dose measurement.\n\n"
        + READINGS.format(s="+", o="−", m_raw="15.202", m_opp="15.270", m_low="15.039", t="24.1",
                          p="101.5", p_elec="0.9984", ndw="5.325 × 10^7")
        + "- Clinical percent depth dose at 10 cm of the open beam (no foil), SSD 100 cm, 10 × 10 cm² "
        "field at the phantom surface: PDD(10) = 78.6%\n\n"
        + KQ_TABLE
        + "Calculate the absorbed dose to water per MU at d_max for SSD 100 cm and a 10 × 10 cm² field "
        "(the clinical output), in cGy/MU. Give at least four significant figures and write the final "
        "answer as \\boxed{value cGy/MU}."
    )


def test_level3_reproduces_the_seed_example_of_1_018_cgy_per_mu():
    """Seed 000 prints 1.018 cGy/MU for this worksheet (15 MV, foil at 50 cm, %dd(10)Pb 78.5%)."""
    value, unit = tg51.solve(3, seed_example_prompt())
    assert unit == "cGy/MU"
    assert f"{value:.4g}" == "1.018"


def test_level3_hand_worked_chain_matches_tg51_equations():
    """Each factor of the seed example by hand: Eq. 13 %dd(10)x = (0.8905 + 0.0015·78.5)·78.5 =
    79.14; k_Q between 76 and 81; P_TP, P_pol, P_ion (Eq. 12) as TG-51 writes them."""
    pddx = (0.8905 + 0.00150 * 78.5) * 78.5
    kq = 0.978 + (0.968 - 0.978) * (pddx - 76) / 5
    ptp = (273.2 + 24.1) / 295.2 * 101.33 / 101.5
    ppol = (15.202 + 15.270) / (2 * 15.202)
    pion = (1 - 2.0) / (15.202 / 15.039 - 2.0)
    expected = pion * ptp * 0.9984 * ppol * 15.202 * kq * 5.325 / 100 / 0.786
    value, _ = tg51.solve(3, seed_example_prompt())
    assert value == pytest.approx(expected, rel=1e-12)


def test_level3_uses_eq14_for_a_foil_at_30_cm():
    """Eq. 14 (foil at 30 cm) gives a higher %dd(10)x than Eq. 13, so a lower k_Q and dose."""
    at_50, _ = tg51.solve(3, seed_example_prompt(foil_cm=50))
    at_30, _ = tg51.solve(3, seed_example_prompt(foil_cm=30))
    assert tg51.pdd10x_from_lead_foil(78.5, 30) == pytest.approx((0.8116 + 0.00264 * 78.5) * 78.5)
    assert at_30 < at_50


def test_lead_foil_thresholds_keep_the_reading_below_73_and_71_percent():
    """TG-51 Sec. VII.B: %dd(10)x = %dd(10)Pb below the thresholds of Eqs. 13-14."""
    assert tg51.pdd10x_from_lead_foil(72.9, 50) == 72.9
    assert tg51.pdd10x_from_lead_foil(73.0, 50) == pytest.approx((0.8905 + 0.0015 * 73) * 73)
    assert tg51.pdd10x_from_lead_foil(70.9, 30) == 70.9
    assert tg51.pdd10x_from_lead_foil(71.0, 30) == pytest.approx(70.932, abs=1e-3)


def test_level1_is_reading_times_kq_times_ndw():
    """5.594 nC × 0.983 × 26.78 cGy/nC = 147.26 cGy (by hand)."""
    prompt = (
        HEADER.format(mv=10, mu=200)
        + "- Fully corrected reading M (P_TP, P_pol, P_ion and P_elec applied): 5.594 nC\n"
        "- Beam-quality conversion factor k_Q of this chamber in this beam: 0.983\n"
        "- Absorbed-dose-to-water calibration coefficient N_D,w (60Co): 26.78 cGy/nC\n\n"
        "Calculate the absorbed dose to water at 10 cm depth delivered by the 200 MU of this measurement, "
        "in cGy. Give at least four significant figures and write the final answer as \\boxed{value cGy}."
    )
    value, unit = tg51.solve(1, prompt)
    assert unit == "cGy"
    assert value == pytest.approx(147.2606, abs=1e-4)


def level2_prompt(routine: str = "+") -> str:
    opposite = "−" if routine == "+" else "+"
    return (
        HEADER.format(mv=6, mu=200)
        + READINGS.format(s=routine, o=opposite, m_raw="20.000", m_opp="20.100", m_low="19.900",
                          t="22.0", p="101.33", p_elec="1.0000", ndw="5.000 × 10^7")
        + "- Beam-quality conversion factor k_Q of this chamber in this beam: 0.990\n\n"
        "Calculate the absorbed dose to water at 10 cm depth delivered by the 200 MU of this measurement, "
        "in cGy. Give at least four significant figures and write the final answer as \\boxed{value cGy}."
    )


def test_level2_hand_worked_example_at_reference_conditions():
    """At 22.0 °C and 101.33 kPa P_TP = 1; P_pol = 40.1/40 = 1.0025; P_ion = (1 - 2)/(20/19.9 - 2)
    = 1.005051; D = P_ion P_pol × 20 nC × 0.990 × 5.000 cGy/nC = 99.7488 cGy."""
    pion = 1.0 / (2.0 - 20.0 / 19.9)
    expected = pion * 1.0025 * 20.0 * 0.990 * 5.0
    value, unit = tg51.solve(2, level2_prompt())
    assert unit == "cGy"
    assert value == pytest.approx(expected, rel=1e-12)
    assert value == pytest.approx(99.7488, abs=1e-4)


def test_level2_negative_routine_polarity_gives_the_same_dose():
    """Only the magnitudes and which reading is routine matter (TG-51 Eq. 9)."""
    assert tg51.solve(2, level2_prompt("−"))[0] == pytest.approx(tg51.solve(2, level2_prompt("+"))[0], rel=1e-15)


def test_beam_not_stated_pulsed_is_a_defect():
    with pytest.raises(PromptDefect, match="pulsed"):
        tg51.solve(3, seed_example_prompt(pulsed="(a beam)"))


def test_foil_position_outside_the_protocol_is_a_defect():
    with pytest.raises(PromptDefect, match="50 ± 5 cm or 30 ± 1 cm"):
        tg51.solve(3, seed_example_prompt(foil_cm=40))


def test_kq_outside_its_table_is_a_defect():
    with pytest.raises(PromptDefect, match="outside the table"):
        tg51.solve(3, seed_example_prompt(pdd_pb="85.0"))


def test_missing_input_is_a_defect():
    prompt = seed_example_prompt().replace("- Air pressure: 101.5 kPa\n", "")
    with pytest.raises(PromptDefect, match="air pressure"):
        tg51.solve(3, prompt)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400), st.sampled_from([1, 2, 3]))
def test_arbitrary_text_raises_only_prompt_defect(text, level):
    with pytest.raises(PromptDefect):
        tg51.solve(level, "TG-51 " + text)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3]), st.data())
def test_damaged_item_prompts_give_a_finite_answer_or_a_defect(seed, level, data):
    """Dropping a line or zeroing a number never crashes the solver."""
    text = next(m.content for m in calculation_item("tg51", level, seed).messages if m.role == "user")
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    damaged = "\n".join(lines[:i] + [data.draw(st.sampled_from(["", "0", lines[i].replace("1", "0")]))] + lines[i + 1 :])
    try:
        value, _ = tg51.solve(level, damaged)
    except PromptDefect:
        return
    assert value == value and abs(value) != float("inf")


def test_modules_import_nothing_from_the_generators():
    """Independence: only physbench.core and verify.independent may be imported."""
    allowed = ("physbench.core", "physbench.suites.medphys.verify.independent")
    for name in ("tg51.py", "parse_text.py", "errors.py", "__init__.py"):
        tree = ast.parse((INDEPENDENT / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            for module in modules:
                if module.startswith("physbench"):
                    assert module.startswith(allowed), (name, module)
