"""The medphys report's later additions on scripted and hand-built runs: accuracy on completed responses
(seed 000 Table 2), J over responses with a verdict, the targeted test (Table 24, Figure 4), the grader's
view of each error mode (Figure 5), and the figures for letters, Delta J and error size."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_report_analyses import boxed, fake_run, mode_answer, respond, verdict  # noqa: E402

from physbench.report.document import report_for  # noqa: E402
from physbench.report.markdown import render_document  # noqa: E402
from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402
from physbench.suites.medphys.generators import get_generator  # noqa: E402
from physbench.suites.medphys.grade import grade_item  # noqa: E402
from physbench.suites.medphys.items import calculation_item  # noqa: E402
from physbench.suites.medphys.reference import reference_of  # noqa: E402
from physbench.suites.medphys.report.analyses import accuracy, checking  # noqa: E402
from physbench.suites.medphys.report.detectability import detectability_rows  # noqa: E402
from physbench.suites.medphys.report.targeted import erroneous_value  # noqa: E402
from physbench.suites.medphys.splits import draw_items, targeted_items  # noqa: E402

ISQ = "isocentric_isq_omitted"
TARGETED = f"targeted:mu:3:{ISQ}:4"
PNG = b"\x89PNG\r\n\x1a\n"


def test_accuracy_on_completed_responses_leaves_blocked_truncated_and_stopped_short_out():
    items = [calculation_item("mu", 1, seed) for seed in range(10)]
    answers = [(boxed(reference_of(i).value, "MU"), "stop") for i in items[:4]]
    answers += [("I am sorry, but I can't help with that.", "content_filter")] * 2
    answers += [("Let me set up the inverse square factor first and then", "length"), ("Hmm.", "stop")]
    answers += [(boxed(2 * reference_of(i).value, "MU"), "stop") for i in items[8:]]
    results = [dataclasses.replace(respond(i, text), finish_reason=reason, grade=grade_item(i, text, reason))
               for i, (text, reason) in zip(items, answers)]
    outcomes = [r.grade.outcome for r in results]
    assert outcomes == ["correct"] * 4 + ["blocked"] * 2 + ["truncated", "stopped_short"] + ["wrong"] * 2
    acc = accuracy([fake_run("m", results)])
    (full,), (done,) = acc["overall"], acc["completed"]
    assert (full["n"], full["n_correct"]) == (10, 4)
    assert (done["n"], done["n_correct"], done["accuracy"]) == (6, 4, pytest.approx(4 / 6))


def test_j_over_responses_with_a_verdict_leaves_the_others_out_of_both_denominators():
    items = [i for s in range(16) for i in draw_items(get_generator("mu"), 2, s, planted=s % 2 == 1)
             if i.kind == "result_check"]
    planted = [i for i in items if reference_of(i).planted]
    correct = [i for i in items if not reference_of(i).planted]
    said = [True] * 4 + [None] * 2 + [False] * 2, [True] + [None] * 3 + [False] * 4
    results = [respond(i, verdict(v)) for group, answers in zip((planted, correct), said)
               for i, v in zip(group, answers)]
    (row,) = checking([fake_run("m", results)])
    assert row["j"]["value"] == pytest.approx(4 / 8 - 1 / 8)
    assert (row["j_verdict"]["planted_n"], row["j_verdict"]["correct_n"]) == (6, 5)
    assert row["j_verdict"]["j"]["value"] == pytest.approx(4 / 6 - 1 / 5)
    assert row["j_verdict"]["j"]["lo"] < 4 / 6 - 1 / 5 < row["j_verdict"]["j"]["hi"]


def test_the_erroneous_value_of_a_planted_twin_is_its_modes_own_answer():
    planted = [i for i in targeted_items("mu", 3, ISQ, 2) if i.kind == "result_check" and reference_of(i).planted]
    for item in planted:
        assert erroneous_value(item) == pytest.approx(mode_answer(item, ISQ), rel=1e-12)
        assert erroneous_value(item) == pytest.approx(reference_of(item).shown_value, rel=1e-3)


def test_detectability_counts_only_items_where_the_mode_changes_the_answer():
    items = [calculation_item("mu", 3, seed) for seed in range(8)]
    run = fake_run("o", [respond(i, boxed(reference_of(i).value, "MU")) for i in items])
    rows = {(r["mode"], r["level"]): r for r in detectability_rows([run])}
    row = rows[(ISQ, 3)]
    effects = [abs(mode_answer(i, ISQ) / reference_of(i).value - 1) for i in items]
    changed = [e for e in effects if e > 1e-9]
    assert row["items"] == 8 and row["applicable"] == len(changed)
    assert row["detected"] == pytest.approx(sum(e > 0.01 for e in changed) / len(changed))


@pytest.fixture(scope="module")
def targeted_report(tmp_path_factory: pytest.TempPathFactory):
    """oracle, the isocentric omission and a constant model on a four-set targeted test and on 120 dev items."""
    base = tmp_path_factory.mktemp("targeted")
    dirs = []
    for name, model, split, limit in (("t-oracle", "oracle", TARGETED, None), ("t-mode", f"mode:{ISQ}", TARGETED, None),
                                      ("t-none", "constant:\\boxed{1 MU}", TARGETED, None),
                                      ("d-oracle", "oracle", "dev", 120), ("d-mode", f"mode:{ISQ}", "dev", 120),
                                      ("d-none", "constant:\\boxed{1 MU}", "dev", 120)):
        evaluate(EvalConfig(suite="medphys", split=split, model=model, run_dir=str(base / name), quiet=True,
                            grade_inline=True, limit=limit))
        dirs.append(str(base / name))
    return report_for(dirs, figures=True)


def test_table_24_follows_the_scripted_models(targeted_report):
    rows = {r["model"].split(" [")[0]: r for r in targeted_report.doc["analyses"]["medphys"]["targeted"]}
    assert set(rows) == {"oracle", f"mode:{ISQ}", "constant:\\boxed{1 MU}"}
    o, m, c = rows["oracle"], rows[f"mode:{ISQ}"], rows["constant:\\boxed{1 MU}"]
    assert o["modes"] == m["modes"] == [ISQ] and o["pairs"] == 4
    assert o["own"] == {"n": 4, "correct": 4, "with_error": 0}
    assert (o["worksheet"]["detected"], o["worksheet"]["localized"], o["result"]["detected"]) == (4, 4, 4)
    assert (o["worksheet"]["false_alarms"], o["result"]["false_alarms"]) == (0, 0)
    # the model that makes the omission: its own answers carry it, it accepts the planted twins and flags
    # every correct result proposing its own (omitted) value
    assert m["own"] == {"n": 4, "correct": 0, "with_error": 4}
    assert (m["worksheet"]["detected"], m["result"]["detected"]) == (0, 0)
    assert (m["result"]["false_alarms"], m["result"]["false_alarms_with_error"]) == (4, 4)
    assert c["own"]["with_error"] == 0 and c["result"]["false_alarms"] == 0


def test_the_report_prints_the_new_tables_and_draws_the_new_figures(targeted_report):
    md = render_document(targeted_report.sections, captions=targeted_report.captions)
    assert "## Targeted test of one error" in md and "| 4/4 (4) |" in md
    assert "## What a final-answer grader can see" in md
    assert "on completed % (95% CI)" in md and "J with a verdict (95% CI)" in md
    for key in ("accuracy_letters", "delta_j", "targeted", "detectability", "detection_by_size"):
        assert targeted_report.figures[key].startswith(PNG)
        assert targeted_report.captions[key] in md


def test_the_letters_figure_uses_the_report_pairwise_letters(targeted_report):
    a = targeted_report.doc["analyses"]
    generic = {m["model"]: m["letters"] for m in a["pairwise"]["models"]}
    assert {m["model"]: m["letters"] for m in a["medphys"]["letters"]} == generic
    assert len(set(generic.values())) >= 2
