"""The independent NCRP 151 solver: worked examples from hand-written prompts, agreement with
generated items, prompt defects it must report, and the printed data against the report."""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import pytest

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect
from physbench.suites.medphys.verify.independent import ncrp151
from physbench.suites.medphys.verify.independent.parse_shielding import parse_number
from physbench.suites.medphys.reference import reference_of

RULE = (
    "Follow the NCRP Report 151 method: calculate the leakage barrier and the patient-scatter "
    "barrier separately, with a use factor U = 1 for both leakage and patient scatter. Then apply "
    "the report's two-source rule: if the two thicknesses differ by one leakage TVLe or more, the "
    "larger thickness is sufficient; if they differ by less than one leakage TVLe, add one HVL of "
    "the leakage radiation, taken as 0.301 × TVLe (leakage), to the larger thickness. For these "
    "photons take 1 Sv = 1 Gy."
)


def secondary_prompt(*, energy: int = 6, workload: str = "370", occupancy: str = "1/40",
                     goal: str = "0.02 mSv/week", distance: str = "4.3", area: str = "1225",
                     angle: int = 60, a: str = "8.24 × 10^-4", leak_tvl1: str = "34",
                     leak_tvle: str = "29", scatter_tvl: str = "21", table_angle: int | None = None,
                     rule: str = RULE) -> str:
    """A level-3 prompt in the item format, written by hand (defaults: the seed's example)."""
    table_angle = angle if table_angle is None else table_angle
    return f"""A secondary barrier (outside the primary beam) of a linear-accelerator vault is to be built of ordinary concrete (density 2.35 g/cm³). The machine is used for conventional (non-IMRT) treatments.

- Treatment unit: {energy} MV linear accelerator
- Workload W: {workload} Gy/week at the isocentre, 1 m from the target
- Use factor of the room's primary barriers: 1/4
- Point of interest: a stairway, 0.3 m beyond the barrier (uncontrolled area)
- Occupancy factor T: {occupancy}
- Shielding design goal P: {goal}
- Head leakage: 0.1% of the useful-beam dose, at 1 m from the target
- Distance from the isocentre to the point of interest: {distance} m (use it as the leakage distance d_L and as the patient-to-point distance d_sec)
- Target-to-patient (isocentre) distance d_sca: 1.0 m
- Largest field area at the patient F: {area} cm²
- Scattering angle from the patient to the point of interest: {angle}°

Data for this case:

| Quantity (NCRP Report 151) | Value |
|---|---|
| Patient-scatter fraction a at {table_angle}° (Table B.4; at 1 m from the patient, for a 400 cm² field) | {a} |
| Leakage TVL1 (first) in concrete (Table B.7) | {leak_tvl1} cm |
| Leakage TVLe (equilibrium) in concrete (Table B.7) | {leak_tvle} cm |
| TVL of patient-scattered radiation at {table_angle}° in concrete (Table B.5a) | {scatter_tvl} cm |

{rule}

Calculate the required concrete thickness of this secondary barrier, in cm. Give at least three significant figures and write the final answer as \\boxed{{value cm}}."""


def primary_prompt_l1(*, unit: str = "6 MV linear accelerator", origin: str = "target",
                      workload: str = "480", goal: str = "2.0 × 10^-5 Sv/week",
                      distance: str = "6.0", material: str = "lead", tvl: str = "5.7",
                      single: bool = True) -> str:
    """A level-1 prompt in the item format, written by hand."""
    single_line = "Use this single TVL for every tenth-value layer of the barrier. " if single else ""
    return f"""A primary barrier (struck by the useful beam) of a megavoltage treatment room is to be built of {material}.

- Treatment unit: {unit}
- Workload W: {workload} Gy/week at 1 m from the {origin}
- Use factor U of this barrier: 1/4
- Point of interest: an unattended parking lot, 0.3 m beyond the barrier (uncontrolled area)
- Occupancy factor T: 1/40
- Shielding design goal P: {goal}
- Distance from the {origin} to the point of interest d: {distance} m
- Tenth-value layer of {material} for this beam (NCRP Report 151 Table B.2): {tvl} cm

{single_line}For these photons take 1 Sv = 1 Gy.

Calculate the required {material} thickness of this primary barrier, in cm. Give at least three significant figures and write the final answer as \\boxed{{value cm}}."""


