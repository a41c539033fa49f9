"""The independent NCRP 147 solver: worked examples from hand-written prompts, the Archer
inversion, agreement with generated items, prompt defects, and the printed data against the report."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect
from physbench.suites.medphys.verify.independent import ncrp147
from physbench.suites.medphys.reference import reference_of

ARCHER = ("The broad-beam transmission of lead for this room's workload spectrum follows the Archer "
          "model, B(x) = [(1 + β/α) × exp(α γ x) − β/α]^(−1/γ), with x the lead thickness in mm "
          "and the fitted parameters of NCRP Report 147 for this barrier:")


def room_prompt(level: int, *, barrier: str = "floor under the radiographic table",
                primary: bool = True, kerma: str = "5.2", kerma_at: str = "1", use: str = "0.89",
                patients: str = "125", distance: str = "2.6", occupancy: str = "1/20",
                goal: str = "0.02", tvl: str = "0.87", params: tuple[str, str, str] = (
                    "2.651", "16.56", "0.4585"), model: str = ARCHER,
                no_credit: bool = True) -> str:
    """A prompt of any level in the item format, written by hand (defaults: a floor barrier)."""
    kind = "primary" if primary else "secondary (leakage plus scatter)"
    table = "4.5" if primary else "4.7"
    credit = ("Take no credit for attenuation in the patient, the table or the image receptor.\n\n"
              if no_credit else "")
    if level == 1:
        method = ""
        task = ("Calculate the transmission B that this barrier must provide (a pure number, no "
                "unit). Give at least three significant figures and write the final answer as "
                "\\boxed{value}.")
    else:
        if level == 2:
            method = ("Treat the lead as having a single tenth-value layer for this room's workload "
                      f"spectrum: TVL = {tvl} mm of lead (the high-attenuation limit of the report's "
                      "transmission fit).\n\n")
        else:
            method = (f"{model}\n\n| Material | α (mm⁻¹) | β (mm⁻¹) | γ |\n|---|---|---|---|\n"
                      f"| Lead | {params[0]} | {params[1]} | {params[2]} |\n\n")
        task = ("Calculate the lead thickness this barrier needs, in mm. Give at least three "
                "significant figures and write the final answer as \\boxed{value mm}.")
    return f"""A barrier of a general radiographic room is being designed with the NCRP Report 147 method.

- Barrier: {barrier}
- K1, unshielded {kind} air kerma per patient at {kerma_at} m (NCRP Report 147 Table {table}): {kerma} mGy
- Use factor U of this barrier: {use}
- Patients per week N: {patients}
- Distance from the X-ray source to the point of interest d: {distance} m
- Point of interest: a storage room, beyond the barrier (uncontrolled area)
- Occupancy factor T: {occupancy}
- Shielding design goal P: {goal} mGy/week (air kerma)

