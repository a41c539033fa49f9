"""Screenshots of a demo-sized report and the viewer at 1400 and 1000 px, in headless Chromium.

    PYTHONPATH=src python docs/screenshots/shoot.py [RUN_DIR ...]

With no run directories it makes the demo's three runs with scripted models in a temporary folder
(`oracle` stands in for the local model, whose runs take minutes); with `runs/demo/*` it shows
the real demo. Writes report-1400.png, report-1000.png, viewer-1400.png and viewer-1000.png here.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests" / "report"))

from report_webdriver import Browser, find_browser  # noqa: E402

from physbench.cli.demo_cmd import BASELINE_CONSTANT  # noqa: E402
from physbench.report.document import report_for  # noqa: E402
from physbench.report.html import render_html  # noqa: E402
from physbench.report.loading import load_runs  # noqa: E402
from physbench.report.viewer import ViewerServer  # noqa: E402
from physbench.report.viewer_data import ResponseIndex  # noqa: E402
from physbench.runner.evaluate import EvalConfig, evaluate  # noqa: E402

READY = "return document.body.dataset.state === 'ready' && document.querySelectorAll('#rows tr').length > 0"


def demo_runs(base: Path) -> list[str]:
    runs = []
    for label, spec in (("local (oracle here)", "oracle"), ("nocalc", "nocalc"), ("constant", BASELINE_CONSTANT)):
        run_dir = base / label.split()[0]
        evaluate(EvalConfig(suite="medphys", model=spec, limit=30, run_dir=str(run_dir), quiet=True, label=label,
                            grade_inline=True))
        runs.append(str(run_dir))
    return runs


def shoot(runs: list[str], out: Path, work: Path) -> None:
    chromium, driver = find_browser()
    if chromium is None or driver is None:
        raise SystemExit("headless Chromium is not installed (make browser)")
    report = report_for(runs, figures=True)
    page = work / "report.html"
    page.write_text(render_html(report.sections, report.figures, report.doc["models"], report.captions),
                    encoding="utf-8")
    server = ViewerServer(ResponseIndex(load_runs(runs)), 0).start()
    try:
        for width in (1400, 1000):
            b = Browser(chromium, driver, str(work / f"profile-{width}"), width=width, height=1000)
            try:
                b.get(page.as_uri())
                (out / f"report-{width}.png").write_bytes(b.screenshot())
                b.get(server.url + "?kind=worksheet_check&response=40")
                b.wait_for(READY)
                b.wait_for("return document.querySelector('#detail h2') !== null")
                (out / f"viewer-{width}.png").write_bytes(b.screenshot())
            finally:
                b.close()
    finally:
        server.stop()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        given = sys.argv[1:] or demo_runs(Path(tmp))
        shoot(given, HERE, Path(tmp))