def primary_prompt_l2(*, energy: int = 4, workload: str = "709", distance: str = "5.8",
                      tvl1: str = "35", tvle: str = "30", occupancy: str = "1/20") -> str:
    """A level-2 prompt in the item format, written by hand."""
    return f"""A primary barrier (struck by the useful beam) of a linear-accelerator vault is to be built of ordinary concrete (density 2.35 g/cm³).

- Treatment unit: {energy} MV linear accelerator
- Workload W: {workload} Gy/week at the isocentre, 1 m from the target
- Use factor U of this barrier: 1/4
- Point of interest: a storage room, 0.3 m beyond the barrier (uncontrolled area)
- Occupancy factor T: {occupancy}
- Shielding design goal P: 0.02 mSv/week
- Distance from the target to the point of interest d: {distance} m

Tenth-value layers of concrete for the primary beam (NCRP Report 151 Table B.2):

| Beam | TVL1 (first), cm | TVLe (equilibrium), cm |
|---|---|---|
| {energy} MV | {tvl1} | {tvle} |

For these photons take 1 Sv = 1 Gy.

Calculate the required concrete thickness of this primary barrier, in cm. Give at least three significant figures and write the final answer as \\boxed{{value cm}}."""


# --- Worked examples ---------------------------------------------------------------------


def test_secondary_barrier_reproduces_seed_example_54_28_cm() -> None:
    """Seed 000, "Result check" (NCRP 151 L3, dev seed 1): 6 MV, W 370 Gy/week, T 1/40,
    P 0.02 mSv/week, 4.3 m, F 1225 cm², 60°: correct result 54.28 cm."""
    value, unit = ncrp151.solve(3, secondary_prompt())
    assert unit == "cm"
    assert round(value, 2) == 54.28


def test_secondary_barrier_components_match_the_seed_worksheet_values() -> None:
    """Seed 000 facts note: B_L 0.03998, t_L 45.55 cm, B_PS 0.01584, t_PS 37.80 cm; the
    colleague's 45.54 cm (n to three decimals) is the leakage barrier without the HVL."""
    goal, d, w, t = 2e-5, 4.3, 370.0, 1 / 40
    b_leak = ncrp151.leakage_transmission(goal, d, 1e-3, w, 1.0, t)
    b_ps = ncrp151.patient_scatter_transmission(goal, 1.0, d, 8.24e-4, w, 1.0, t, 1225.0, 400.0)
    t_leak = ncrp151.thickness_two_tvl(ncrp151.tvl_count(b_leak), 34.0, 29.0, "leakage")
    t_ps = ncrp151.thickness_one_tvl(ncrp151.tvl_count(b_ps), 21.0)
    assert round(b_leak, 5) == 0.03998 and round(t_leak, 2) == 45.55
    assert round(b_ps, 5) == 0.01584 and round(t_ps, 2) == 37.80
    assert round(34 + (round(ncrp151.tvl_count(b_leak), 3) - 1) * 29, 2) == 45.54


def test_two_source_rule_adds_leakage_hvl_only_when_components_are_close() -> None:
    assert ncrp151.two_source(100.0, 80.0, 29.0, 0.301) == pytest.approx(100.0 + 0.301 * 29.0)
    assert ncrp151.two_source(100.0, 71.0, 29.0, 0.301) == 100.0  # differ by exactly one TVLe
    # Patient scatter governs: the HVL is still the leakage one (the rule the item states).
    assert ncrp151.two_source(60.0, 75.0, 29.0, 0.301) == pytest.approx(75.0 + 0.301 * 29.0)


def test_primary_single_tvl_hand_example() -> None:
    """B = 2e-5 x 6.0² / (480 x 1/4 x 1/40) = 2.4e-4; n = 4 - log10 2.4 = 3.61979; t = 5.7 n."""
    value, unit = ncrp151.solve(1, primary_prompt_l1())
    assert unit == "cm"
    assert value == pytest.approx(5.7 * 3.6197888, rel=1e-7)


def test_primary_tvl1_tvle_hand_example() -> None:
    """B = 2e-5 x 5.8² / (709 x 1/4 x 1/20) = 7.59154e-5; n = 4.11967; t = 35 + 3.11967 x 30."""
    value, unit = ncrp151.solve(2, primary_prompt_l2())
    assert unit == "cm"
    assert value == pytest.approx(35 + 3.119672 * 30, rel=1e-6)


