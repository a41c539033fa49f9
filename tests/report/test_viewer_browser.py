"""End to end in headless Chromium: the viewer lists responses, a filter narrows them, hostile text stays text.

Needs Debian's `chromium` and `chromium-driver` (`make test` installs them); skipped with the
reason when they are missing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex

from report_webdriver import Browser, find_browser  # noqa: E402  (tests/report is put on sys.path by conftest)

CHROMIUM, CHROMEDRIVER = find_browser()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="headless Chromium is not installed (apt-get install chromium chromium-driver; `make test` does it)",
)

ROW_COUNT = "return document.querySelectorAll('#rows tr').length"
READY = "return document.body.dataset.state === 'ready' && document.querySelectorAll('#rows tr').length > 0"


def _non_blank(png: bytes) -> tuple[int, float]:
    """(distinct colours, standard deviation of the grey levels) of a screenshot."""
    from PIL import Image, ImageStat

    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    return len(colours), ImageStat.Stat(image.convert("L")).stddev[0]


@pytest.fixture
def viewer(dev_runs):
    index = ResponseIndex(load_runs([dev_runs["oracle"], dev_runs["mode"], dev_runs["hostile"]]))
    server = ViewerServer(index, 0).start()
    yield server
    server.stop()


@pytest.fixture
def browser(tmp_path):
    b = Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / "profile"))
    yield b
    b.close()


def test_the_page_lists_responses_and_a_filter_narrows_them(viewer, browser, tmp_path: Path):
    browser.get(viewer.url)
    browser.wait_for(READY)
    before = browser.script(ROW_COUNT)
    matched = int(browser.script("return document.getElementById('count').dataset.matched"))
    assert matched == 600 + 600 + 12 and before == 200  # the first page of every response
    shot = browser.screenshot()
    (tmp_path / "viewer-all.png").write_bytes(shot)
    colours, spread = _non_blank(shot)
    assert colours > 20 and spread > 5, "the screenshot of the listing is blank"

    # choose the mode model and wrong outcomes through the page's own select elements
    for select, value in (("f-model", "mode:isocentric_isq_omitted"), ("f-outcome", "wrong"),
                          ("f-kind", "calculation")):
        (option,) = browser.find_all(f"#{select} option[value='{value}']")
        browser.click(browser.find_all(f"#{select}")[0])
        browser.click(option)
        browser.wait_for(READY)
    # the ten level-3 isocentric MU items, each with the omission (waits out any reload still running)
    browser.wait_for("return document.body.dataset.state === 'ready' && "
                     "document.getElementById('count').dataset.matched === '10'")
    after = browser.script(ROW_COUNT)
    assert after == 10 < before
    texts = browser.script("return [...document.querySelectorAll('#rows tr td:nth-child(9)')].map(td => td.textContent)")
    assert texts == ["isocentric_isq_omitted"] * 10
    filtered = browser.screenshot()
    (tmp_path / "viewer-filtered.png").write_bytes(filtered)
    assert _non_blank(filtered)[0] > 20 and filtered != shot

    # the detail of a response shows its item, the reference and the attributed mode
    browser.click(browser.find_all("#rows tr")[0])
    detail = browser.wait_for("const d = document.getElementById('detail'); "
                              "return d.querySelector('h2') ? d.textContent : ''")
    assert "medphys/mu/L3/calc/" in detail and "isocentric inverse-square correction" in detail
    assert "Model response" in detail and "Reference" in detail and "Grade" in detail


def test_hostile_model_text_is_shown_as_text_and_never_runs(viewer, browser):
    browser.get(viewer.url)
    browser.wait_for(READY)
    label = browser.script("return [...document.querySelectorAll('#f-model option')].map(o => o.value)"
                           ".find(v => v.startsWith('constant:'))")
    assert label and label.startswith("constant:$\\frac{1}{$ <img")  # the label is cut (issue 36): its whole
    full = browser.script("return FULL[arguments[0]]", label)  # text is kept for the hover
    assert '<img src=x onerror="window.__pwned=1">' in full
    (option,) = [o for o in browser.find_all("#f-model option") if browser.text(o).startswith("constant:")]
    browser.click(browser.find_all("#f-model")[0])
    browser.click(option)
    browser.wait_for("return document.body.dataset.state === 'ready' && "
                     "document.querySelectorAll('#rows tr').length === 12")
    browser.click(browser.find_all("#rows tr")[0])
    browser.wait_for("return document.querySelector('#detail pre') !== null")
    assert browser.script("return window.__pwned === undefined")
    assert browser.script("return document.querySelectorAll('#rows img, #rows script, #rows b, "
                          "#detail img, #detail script, #detail b, select img').length") == 0
    shown = browser.script("return document.getElementById('detail').textContent")
    assert '<img src=x onerror="window.__pwned=1">' in shown and "<b>bold</b>" in shown
    assert not browser.alert_open()


def test_a_submitted_plan_shows_its_dvh_as_a_chart(cli, browser, tmp_path: Path):
    run = tmp_path / "plan"
    r = cli("eval", "planning", "--system", "controller", "--option", "family=routine", "--limit", "1",
            "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    server = ViewerServer(ResponseIndex(load_runs([run])), 0).start()
    try:
        browser.get(server.url)
        browser.wait_for(READY)
        browser.click(browser.find_all("#rows tr")[0])
        lines = browser.wait_for("return document.querySelectorAll('#detail svg polyline').length")
        legend = browser.script("return document.getElementById('detail').textContent")
        shot = browser.screenshot()
    finally:
        server.stop()
    (tmp_path / "viewer-dvh.png").write_bytes(shot)
    assert lines >= 5 and "Dose-volume histogram of the submitted plan" in legend and "PTV" in legend
    assert _non_blank(shot)[0] > 20
