"""The independent BED/EQD2 solver: hand-worked LQ examples, generated items, defects."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.independent import PromptDefect, bed

NO_TIME = "Use the linear-quadratic model with no correction for overall treatment time."


def course_prompt(level: int, n: int, d_rx: str, pct: str, ab: str, structure: str = "spinal cord") -> str:
    """A level-1 or level-2 prompt in the item format (BED at L1, EQD2 at L2)."""
    question = (
        f"Calculate the biologically effective dose (BED) to the {structure} for the whole course, in Gy."
        if level == 1
        else f"Calculate the EQD2 (equivalent total dose in 2 Gy fractions) to the {structure} for the whole course, in Gy."
    )
    return (
        "An external-beam radiotherapy course is delivered in equal fractions.\n\n"
        f"- Number of fractions: {n}\n- Prescribed dose per fraction: {d_rx}\n- Structure: {structure}\n"
        f"- Dose per fraction to the {structure}: {pct}% of the prescribed dose per fraction\n"
        f"- α/β of the {structure}: {ab} Gy\n\n{NO_TIME}\n\n{question} Give at least three significant "
        "figures and write the final answer as \\boxed{value Gy}."
    )


def replan_prompt(n: int, d: str, k: int, n2: int, ab: str, tissue: str = "the tumour, which receives the prescribed dose") -> str:
    return (
        "A radiotherapy course was planned in equal fractions. Part of it has been delivered as planned; the "
        "rest of the course will now be given in a new number of equal fractions.\n\n"
        f"- Planned number of fractions: {n}\n- Planned dose per fraction: {d}\n- Fractions already delivered: {k}\n"
        f"- Number of new fractions for the rest of the course: {n2}\n"
        f"- Tissue whose biological effect must be kept: {tissue}\n- α/β of that tissue: {ab} Gy\n\n"
        f"{NO_TIME} The whole course (fractions delivered plus new fractions) must have the same biologically "
        "effective dose in this tissue as the course originally planned.\n\n"
        f"Calculate the dose per fraction of each of the {n2} new fractions, in Gy. Give at least three "
        "significant figures and write the final answer as \\boxed{value Gy}."
    )


def test_level1_bed_of_25_by_2_gy_at_alpha_beta_10_is_60_gy():
    """BED = 25 × 2 × (1 + 2/10) = 60 Gy (the calculatorlib.com example cited in docs/facts/bed.md)."""
    assert bed.solve(1, course_prompt(1, 25, "2.00 Gy", "100.0", "10.0")) == (pytest.approx(60.0, rel=1e-12), "Gy")


def test_level1_uses_the_structures_share_of_the_prescription():
    """36 × (0.612 × 2 Gy) × (1 + 1.224/10) = 49.4574 Gy (by hand)."""
    value, _ = bed.solve(1, course_prompt(1, 36, "2.00 Gy", "61.2", "10.0"))
    assert value == pytest.approx(36 * 1.224 * 1.1224, rel=1e-12)


def test_level2_eqd2_of_2_gy_fractions_is_the_physical_dose_for_any_alpha_beta():
    """EQD2 of 2 Gy fractions equals n d whatever α/β (the definition of EQD2); 200 cGy read as 2 Gy."""
    for ab in ("1.5", "3.0", "10.0"):
        assert bed.solve(2, course_prompt(2, 25, "200 cGy", "100.0", ab))[0] == pytest.approx(50.0, rel=1e-12)


def test_level2_sbrt_5_by_8_gy_at_alpha_beta_3_is_88_gy():
    """40 Gy in 5 fractions, α/β 3 Gy: BED 146.67 Gy, EQD2 = 146.67/(1 + 2/3) = 88.0 Gy (by hand)."""
    assert bed.solve(2, course_prompt(2, 5, "800 cGy", "100.0", "3.0"))[0] == pytest.approx(88.0, rel=1e-12)


def test_level3_replan_root_is_6_gy():
    """30 × 2 Gy planned, α/β 10, 10 delivered: remaining BED 20 × 2 × 1.2 = 48 Gy; 5 d (1 + d/10) = 48
    gives d² + 10 d - 96 = 0, d = 6 Gy (by hand)."""
    assert bed.solve(3, replan_prompt(30, "2.00 Gy", 10, 5, "10.0")) == (pytest.approx(6.0, rel=1e-12), "Gy")


def test_level3_root_restores_the_planned_bed():
    d2, _ = bed.solve(3, replan_prompt(10, "2.72 Gy", 1, 10, "10.0"))
    assert bed.bed(1, 2.72, 10) + bed.bed(10, d2, 10) == pytest.approx(bed.bed(10, 2.72, 10), rel=1e-12)


def test_time_factor_not_stated_is_a_defect():
    with pytest.raises(PromptDefect, match="time"):
        bed.solve(1, course_prompt(1, 25, "2.00 Gy", "100.0", "10.0").replace(NO_TIME, "Use the LQ model."))


def test_kept_tissue_dose_not_stated_is_a_defect():
    with pytest.raises(PromptDefect, match="receives"):
        bed.solve(3, replan_prompt(30, "2.00 Gy", 10, 5, "3.0", tissue="the rectal wall"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3]), st.data())
def test_damaged_item_prompts_give_a_finite_answer_or_a_defect(seed, level, data):
    """Dropping a line or zeroing a number never crashes the solver."""
    text = next(m.content for m in calculation_item("bed", level, seed).messages if m.role == "user")
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    damaged = "\n".join(lines[:i] + [data.draw(st.sampled_from(["", "0", lines[i].replace("1", "0")]))] + lines[i + 1 :])
    try:
        value, _ = bed.solve(level, damaged)
    except PromptDefect:
        return
    assert value == value and abs(value) != float("inf")