def test_goal_in_sv_and_msv_give_the_same_barrier() -> None:
    in_sv, _ = ncrp151.solve(1, primary_prompt_l1(goal="2.0 × 10^-5 Sv/week"))
    in_msv, _ = ncrp151.solve(1, primary_prompt_l1(goal="0.02 mSv/week"))
    assert in_sv == pytest.approx(in_msv, rel=1e-12)


def test_cobalt_unit_reads_source_distances() -> None:
    """Co-60 items say "from the source"; B = 1e-4 x 4.7² / (194 x 1/4 x 1/40) -> t = 4.0 n."""
    value, _ = ncrp151.solve(1, primary_prompt_l1(unit="Co-60 teletherapy unit", origin="source",
                                                  workload="194", goal="1.0 × 10^-4 Sv/week",
                                                  distance="4.7", tvl="4.0"))
    b = 1e-4 * 4.7**2 / (194 * 0.25 / 40)
    assert value == pytest.approx(4.0 * -math.log10(b), rel=1e-12)


# --- Prompt defects the solver must report -----------------------------------------------


def test_v1_0_two_source_sentence_without_its_tvl_is_a_prompt_defect() -> None:
    """Seed 000: the v1.0 prompt did not say which TVL decides the two-source rule."""
    vague = ("Use the NCRP Report 151 method: calculate the leakage and patient-scatter barrier "
             "thicknesses separately, with a use factor U = 1 for both leakage and patient scatter, "
             "then combine them with the report's two-source rule. For these photons take 1 Sv = 1 Gy.")
    with pytest.raises(PromptDefect, match="two-source"):
        ncrp151.solve(3, secondary_prompt(rule=vague))


def test_unstated_use_factor_for_patient_scatter_is_a_prompt_defect() -> None:
    """Seed 000 Sec. 4.2: U for patient scatter left open (Eq. 2.7 takes 1, examples 1/4)."""
    no_u = RULE.replace(", with a use factor U = 1 for both leakage and patient scatter", "")
    with pytest.raises(PromptDefect, match="use factor"):
        ncrp151.solve(3, secondary_prompt(rule=no_u))


def test_missing_sievert_gray_convention_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="1 Sv = 1 Gy"):
        ncrp151.solve(2, primary_prompt_l2().replace("For these photons take 1 Sv = 1 Gy.", ""))


def test_missing_single_tvl_statement_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="one TVL"):
        ncrp151.solve(1, primary_prompt_l1(single=False))


def test_table_for_another_angle_is_a_prompt_defect() -> None:
    with pytest.raises(PromptDefect, match="another angle"):
        ncrp151.solve(3, secondary_prompt(table_angle=45))


def test_tvl_table_without_the_beam_row_is_a_prompt_defect() -> None:
    prompt = primary_prompt_l2().replace("| 4 MV | 35 | 30 |", "| 6 MV | 37 | 33 |")
    with pytest.raises(PromptDefect, match="rows for the 4 MV beam"):
        ncrp151.solve(2, prompt)


def test_partial_first_tvl_with_two_tvls_is_a_prompt_defect() -> None:
    """Fewer than one TVL with TVL1 != TVLe: n TVL1 and TVL1 + (n-1) TVLe are both defensible."""
    with pytest.raises(PromptDefect, match="partial first TVL"):
        ncrp151.solve(2, primary_prompt_l2(workload="0.2", distance="3.0", occupancy="1/40"))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_deleted_input_line_is_reported_not_guessed(level: int) -> None:
    """Removing any bulleted input the method uses raises PromptDefect, never a number."""
    text = _user(calculation_item("ncrp151", level, 3))
    needed = [line for line in text.splitlines()
              if line.startswith("- ") and not line.startswith(("- Point of interest",
                                                                "- Treatment unit",
                                                                "- Use factor of the room's"))]
    if level == 2:
        needed.append("- Treatment unit")  # selects the TVL row
    for line in needed:
        broken = "\n".join(x for x in text.splitlines() if not x.startswith(line))
        with pytest.raises(PromptDefect):
            ncrp151.solve(level, broken)


# --- Agreement with generated items --------------------------------------------------------


def _user(item: object) -> str:
    return next(m.content for m in item.messages if m.role == "user")  # type: ignore[attr-defined]


def test_solves_from_all_messages_joined_as_well() -> None:
    item = calculation_item("ncrp151", 3, 7)
    value, _ = ncrp151.solve(3, "\n\n".join(m.content for m in item.messages))
    assert value == pytest.approx(reference_of(item).value, rel=1e-9)


