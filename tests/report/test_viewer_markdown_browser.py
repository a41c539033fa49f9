"""In headless Chromium at 1400 and 1000 px: a reply with a `|` line and no table rule, and one
line of 200,000 characters, renders (the tab does not freeze) and wraps inside its column
(issue 33, item 8). Skipped with the reason when Chromium is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex
from physbench.runner.evaluate import EvalConfig, evaluate

from report_webdriver import Browser, find_browser  # noqa: E402  (tests/report is put on sys.path by conftest)

CHROMIUM, CHROMEDRIVER = find_browser()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="headless Chromium is not installed (apt-get install chromium chromium-driver; `make test` does it)",
)
REPLY = "The result:\n| dose | 1 cGy |\n\n" + "x" * 200_000


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):  # noqa: ANN001, ANN201
    run = tmp_path_factory.mktemp("long-reply") / "run"
    evaluate(EvalConfig(suite="medphys", split="dev", model=f"constant:{REPLY}", run_dir=str(run), quiet=True,
                        grade_inline=True, limit=1))
    server = ViewerServer(ResponseIndex(load_runs([run])), 0).start()
    yield server
    server.stop()


@pytest.mark.parametrize("width", [1400, 1000])
def test_a_hostile_reply_renders_and_its_long_line_wraps(viewer, tmp_path: Path, width: int) -> None:
    browser = Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / "profile"), width=width)
    try:
        browser.get(viewer.url)
        browser.wait_for("return document.querySelectorAll('#rows tr').length === 1")
        browser.click(browser.find_all("#rows tr")[0])
        shown = browser.wait_for("const m = [...document.querySelectorAll('#detail .markdown')].pop(); "
                                 "return m && m.textContent.includes('| dose | 1 cGy |') ? m.textContent.length : 0",
                                 timeout=60.0)
        overflow = browser.script("const m = [...document.querySelectorAll('#detail .markdown')].pop(); "
                                  "return [m.scrollWidth - m.clientWidth, "
                                  "document.documentElement.scrollWidth - window.innerWidth]")
        (tmp_path / f"viewer-long-reply-{width}.png").write_bytes(browser.screenshot())
    finally:
        browser.close()
    assert shown > 190_000  # the viewer sends the first 200,000 characters
    assert overflow[0] <= 1, "the long line does not wrap inside its block"
    assert overflow[1] <= 1, "the page scrolls sideways"
