"""The full report of scripted-model runs on the medphys dev split: every table and figure, offline HTML, JSON."""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from physbench.cli import main
from physbench.report.document import report_for

SECTIONS = ("Runs", "Scores", "Calculation accuracy", "Pairwise comparisons of calculation accuracy", "Checking",
            "Worksheet against result checks", "Result checks whose planted error changes the quantity",
            "Detection by kind and size of error", "What the wrong answers were", "Where the false alarms came from",
            "Targeted test of one error", "What a final-answer grader can see", "Repeated runs", "Outcomes")
FIGURES = ("accuracy_by_level", "accuracy_letters", "operating_points", "delta_j", "detection_by_size",
           "detectability")  # no targeted test among these runs, so no targeted figure
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def written(dev_runs, tmp_path_factory):
    """`physbench report oracle mode mode-again hostile --out DIR`, run once for the module."""
    out = tmp_path_factory.mktemp("report") / "out"
    runs = [dev_runs[k] for k in ("oracle", "mode", "mode_again", "hostile")]
    with pytest.raises(SystemExit) as exit_:
        main(["report", *map(str, runs), "--out", str(out)])
    assert exit_.value.code == 0
    return out


class _Refs(HTMLParser):
    """Collects every URL-bearing attribute and the tags of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.urls += [v or "" for k, v in attrs if k in ("src", "href", "action", "srcset", "poster", "data")]


def test_the_markdown_has_every_section_with_tables_and_figure_links(written: Path):
    md = (written / "report.md").read_text(encoding="utf-8")
    for title in SECTIONS:
        assert f"\n## {title}\n" in md, title
    # every section holds data here: none fell back to its note
    assert md.count("\n|---") >= 20
    for key in FIGURES:
        assert f"](figures/{key}.png)" in md
        assert (written / "figures" / f"{key}.png").read_bytes().startswith(PNG)
    # the basic per-run tables are still there
    assert "| calculation | 300 | 300 | 100.0 (98.8–100.0) |" in md


def test_the_html_is_self_contained_and_escapes_run_text(written: Path):
    page = (written / "report.html").read_text(encoding="utf-8")
    refs = _Refs()
    refs.feed(page)
    assert "script" not in refs.tags and "link" not in refs.tags and "iframe" not in refs.tags
    external = [u for u in refs.urls if not (u.startswith("data:image/png;base64,") or u.startswith("#"))]
    assert external == []
    assert not re.search(r"https?://|url\(|@import|//[a-z0-9.-]+\.[a-z]{2,}/", page, re.I)
    assert "default-src 'none'" in page  # the page may load nothing, even if something slipped through
    images = [u for u in refs.urls if u.startswith("data:image/png;base64,")]
    assert len(images) == len(FIGURES)
    assert all(base64.b64decode(u.split(",", 1)[1]).startswith(PNG) for u in images)
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in page, title
    assert refs.tags.count("table") >= 20
    # the hostile model's label arrives as text only
    assert "<img src=x" not in page and "<b>bold" not in page
    assert "&lt;img src=x onerror=" in page


def test_the_json_keeps_the_run_summaries_and_adds_the_analyses(written: Path):
    doc = json.loads((written / "report.json").read_text())
    assert [r["model"] for r in doc["runs"]][:2] == ["oracle", "mode:isocentric_isq_omitted"]
    assert {"runs", "models", "analyses", "notes"} <= doc.keys()
    med = doc["analyses"]["medphys"]
    assert {"accuracy", "checking", "scores", "formats", "quantity", "kinds_sizes", "attribution", "comparator",
            "solved"} <= med.keys()
    assert all(med[k] for k in ("accuracy", "checking", "formats", "kinds_sizes", "attribution", "comparator"))
    assert [m["label"] for m in doc["models"]][2] == "mode:isocentric_isq_omitted (run 2)"


def test_the_numbers_follow_from_the_scripted_models(written: Path):
    a = json.loads((written / "report.json").read_text())["analyses"]
    # pairwise: the mode model fails exactly the ten level-3 MU items the oracle solves: p = 2 * 0.5^10
    pw = {(p["first"], p["second"]): p for p in a["pairwise"]["pairs"]}
    pair = pw[("oracle", "mode:isocentric_isq_omitted")]
    assert (pair["n"], pair["first_only"], pair["second_only"]) == (300, 10, 0)
    assert pair["p"] == pytest.approx(2 * 0.5**10)
    letters = {m["model"]: m["letters"] for m in a["pairwise"]["models"]}
    assert letters["oracle"] != letters["mode:isocentric_isq_omitted"]
    levels = {(r["model"], r["level"]): r for r in a["medphys"]["accuracy"]["by_level"]}
    assert levels[("mode:isocentric_isq_omitted", 3)]["n_correct"] == 90
    assert levels[("oracle", 3)]["accuracy"] == 1.0
    # attribution names the mode the model used, far above its null
    attr = {r["model"]: r for r in a["medphys"]["attribution"]["rows"]}["mode:isocentric_isq_omitted"]
    assert (attr["failures"], attr["attributed"]) == (10, 10) and attr["null_rate"] < 1.0 and attr["p"] < 0.01
    assert a["medphys"]["attribution"]["modes"][0]["mode"] == "isocentric_isq_omitted"
    # the oracle checks perfectly; the repeated run agrees with the first one item by item
    oracle_checks = [r for r in a["medphys"]["checking"] if r["model"] == "oracle"]
    assert all(r["detection"]["value"] == 1.0 and r["false_alarms"]["value"] == 0.0 for r in oracle_checks)
    repeats = [r for r in a["repeats"] if r["kind"] == "calculation"]
    assert repeats and all(r["kappa"] == pytest.approx(1.0) and r["failed_again"] == r["failed_first"] == 10
                           for r in repeats)


def test_a_report_without_data_for_a_section_says_so_in_one_line(dev_runs, cli):
    r = cli("report", str(dev_runs["hostile"]))
    assert r.returncode == 0, r.stderr
    assert "pairwise tests need calculation items from at least two models" in r.stdout
    assert "no repeated runs" in r.stdout
    rep = report_for([str(dev_runs["hostile"])], figures=False)
    notes = rep.doc["notes"]
    assert {"pairwise", "repeats"} <= notes.keys() and all("\n" not in v for v in notes.values())