{credit}{method}{task}"""


def archer_b(x: float, alpha: float, beta: float, gamma: float) -> float:
    """Archer et al. (1983) forward model B(x), as printed in the items."""
    return ((1 + beta / alpha) * math.exp(alpha * gamma * x) - beta / alpha) ** (-1 / gamma)


# --- Worked examples ---------------------------------------------------------------------


def test_required_transmission_hand_example() -> None:
    """B = 0.02 x 2.6² / (5.2 x 0.89 x 125 x 1/20) = 0.1352 / 28.925 = 4.67416e-3 (no unit)."""
    value, unit = ncrp147.solve(1, room_prompt(1))
    assert unit == ""
    assert value == pytest.approx(4.674157e-3, rel=1e-6)


def test_single_tvl_thickness_hand_example() -> None:
    """Secondary side wall: B = 0.02 x 3.5² / (0.034 x 1 x 233 x 1/2) = 0.0618531;
    x = 1.00 mm x log10(1/B) = 1.20864 mm."""
    prompt = room_prompt(2, barrier="secondary wall (leakage and side-scattered radiation)",
                         primary=False, kerma="0.034", use="1.00", patients="233",
                         distance="3.5", occupancy="1/2", tvl="1.00", no_credit=False)
    value, unit = ncrp147.solve(2, prompt)
    assert unit == "mm"
    assert value == pytest.approx(1.208638, rel=1e-6)


def test_archer_thickness_hand_example_and_round_trip() -> None:
    """Floor, N 169, d 2.4 m, T 1: B = 0.02 x 2.4² / (5.2 x 0.89 x 169) = 1.47290e-4;
    x = ln[(B^-γ + β/α)/(1 + β/α)]/(αγ) = 1.78415 mm, and B(x) gives B back."""
    prompt = room_prompt(3, patients="169", distance="2.4", occupancy="1")
    value, unit = ncrp147.solve(3, prompt)
    assert unit == "mm"
    assert value == pytest.approx(1.78415, rel=1e-5)
    b = 0.02 * 2.4**2 / (5.2 * 0.89 * 169)
    assert archer_b(value, 2.651, 16.56, 0.4585) == pytest.approx(b, rel=1e-10)


@settings(max_examples=200, deadline=None)
@given(alpha=st.floats(0.5, 6.0), beta=st.floats(0.5, 30.0), gamma=st.floats(0.3, 1.2),
       log_b=st.floats(-7.0, -0.01))
def test_archer_inversion_undoes_the_forward_model(alpha: float, beta: float, gamma: float,
                                                  log_b: float) -> None:
    b = 10.0**log_b
    x = ncrp147.archer_thickness(b, alpha, beta, gamma)
    assert x > 0.0
    assert archer_b(x, alpha, beta, gamma) == pytest.approx(b, rel=1e-8)


def test_no_barrier_needed_when_transmission_exceeds_one() -> None:
    assert ncrp147.archer_thickness(1.5, 2.651, 16.56, 0.4585) == 0.0
    assert ncrp147.thickness_one_tvl(1.5, 0.87) == 0.0


# --- Prompt defects the solver must report -----------------------------------------------


def test_archer_model_printed_in_another_form_is_a_prompt_defect() -> None:
    swapped = ARCHER.replace("(1 + β/α) × exp(α γ x) − β/α", "(1 + α/β) × exp(β γ x) − α/β")
    with pytest.raises(PromptDefect, match="Archer form"):
        ncrp147.solve(3, room_prompt(3, model=swapped))


@pytest.mark.parametrize("level", [2, 3])
def test_primary_barrier_without_preshielding_statement_is_a_prompt_defect(level: int) -> None:
    with pytest.raises(PromptDefect, match="preshielding"):
        ncrp147.solve(level, room_prompt(level, no_credit=False))


def test_secondary_barrier_needs_no_preshielding_statement() -> None:
    prompt = room_prompt(3, barrier="secondary wall (leakage and side-scattered radiation)",
                         primary=False, kerma="0.034", use="1.00", no_credit=False,
                         params=("2.298", "17.38", "0.6193"))
    value, _ = ncrp147.solve(3, prompt)
    assert value > 0.0


def test_kerma_not_at_one_metre_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="1 m"):
        ncrp147.solve(1, room_prompt(1, kerma_at="2"))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_deleted_input_line_is_reported_not_guessed(level: int) -> None:
    text = _user(calculation_item("ncrp147", level, 5))
    needed = [line for line in text.splitlines()
              if line.startswith("- ") and not line.startswith(("- Barrier", "- Point of interest"))]
    for line in needed:
        broken = "\n".join(x for x in text.splitlines() if x != line)
        with pytest.raises(PromptDefect):
            ncrp147.solve(level, broken)


# --- Agreement with generated items --------------------------------------------------------


def _user(item: object) -> str:
    return next(m.content for m in item.messages if m.role == "user")  # type: ignore[attr-defined]


def test_solves_from_all_messages_joined_as_well() -> None:
    item = calculation_item("ncrp147", 1, 11)
    value, unit = ncrp147.solve(1, "\n\n".join(m.content for m in item.messages))
    assert unit == "" and value == pytest.approx(reference_of(item).value, rel=1e-9)


# --- Printed data against NCRP Report 147 (PROTOCOL-FACTS; docs/facts/ncrp147.md) ------------

# barrier -> (K1 mGy per patient at 1 m, U, lead Archer alpha, beta, gamma)
BARRIERS = {
    # Table 4.5 Rad Room (chest bucky); Table B.1 chest bucky fit
    "wall behind the upright chest image receptor (chest bucky wall)": (2.3, 1.0, 2.264, 13.08, 0.56),
    # Table 4.5 Rad Room (floor or other barriers); Table B.1 floor or other barriers fit
    "floor under the radiographic table": (5.2, 0.89, 2.651, 16.56, 0.4585),
    "cross-table lateral wall": (5.2, 0.09, 2.651, 16.56, 0.4585),
    # Table 4.7 Rad Room (all barriers), leakage + scatter; Table C.1 Rad Room (all barriers) fit
    "secondary wall (leakage and side-scattered radiation)": (0.034, 1.0, 2.298, 17.38, 0.6193),
    "secondary wall (leakage and forward- or back-scattered radiation)": (
        0.049, 1.0, 2.298, 17.38, 0.6193),
}


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_printed_kerma_use_factor_and_fits_are_the_reports(seed: int) -> None:
    for level in (1, 2, 3):
        text = _user(calculation_item("ncrp147", level, seed))
        kerma, use, alpha, beta, gamma = BARRIERS[re.search(r"- Barrier: (.+)", text)[1]]
        value, unit = re.search(r"\): ([\d.]+) (mGy|µGy)$", text, re.MULTILINE).groups()
        assert float(value) * (1e-3 if unit == "µGy" else 1.0) == pytest.approx(kerma, rel=1e-12)
        assert float(re.search(r"Use factor U of this barrier: ([\d.]+)", text)[1]) == use
        if level == 2:  # TVL = ln 10 / alpha, printed to 0.01 mm
            tvl = float(re.search(r"TVL = ([\d.]+) mm", text)[1])
            assert tvl == round(math.log(10) / alpha, 2)
        if level == 3:
            row = re.search(r"^\| Lead \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", text, re.MULTILINE)
            assert tuple(float(v) for v in row.groups()) == (alpha, beta, gamma)


# --- Independence ------------------------------------------------------------------------