# --- Printed data against NCRP Report 151 (PROTOCOL-FACTS; docs/facts/ncrp151.md sources) -------

TABLE_B2_CONCRETE = {4: (35, 30), 6: (37, 33), 10: (41, 37), 15: (44, 41), 18: (45, 43),
                     20: (46, 44), 25: (49, 46), 30: (51, 49)}  # NCRP 151 Table B.2, cm
TABLE_B2_SINGLE = {("lead", "linac"): 5.7, ("lead", "Co-60"): 4.0, ("concrete", "Co-60"): 21.0,
                   ("steel", 4): 9.9, ("steel", 6): 10.0}  # Table B.2; steel 11 cm at >= 10 MV
TABLE_B7_LEAKAGE = {6: (34, 29), 10: (35, 31), 18: (36, 34)}  # NCRP 151 Table B.7, cm
TABLE_B4_FRACTION = {  # NCRP 151 Table B.4, a at 1 m, 400 cm²: 6, 10, 18 MV
    30: (2.77e-3, 3.18e-3, 2.53e-3), 45: (1.39e-3, 1.35e-3, 8.64e-4),
    60: (8.24e-4, 7.46e-4, 4.24e-4), 90: (4.26e-4, 3.81e-4, 1.89e-4),
    135: (3.00e-4, 3.02e-4, 1.24e-4)}
TABLE_B5A_SCATTER = {30: (26, 28, 32), 45: (23, 25, 27), 60: (21, 22, 23), 90: (17, 18, 19),
                     135: (15, 15, 15)}  # NCRP 151 Table B.5a, cm: 6, 10, 18 MV
COLUMN = {6: 0, 10: 1, 18: 2}


def _num(text: str) -> float:
    return parse_number(text, "printed value")


@pytest.mark.parametrize("seed", range(0, 400, 4))
def test_printed_tvls_and_scatter_data_are_the_reports(seed: int) -> None:
    l1 = _user(calculation_item("ncrp151", 1, seed))
    material = re.search(r"built of (\w+)\.", l1)[1]
    tvl = float(re.search(r"Table B\.2\): ([\d.]+) cm", l1)[1])
    energy = re.search(r"Treatment unit: (\d+) MV", l1)
    if energy is None:
        assert tvl == TABLE_B2_SINGLE[(material, "Co-60")]
    elif material == "lead":
        assert tvl == TABLE_B2_SINGLE[("lead", "linac")]
    else:
        assert material == "steel"
        assert tvl == TABLE_B2_SINGLE.get(("steel", int(energy[1])), 11.0)

    l2 = _user(calculation_item("ncrp151", 2, seed))
    row = re.search(r"^\| (\d+) MV \| (\d+) \| (\d+) \|$", l2, re.MULTILINE)
    assert (int(row[2]), int(row[3])) == TABLE_B2_CONCRETE[int(row[1])]

    l3 = _user(calculation_item("ncrp151", 3, seed))
    mv = int(re.search(r"Treatment unit: (\d+) MV", l3)[1])
    angle = int(re.search(r"Scattering angle from the patient[^:]*: (\d+)°", l3)[1])
    cells = dict(re.findall(r"^\| (.+?) \| (.+?) \|$", l3, re.MULTILINE))
    fraction = next(v for k, v in cells.items() if k.startswith("Patient-scatter fraction"))
    assert _num(fraction) == pytest.approx(TABLE_B4_FRACTION[angle][COLUMN[mv]], rel=1e-12)
    leak = (cells["Leakage TVL1 (first) in concrete (Table B.7)"],
            cells["Leakage TVLe (equilibrium) in concrete (Table B.7)"])
    assert tuple(int(v.split()[0]) for v in leak) == TABLE_B7_LEAKAGE[mv]
    scatter = next(v for k, v in cells.items() if k.startswith("TVL of patient-scattered"))
    assert int(scatter.split()[0]) == TABLE_B5A_SCATTER[angle][COLUMN[mv]]


# --- Independence ------------------------------------------------------------------------


def test_solver_modules_import_nothing_from_the_generators() -> None:
    folder = Path(ncrp151.__file__).parent
    for name in ("ncrp151.py", "parse_shielding.py"):
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert node.level == 0, f"{name}: relative import"
                if module.startswith("physbench.suites.medphys"):
                    assert module.startswith("physbench.suites.medphys.verify.independent"), module
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("physbench.suites.medphys"), alias.name
