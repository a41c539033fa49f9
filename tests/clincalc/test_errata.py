"""The errata table (issue 35, item 3): the official bugs it was missing (Caprini's four unread items, the
rounded micromole conversion, SIRS at PaCO2 32, PSI's exact 'mm Hg', MDRD's exact 'Black'), the
Child-Pugh bilirubin test the right way up, and every erratum a named switch the calculators read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import physbench.suites.clincalc as clincalc_pkg
from physbench.suites.clincalc.calculators import compute
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.errata import by_id, errata
from physbench.suites.clincalc.formula_version import erratum_ids

MAN_60 = {"age": [60, "years"], "sex": "Male"}
BODY = {**MAN_60, "weight": [80, "kg"], "height": [175, "cm"]}
SIRS = {"Temperature": [37, "degrees celsius"], "Heart Rate or Pulse": [80, "beats per minute"],
        "White blood cell count": [8000, "µL"]}
PSI = {"age": [70, "years"], "sex": "Male", "Heart Rate or Pulse": [80, "beats per minute"], "pH": 7.4,
       "Systolic Blood Pressure": [120, "mm Hg"], "Blood Urea Nitrogen (BUN)": [15, "mg/dL"],
       "Sodium": [140, "mEq/L"], "Glucose": [100, "mg/dL"], "Hematocrit": [40, "%"],
       "Temperature": [37, "degrees celsius"], "respiratory rate": [18, "breaths per minute"]}
PUGH = {"international normalized ratio": 1.0, "Albumin": [4.0, "g/dL"], "Ascites": "absent",
        "Encephalopathy": "No Encephalopathy"}


def _both(calc_id: int, entities: dict):
    return compute(calc_id, entities, "clinical"), compute(calc_id, entities, "benchmark")


def test_caprini_never_reads_four_of_its_items_in_the_benchmark():
    base = {**MAN_60, "Surgery Type": "none", "Mobility": "normal"}
    for name, points in (("Major Surgery in the last month", 1), ("Congestive Heart Failure in the last month", 1),
                         ("Immobilizing plaster cast in the last month", 2), ("Stroke in the last month", 5)):
        clinical, benchmark = _both(36, {**base, name: True})
        assert clinical - benchmark == points
        assert by_id("caprini-unread-items").applies(0, "", {**base, name: True})
    assert not by_id("caprini-unread-items").applies(0, "", {**base, "Sepsis in the last month": True})


@pytest.mark.parametrize("calc_id, entities, umol", [(3, MAN_60, 105), (3, MAN_60, 115), (9, MAN_60, 105),
                                                     (9, MAN_60, 115), (2, BODY, 105)])
def test_the_benchmark_micromole_rounding_moves_gfr_and_clearance_out_of_their_5_percent_band(calc_id, entities,
                                                                                               umol):
    """units.py once said the rounding moves nothing out of band: at 105 and 115 umol/L it does."""
    row = {**entities, "creatinine": [umol, "µmol/L"]}
    clinical, benchmark = _both(calc_id, row)
    assert abs(benchmark - clinical) > 0.05 * clinical
    assert by_id("unit-conversion-rounding").applies(0, "", row)
    assert compute(calc_id, row, {"unit-conversion-rounding"}) == benchmark


def test_below_100_umol_the_rounding_keeps_the_value_in_band():
    row = {**MAN_60, "creatinine": [88, "µmol/L"]}
    clinical, benchmark = _both(9, row)
    assert benchmark != clinical and benchmark == pytest.approx(clinical, rel=0.01)


def test_sirs_at_paco2_of_exactly_32_has_no_benchmark_answer_unless_the_rate_decides():
    row = {**SIRS, "PaCO2": [32, "mm Hg"], "respiratory rate": [18, "breaths per minute"]}
    assert compute(51, row, "clinical") == 0
    with pytest.raises(EntityError, match="sirs-paco2-32"):
        compute(51, row)
    assert by_id("sirs-paco2-32").applies(0, "", row)
    fast = {**row, "respiratory rate": [24, "breaths per minute"]}
    assert _both(51, fast) == (1, 1) and not by_id("sirs-paco2-32").applies(0, "", fast)


@pytest.mark.parametrize("unit, value", [("mmHg", 55), ("kPa", 7)])
def test_psi_adds_the_pao2_points_only_for_the_exact_string_mm_hg(unit, value):
    clinical, benchmark = _both(29, {**PSI, "Partial pressure of oxygen": [value, unit]})
    assert clinical - benchmark == 10
    assert _both(29, {**PSI, "Partial pressure of oxygen": [55, "mm Hg"]})[0] == clinical


@pytest.mark.parametrize("race", ["black", "African American"])
def test_mdrd_recognises_only_the_string_black(race):
    clinical, benchmark = _both(9, {**MAN_60, "creatinine": [1.2, "mg/dL"], "Race": race})
    assert clinical / benchmark == pytest.approx(1.212)
    assert by_id("mdrd-black-only").applies(0, "", {**MAN_60, "creatinine": [1.2, "mg/dL"], "Race": race})
    same = {**MAN_60, "creatinine": [1.2, "mg/dL"], "Race": "Black"}
    assert _both(9, same)[0] == _both(9, same)[1]


def test_child_pugh_bilirubin_erratum_uses_the_ratio_the_right_way_up():
    """548.66 g/mol makes the mg/dL value smaller: 36 umol/L is 2.10 mg/dL (2 points) but 1.98 in the
    benchmark (1 point); 33 umol/L scores 1 point either way and must not be flagged."""
    flagged = {**PUGH, "Bilirubin": [36, "µmol/L"]}
    clinical, benchmark = _both(15, flagged)
    assert clinical - benchmark == 1
    assert by_id("child-pugh-bilirubin-molar-mass").applies(0, "", flagged)
    assert not by_id("child-pugh-bilirubin-molar-mass").applies(0, "", {**PUGH, "Bilirubin": [33, "µmol/L"]})


def test_ckd_epi_male_kappa_erratum_holds_at_exactly_0_9_and_not_above():
    at, above = {**MAN_60, "creatinine": [0.9, "mg/dL"]}, {**MAN_60, "creatinine": [0.91, "mg/dL"]}
    clinical, benchmark = _both(3, at)
    assert benchmark / clinical == pytest.approx((0.9 / 0.7) ** -0.302)
    assert _both(3, above)[0] == _both(3, above)[1]


def test_every_erratum_is_a_switch_the_calculators_read_and_every_switch_is_in_the_table():
    source = "\n".join(p.read_text("utf-8") for p in Path(clincalc_pkg.__file__).parent.rglob("*.py"))
    switches = set(re.findall(r'deviates\(\s*"([a-z0-9-]+)"\s*\)', source))
    assert switches == set(erratum_ids())
    assert all(e.reason and e.source and e.status in ("observed", "code") for e in errata())


def test_steroid_conversion_follows_the_benchmarks_rounded_table():
    """Verified test row 1001: 7.96 mg dexamethasone PO as prednisolone has the gold 53.0932 (7.96 x 6.67),
    where the equivalent doses give 53.0667; betamethasone to dexamethasone moves nothing."""
    row = {"input steroid": ["Dexamethasone PO", 7.96, "mg"], "target steroid": "PrednisoLONE PO"}
    clinical, benchmark = _both(24, row)
    assert benchmark == pytest.approx(53.0932, abs=1e-9) and clinical == pytest.approx(7.96 / 0.75 * 5)
    assert by_id("steroid-rounded-equivalents").applies(0, "", row)
    same = {"input steroid": ["Betamethasone IV", 3, "mg"], "target steroid": "Dexamethasone IV"}
    assert _both(24, same) == (3, 3) and not by_id("steroid-rounded-equivalents").applies(0, "", same)
