"""The viewer's DVH of a submitted plan in headless Chromium (issue 34 item 4): round ticks on both
axes, the whole chart inside its panel and the window at 1000 and 1400 px, its 10-unit tick text drawn at
9 px or more (the chart is drawn at its panel's width, not shrunk)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
from report_webdriver import Browser, find_browser  # noqa: E402

CHROMIUM, CHROMEDRIVER = find_browser()
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None, reason="headless Chromium is not installed")

READY = "return document.body.dataset.state === 'ready' && document.querySelectorAll('#rows tr').length > 0"
TICKS = "return [...document.querySelectorAll('#detail svg text.' + arguments[0])].map(t => t.textContent)"
FITS = """const s = document.querySelector('#detail svg').getBoundingClientRect();
const d = document.getElementById('detail').getBoundingClientRect();
const scale = s.width / document.querySelector('#detail svg').viewBox.baseVal.width;
const inner = d.left + document.getElementById('detail').clientLeft + document.getElementById('detail').clientWidth;
return [s.left >= d.left - 0.5, s.right <= inner + 0.5, s.right <= window.innerWidth, 10 * scale >= 9];"""


@pytest.fixture(scope="module")
def plan_run(tmp_path_factory):
    from physbench.runner.evaluate import EvalConfig, evaluate

    run = tmp_path_factory.mktemp("dvh") / "run"
    evaluate(EvalConfig(suite="planning", split="dev", protocol="controller", model="none", limit=1, quiet=True,
                        item_options=(("system", "controller"), ("family", "routine")), run_dir=str(run)))
    return run


@pytest.mark.parametrize("width", [1000, 1400])
def test_the_dvh_has_round_ticks_and_fits_its_panel(plan_run, tmp_path, width):
    server = ViewerServer(ResponseIndex(load_runs([plan_run])), 0).start()
    browser = Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / "profile"), width=width)
    try:
        browser.get(server.url)
        browser.wait_for(READY)
        browser.click(browser.find_all("#rows tr")[0])
        browser.wait_for("return document.querySelectorAll('#detail svg polyline').length > 0")
        browser.wait_for("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        xs, ys = browser.script(TICKS, "tick-x"), browser.script(TICKS, "tick-y")
        fits = browser.script(FITS)
        (tmp_path / f"dvh-{width}.png").write_bytes(browser.screenshot())
    finally:
        browser.close()
        server.stop()
    assert ys == ["0", "20", "40", "60", "80", "100"]  # volume in percent
    assert len(xs) >= 4 and xs[0] == "0" and all(float(b) - float(a) == float(xs[1]) for a, b in zip(xs, xs[1:]))
    assert fits == [True, True, True, True], fits
