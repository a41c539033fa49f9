"""The viewer and the report fit the screen (issue 36, item 4), in headless Chromium at 1400 and
1000 px: every list column in view, a nested detail table not squeezed, item ids never broken
inside a token, a repeat column, each suite's outcome legend, and filters and the chosen response
kept in the address so that a view can be linked."""

from __future__ import annotations

from pathlib import Path

import pytest

from physbench.report.document import report_for
from physbench.report.html import render_html
from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex
from physbench.runner.evaluate import EvalConfig, evaluate

from report_webdriver import Browser, find_browser  # noqa: E402  (tests/report is on sys.path, see conftest)

CHROMIUM, CHROMEDRIVER = find_browser()
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="headless Chromium is not installed (`make browser` installs it)")
READY = "return document.body.dataset.state === 'ready' && document.querySelectorAll('#rows tr').length > 0"
LONG = 'constant:\\boxed{100 cGy} ```json {"verdict": "correct", "first_error_step": null, "corrected_result": null}```'


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[str]:
    base = tmp_path_factory.mktemp("layout")
    made = []
    for name, options in (("oracle", dict(suite="medphys", model="oracle", limit=30, repeats=2)),
                          ("constant", dict(suite="medphys", model=LONG, limit=30)),
                          ("clincalc", dict(suite="clincalc", limit=6, item_options=(
                              ("arm", "gold-solve-library"), ("data", "one-shot"))))):
        evaluate(EvalConfig(run_dir=str(base / name), quiet=True, grade_inline=True, **options))
        made.append(str(base / name))
    return made


@pytest.fixture(scope="module")
def viewer(runs):
    server = ViewerServer(ResponseIndex(load_runs(runs)), 0).start()
    yield server
    server.stop()


def _browser(tmp_path: Path, width: int) -> Browser:
    return Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / f"profile-{width}"), width=width, height=900)


@pytest.mark.parametrize("width", [1400, 1000])
def test_every_list_column_is_in_view_and_the_detail_is_not_squeezed(viewer, tmp_path, width):
    b = _browser(tmp_path, width)
    try:
        b.get(viewer.url)
        b.wait_for(READY)
        heads = b.script("return [...document.querySelectorAll('#head th')].map(th => th.textContent)")
        assert heads[:7] == ["#", "model", "item", "rep", "kind", "outcome", "answer read"]
        right = b.script("const list = document.getElementById('list').getBoundingClientRect(); "
                         "return [...document.querySelectorAll('#head th')].map(th => "
                         "th.getBoundingClientRect().right <= list.right + 1)")
        assert all(right), (width, heads, right)
        # an id cell breaks only where the page allows (after / - _), never inside a token
        style = b.script("const td = document.querySelector('#rows td.id'); "
                         "return [getComputedStyle(td).overflowWrap, td.querySelectorAll('wbr').length]")
        assert style[0] == "normal" and style[1] >= 2
        b.click(b.find_all("#rows tr")[0])
        b.wait_for("return document.querySelector('#detail h2') !== null")
        narrowest = b.script("const dds = [...document.querySelectorAll('#detail dl.nested > dd')]; "
                             "return dds.length ? Math.min(...dds.map(d => d.getBoundingClientRect().width)) : 999")
        assert narrowest >= 60, narrowest  # not one character per line
    finally:
        b.close()


def test_filters_and_the_chosen_response_live_in_the_address(viewer, tmp_path):
    b = _browser(tmp_path, 1400)
    try:
        b.get(viewer.url + "?kind=calculation")
        b.wait_for(READY)
        third = b.script("return document.querySelectorAll('#rows tr')[2].dataset.id")
        b.get(viewer.url + f"?kind=calculation&response={third}")  # a link to one response of a filtered list
        b.wait_for("return document.querySelector('#detail h2') !== null")
        assert b.script("return document.getElementById('f-kind').value") == "calculation"
        assert b.script("return document.querySelector('#rows tr.selected').dataset.id") == third
        b.click(b.find_all("#rows tr")[1])
        b.wait_for("return location.search.includes('response=')")
        search = b.script("return location.search")
        chosen = b.script("return document.querySelector('#rows tr.selected').dataset.id")
        assert "kind=calculation" in search and f"response={chosen}" in search and chosen != third
        repeats = b.script("return new Set([...document.querySelectorAll('#rows tr td:nth-child(4)')].map(td => td.textContent)).size")
        assert repeats == 2  # the oracle's two repeats are told apart
        legend = b.script("return [...document.querySelectorAll('#legend dt.suite')].map(dt => dt.textContent)")
        assert legend == ["medphys", "clincalc"]
        b.get(viewer.url + "?model=" + b.script("return encodeURIComponent(document.querySelector("
                                                "'#f-model option:nth-child(3)').value)"))
        b.wait_for(READY)
        cell = b.script("const td = document.querySelector('#rows td:nth-child(2)'); return [td.textContent, td.title]")
        assert len(cell[0]) <= 32 and cell[1].startswith(LONG)  # a long label is cut, the whole text on hover
    finally:
        b.close()


@pytest.mark.parametrize("width", [1400, 1000])
def test_the_report_tables_fit_the_page(runs, tmp_path, width):
    report = report_for(runs[:2], figures=False)
    page = tmp_path / "report.html"
    page.write_text(render_html(report.sections, {}, report.doc["models"]), encoding="utf-8")
    b = _browser(tmp_path, width)
    try:
        b.get(page.as_uri())
        over = b.script("return [...document.querySelectorAll('.table-wrap')].filter(w => "
                        "w.scrollWidth > w.clientWidth + 1).map(w => w.querySelector('caption').textContent.slice(0, 60))")
        if width == 1400:
            assert over == [], over
        assert b.script("return document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        b.close()
