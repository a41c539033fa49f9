"""The analyses on small hand-built result sets whose answers are known (seed 000 Tables 9, 11, 12, 14, 17, 19-22)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from physbench.suites.medphys.grade import grade_item
from physbench.report.generic import pairwise, repeat_rows
from physbench.report.loading import RunData, RunSet, assign_labels
from physbench.suites.medphys.report.analyses import check_counts, checking, error_kind, size_bin
from physbench.suites.medphys.report.attribution import ModeAnswers, attribution_for
from physbench.suites.medphys.report.comparator import comparator_for, solved_rows
from physbench.suites.medphys.report.formats import format_rows
from physbench.runner.results import Result
from physbench.suites.medphys.base import params_from_dict
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.splits import draw_items
from physbench.suites.medphys.reference import reference_of
from physbench.report.registry import reports_for

MU = get_generator("mu")
ISQ = "isocentric_isq_omitted"


def respond(item, text: str) -> Result:
    """A stored response as the runner would keep it, graded by the real grader."""
    return Result(item=item, repeat=0, status="done", text=text, finish_reason="stop", usage={}, cost=None,
                  latency=None, model_calls=1, tries=1, errors=[], grade=grade_item(item, text), started_at=0.0,
                  finished_at=0.0)


def boxed(value: float, unit: str) -> str:
    return f"\\boxed{{{value:.6g} {unit}}}"


def verdict(flag: bool | None, step: int | None = None, corrected: str | None = None) -> str:
    if flag is None:
        return "I could not decide whether this worksheet is right, so I give no verdict at all here, sorry. " * 6
    return "```json\n" + json.dumps({"verdict": "incorrect" if flag else "correct", "first_error_step": step,
                                     "corrected_result": corrected}) + "\n```"


def fake_run(label: str, results: list[Result], spec: str | None = None) -> RunData:
    manifest = SimpleNamespace(suite="medphys", split="dev", protocol="direct", model_spec=spec or label, run_id=label)
    run = RunData(run_dir=Path(label), manifest=manifest, results=results, failures=[],  # type: ignore[arg-type]
                  summary={"cost_usd": None})
    run.label = label
    return run


def mode_answer(item, mode: str = ISQ) -> float:
    level = item.meta["level"]
    gen = get_generator(item.meta["generator"])
    return gen.mode(mode).answer(level, params_from_dict(gen.level(level).params, item.params))


def test_attribution_names_the_mode_a_model_used_and_beats_its_null():
    items = [calculation_item("mu", 3, seed) for seed in range(10)]
    results = [respond(i, boxed(mode_answer(i), "MU") if k < 6 else boxed(reference_of(i).value, "MU"))
               for k, i in enumerate(items)]
    row = attribution_for(fake_run("mode", results), ModeAnswers())
    assert (row["failures"], row["numeric"], row["attributed"], row["rate"]) == (6, 6, 6, 1.0)
    assert {b["mode"] for b in row["best"]} == {ISQ}
    assert 0.0 <= row["null_rate"] < 1.0 and row["p"] < 0.05


def test_a_wrong_answer_no_named_mode_produces_is_not_attributed():
    items = [calculation_item("mu", 3, seed) for seed in range(10)]

    def far_from_every_mode(item) -> bool:  # checked with the generator's own modes, independently of the report
        params = params_from_dict(MU.level(3).params, item.params)
        target = 1.5 * reference_of(item).value
        return all(abs(m.answer(3, params) - target) > 0.01 * abs(m.answer(3, params)) for m in MU.modes_at(3))

    items = [i for i in items if far_from_every_mode(i)]
    assert len(items) >= 5
    row = attribution_for(fake_run("far", [respond(i, boxed(1.5 * reference_of(i).value, "MU")) for i in items]),
                          ModeAnswers())
    assert row["failures"] == len(items) and row["attributed"] == 0 and row["rate"] == 0.0


def test_pairwise_mcnemar_holm_letters_separate_the_oracle_from_a_constant_model():
    ids = [f"i{k}" for k in range(30)]
    outcomes = {"constant": {i: i == "i0" for i in ids}, "oracle": {i: True for i in ids},
                "oracle copy": {i: True for i in ids}}
    pw = pairwise(outcomes)
    assert [m["model"] for m in pw["models"]][-1] == "constant"
    letters = {m["model"]: m["letters"] for m in pw["models"]}
    assert letters["oracle"] == letters["oracle copy"] == "a" and letters["constant"] == "b"
    pairs = {(p["first"], p["second"]): p for p in pw["pairs"]}
    against = pairs[("oracle", "constant")]
    assert (against["first_only"], against["second_only"], against["n"]) == (29, 0, 30)
    assert against["p"] == pytest.approx(2 * 0.5**29)
    # Holm over three pairs: the two equal smallest p values are both raised to 3p (step-down, then monotone)
    assert against["p_holm"] == pytest.approx(3 * 2 * 0.5**29)
    assert pairs[("oracle", "oracle copy")]["p_holm"] == 1.0


def _checks(level: int, seeds: range) -> list:
    return [i for s in seeds for i in draw_items(MU, level, s, planted=s % 2 == 1)]


def test_the_checking_table_counts_flagged_localised_corrected_and_no_verdict():
    items = {i.id: i for i in _checks(2, range(4)) if i.kind == "worksheet_check"}
    planted1, planted3 = items["medphys/mu/L2/ws/1"], items["medphys/mu/L2/ws/3"]
    ref = reference_of(planted1)
    results = [
        respond(planted1, verdict(True, ref.first_error_step, f"{ref.value:.6g} MU")),
        respond(planted3, verdict(None)),
        respond(items["medphys/mu/L2/ws/0"], verdict(False)),
        respond(items["medphys/mu/L2/ws/2"], verdict(True, 3, "1 MU")),
    ]
    counts = check_counts(results)
    assert counts["planted"] == {"n": 2, "flagged": 1, "localized": 1, "corrected": 1, "none": 1}
    assert counts["correct"] == {"n": 2, "accepted": 1, "flagged": 1, "none": 0}
    (row,) = checking([fake_run("m", results)])
    assert row["detection"]["value"] == 0.5 and row["false_alarms"]["value"] == 0.5 and row["j"]["value"] == 0.0


def test_formats_are_paired_on_the_same_draws_and_delta_j_is_result_minus_worksheet():
    items = _checks(2, range(10))
    results = []
    for i in items:
        if i.kind == "worksheet_check":
            results.append(respond(i, verdict(False)))               # accepts every worksheet
        elif i.kind == "result_check":
            results.append(respond(i, verdict(bool(reference_of(i).planted))))  # judges every result right
    (row,) = format_rows([fake_run("m", results)])
    det, fa = row["detection"], row["false_alarms"]
    assert (det["n"], det["worksheet_only"], det["result_only"]) == (5, 0, 5)
    assert det["p"] == pytest.approx(2 * 0.5**5) and det["p_holm"] == pytest.approx(2 * 2 * 0.5**5)
    assert (fa["worksheet_only"], fa["result_only"], fa["p"]) == (0, 0, 1.0)
    assert row["j_worksheet"]["value"] == 0.0 and row["j_result"]["value"] == 1.0
    d = row["delta_j"]
    # Delta J runs over [-2, 2]; the interval excludes 0 and holds the point estimate
    assert d["value"] == 1.0 and 0.0 < d["lo"] < 1.0 <= d["hi"]
    wide = row["delta_j_bonferroni"]
    assert row["bonferroni_models"] == 1 and wide == d


def test_the_comparator_follows_the_models_own_calculation_and_table_22_tests_within_cells():
    items = _checks(3, range(0, 10, 2))  # correct draws only: seeds 0, 2, 4, 6, 8
    results = []
    for i in items:
        seed = int(i.id.rsplit("/", 1)[1])
        own = mode_answer(calculation_item("mu", 3, seed)) if seed < 6 else reference_of(i).value
        if i.kind == "calculation":
            results.append(respond(i, boxed(own, "MU")))
        elif i.kind == "result_check":
            wrong = seed < 6
            results.append(respond(i, verdict(wrong, corrected=f"{own:.6g} MU" if wrong else None)))
    run = fake_run("m", results)
    row = comparator_for(run)
    assert (row["n"], row["false_alarms"], row["comparator"]) == (5, 3, 3)
    assert row["kappa"] == pytest.approx(1.0)
    assert row["own_value"] == {"k": 3, "n": 3} and row["wrong_correction"] == {"k": 3, "n": 3}
    (solved,) = solved_rows([run])
    fa = solved["false_alarms"]
    assert fa["solved"] == {"events": 0, "n": 2} and fa["unsolved"] == {"events": 3, "n": 3}
    # one informative cell (mu L3); all three false alarms in the unsolved row: p = 1 / C(5, 3)
    assert fa["informative_cells"] == 1 and fa["p"] == pytest.approx(0.1)


def test_repeat_rows_count_items_failed_again_and_the_same_wrong_value():
    items = [calculation_item("mu", 1, seed) for seed in range(5)]
    ref = [reference_of(i).value for i in items]
    first = [respond(i, boxed(ref[k] * (1.5 if k < 3 else 1.0), "MU")) for k, i in enumerate(items)]
    factors = [1.5, 2.0, 1.0, 1.0, 0.5]
    second = [respond(i, boxed(ref[k] * factors[k], "MU")) for k, i in enumerate(items)]
    runs = [fake_run("a", first, spec="m"), fake_run("b", second, spec="m")]
    assign_labels(runs)
    (row,) = repeat_rows(RunSet(runs), reports_for(["medphys"]))
    assert row["comparison"] == "m vs run 2" and row["n"] == 5
    assert (row["failed_first"], row["failed_again"], row["same_value"]) == (3, 2, 1)
    assert (row["first_rate"], row["second_rate"], row["p"]) == (0.4, 0.4, 1.0)


@pytest.mark.parametrize("generator, planted, kind", [
    ("mu", {"mode": ISQ, "category": "conceptual"}, "omitted factor"),
    ("tg51", {"mode": "output_at_10cm", "category": "conceptual"}, "omitted factor"),
    ("tg51", {"mode": "slip:transposed_digits", "category": "arithmetic"}, "arithmetic"),
    ("tg51", {"mode": "ndw_unit_slip", "category": "unit"}, "unit"),
    ("tg51", {"mode": "pressure_inverted", "category": "conceptual"}, "formula"),
    ("tg51", {"mode": "reference_20c", "category": "convention"}, "formula"),
])
def test_planted_errors_are_sorted_into_the_seeds_four_kinds(generator, planted, kind):
    item = SimpleNamespace(meta={"generator": generator, "planted": planted})
    assert error_kind(item) == kind


@pytest.mark.parametrize("size, label", [(0.03, "under 5%"), (-0.0499, "under 5%"), (0.05, "5–20%"),
                                         (-0.2, "5–20%"), (20.99, "over 20%"), (math.nan, None)])
def test_planted_errors_are_binned_by_how_far_they_move_the_result(size, label):
    assert size_bin(SimpleNamespace(meta={"planted": {"size": size}})) == label


def test_the_report_prints_the_seeds_own_checking_numbers():
    """Seed 000: 148/150 -> 98.7 (95.3-99.8); 0/75 -> 0.0 (0.0-4.8); J for 75/75 detected and 1/75 false alarms
    -> 0.99 (0.91 to 1.00); Claude Sonnet 5.5's worksheet checks (149/150 detected, 3/150 false alarms) give 33%
    real alarms at a 1% error rate, with conservative one-sided bounds 15% and 71% (Table 21, Section F)."""
    from physbench.suites.medphys.report.analyses import rates
    from physbench.report.tables import diff, estimate, pct

    assert estimate(rates(148, 150, 0, 75)["detection"]) == "98.7 (95.3–99.8)"
    assert estimate(rates(148, 150, 0, 75)["false_alarms"]) == "0.0 (0.0–4.8)"
    assert diff(rates(75, 75, 1, 75)["j"]) == "0.99 (0.91 to 1.00)"
    real = rates(149, 150, 3, 150)["real_alarms"]
    assert [pct(real[k], 0) for k in ("share", "lower", "upper")] == ["33", "15", "71"]
