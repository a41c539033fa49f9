"""`physbench medphys verify`: the JSON it promises, and that it fails when a check fails."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from physbench.suites.medphys.verify.bands import final_rounding, percentile
from physbench.suites.medphys.verify.controls import best_constant
from physbench.suites.medphys.verify.run import failures, verify

KEYS = {"cells", "draws_per_cell", "max_rel_diff", "plausibility_violations", "regeneration_identical",
        "grader_accepts_reference", "bands", "negative_controls", "constant_answer", "detectability",
        "prompt_defects"}


@pytest.fixture(scope="module")
def small_run():
    return verify(draws=20, workers=2)


def test_verify_at_small_n_passes_every_check(small_run):
    s = small_run
    assert KEYS <= set(s) and s["cells"] == 30
    assert s["passed"], s["failures"]
    assert s["max_rel_diff"] < 1e-6 and s["compared"] == 600
    assert len(s["bands"]) == 30 and all(b["band"] >= b["derived"] for b in s["bands"])
    # every one of the 97 modes at every level where it applies (180 combinations in the seed)
    assert len(s["detectability"]) == sum(len(m["levels"]) for m in _modes())
    assert s["tg43_distance_rounding"]["3sf"]["max"] < 0.02


def _modes():
    from physbench.suites.medphys.generators import available_generators

    return [{"levels": m.levels} for g in available_generators() for m in g.error_modes]


def test_failures_name_each_broken_promise(small_run):
    broken = json.loads(json.dumps(small_run))
    broken["max_rel_diff"] = 1e-3
    broken["bands"][0]["derived"] = 0.05
    broken["negative_controls"]["outside_1_1_rejected"]["passed"] -= 1
    text = " | ".join(failures(broken))
    assert "disagree" in text and "tighter than derived" in text and "outside_1_1_rejected" in text


def test_final_rounding_follows_the_requested_precision():
    assert final_rounding("Give at least four significant figures") == pytest.approx(0.0005)
    assert final_rounding("Give at least three significant figures") == pytest.approx(0.005)
    with pytest.raises(ValueError):
        final_rounding("no precision here")


def test_best_constant_and_percentile_by_hand():
    value, count = best_constant([100.0, 100.5, 101.0, 200.0], 0.01)
    assert count == 3 and abs(value / 100.5 - 1) <= 0.01
    assert percentile([0.0, 1.0, 2.0, 3.0, 4.0], 50) == 2.0


@pytest.mark.slow
def test_verify_with_2000_draws_per_cell_passes_and_writes_the_record(tmp_path):
    doc = tmp_path / "verification.md"
    r = subprocess.run([sys.executable, "-m", "physbench", "medphys", "verify", "--draws", "2000", "--json",
                        "--doc", str(doc)], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    s = json.loads(r.stdout)
    assert s["passed"] and s["regeneration_identical"]["total"] == 60_000
    assert "## Tolerance bands" in doc.read_text()


def test_the_controls_print_their_band_fractions_as_numbers(small_run):
    """Issue 16: the JSON key inside_0_9_accepted printed as "inside 0 9 accepted"."""
    from physbench.suites.medphys.cli_verify import _text
    from physbench.suites.medphys.verify.document import markdown

    for text in (_text(small_run), markdown(small_run, "physbench medphys verify --draws 20")):
        assert "inside 0.9 x band accepted" in text and "outside 1.1 x band rejected" in text
        assert "0 9 accepted" not in text and "1 1 rejected" not in text


def test_the_shipped_verification_record_names_the_controls_as_the_command_does(small_run):
    from pathlib import Path

    from physbench.suites.medphys.verify.controls import control_label

    doc = (Path(__file__).resolve().parents[3] / "docs" / "verification.md").read_text(encoding="utf-8")
    for key in small_run["negative_controls"]:
        assert f"| {control_label(key)} |" in doc, key
