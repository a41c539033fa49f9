"""The viewer shows numbers to four significant figures, JSON replies pretty-printed and Markdown rendered
(as elements built from text, never as HTML), and says what each outcome means."""

from __future__ import annotations

import math

import pytest

from physbench.grading.types import OUTCOME_MEANINGS
from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex, rounded
from physbench.runner.evaluate import EvalConfig, evaluate

from report_webdriver import Browser, find_browser  # noqa: E402  (tests/report is put on sys.path by conftest)

MARKDOWN = ("constant:## Working\n\nThe **dose** per `MU` is found from:\n\n- the output factor\n- the depth\n\n"
            "| quantity | value |\n|---|---|\n| D | 2 Gy |\n\n\\boxed{1 MU}")
JSON_REPLY = 'constant:{"verdict": "incorrect", "first_error_step": 2, "corrected_value": "1.5 MU"}'


def _significant(x: float) -> int:
    digits = f"{abs(x):.15g}".replace(".", "").lstrip("0").split("e")[0]
    return len(digits.rstrip("0")) or 1


def test_rounded_keeps_four_significant_figures_and_leaves_integers_and_text():
    assert rounded({"a": 0.030000000000000027, "b": [1.0183456789, 7], "c": "0.123456789", "d": 123456.7}) == \
        {"a": 0.03, "b": [1.018, 7], "c": "0.123456789", "d": 123500.0}
    assert math.isnan(rounded(float("nan")))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("viewer-rendering")
    out = []
    for name, model in (("md", MARKDOWN), ("json", JSON_REPLY), ("mode", "mode:isocentric_isq_omitted")):
        evaluate(EvalConfig(suite="medphys", split="dev", model=model, run_dir=str(base / name), quiet=True,
                            grade_inline=True, limit=30))
        out.append(str(base / name))
    return out


def test_rows_and_details_carry_rounded_numbers_and_the_outcome_meanings(runs):
    index = ResponseIndex(load_runs(runs))
    numbers = []

    def walk(obj):
        if isinstance(obj, float) and math.isfinite(obj):
            numbers.append(obj)
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    for e in index.entries:
        walk(index.row(e))
        detail = index.detail(e.index)
        walk({k: v for k, v in detail.items() if k not in ("messages", "response")})
    assert numbers and max(_significant(x) for x in numbers) <= 4
    assert index.meta()["outcomes"]["stopped_short"] == OUTCOME_MEANINGS["stopped_short"]


CHROMIUM, CHROMEDRIVER = find_browser()


@pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None, reason="headless Chromium is not installed")
def test_the_page_renders_markdown_and_json_and_keeps_the_raw_text_a_click_away(runs, tmp_path):
    server = ViewerServer(ResponseIndex(load_runs(runs[:2])), 0).start()
    browser = Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / "profile"))
    try:
        browser.get(server.url)
        browser.wait_for("return document.body.dataset.state === 'ready' && "
                         "document.querySelectorAll('#rows tr').length > 0")
        assert browser.script("return document.querySelectorAll('#legend dt').length") >= len(OUTCOME_MEANINGS)
        browser.click(browser.find_all("#rows tr")[0])  # the Markdown model's first response
        browser.wait_for("return document.querySelector('#detail .markdown h4') !== null")
        shown = browser.script(
            "const r = [...document.querySelectorAll('#detail .block')].find(b => b.textContent.startsWith('Model response'));"
            "const m = r.querySelector('.markdown');"
            "return [m.querySelector('h4').textContent, m.querySelector('strong').textContent,"
            " m.querySelectorAll('li').length, m.querySelectorAll('table td').length,"
            " r.querySelector('pre.raw').hidden]")
        assert shown == ["Working", "dose", 2, 2, True]
        browser.script("[...document.querySelectorAll('#detail .block')].find(b => "
                       "b.textContent.startsWith('Model response')).querySelector('button.toggle').click()")
        assert browser.script("return [...document.querySelectorAll('#detail .block')].find(b => "
                              "b.textContent.startsWith('Model response')).querySelector('pre.raw').hidden") is False
        rows = browser.find_all("#rows tr")
        browser.click(rows[30])  # the JSON model's first response
        pretty = browser.wait_for("const p = document.querySelector('#detail pre.json'); return p ? p.textContent : ''")
        assert '\n  "verdict": "incorrect"' in pretty
        grade = browser.script(  # the grade's detail is nested definitions, not JSON text
            "const g = [...document.querySelectorAll('#detail .block')].find(b => b.querySelector('h3')"
            ".textContent === 'Grade'); return [g.querySelectorAll('dl.nested').length, g.textContent]")
        assert grade[0] >= 1 and '{"' not in grade[1]
    finally:
        browser.close()
        server.stop()
