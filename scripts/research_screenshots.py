"""Make the research report and viewer screenshots in docs/screenshots/ (issue 37 item 6).

Two scripted "models" on the loopback mock server answer CritPt's example challenge (two-step) and its
checkpoints (self and oracle carryover), 5 repeats each, with reasoning efforts and a price table, so
that Tables 3, 4 and 6 have mixed k/5 cells, tokens by kind and costs. Some formatting replies are cut
short on purpose (the mock's `length` fault), so not every run is correct. Then headless Chromium
(chromedriver) takes the report and the viewer at 1400 and 1000 px.

    PYTHONPATH=src python scripts/research_screenshots.py OUT_DIR [--docs docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from physbench.runner.mock_server import MockConfig, MockServer
from physbench.suites.research.oracle import oracle_code
from physbench.suites.research.suite import SUITE

ROOT = Path(__file__).resolve().parents[1]
# a substring of each formatting turn's template that no other step's template holds
TEMPLATE_KEYS = {"checkpoint-3": "Return the expression of the logical state fidelity",  # the challenge's too
                 "checkpoint-2": "Return the expression of logical state fidelity",
                 "checkpoint-1": "Return the expression of the physical state fidelity"}
# per formatting request of each step, in the order they arrive (O: answered, L: cut short); the last repeats
PATTERNS = {"checkpoint-1": "O", "checkpoint-2": "OLOOLOOOLOLLOLLOLLLO", "checkpoint-3": "LOLLOOLOLLOOOLOLLLOLLOLLLOLLLL"}
CUTS = {k: ["ok" if c == "O" else "length" for c in v] for k, v in PATTERNS.items()}
SOLVE = ("We count the weight-one Pauli faults of each two-qubit gate. A fault is **undetected** when it commutes "
         "with both stabilisers $X^{\\otimes 4}$ and $Z^{\\otimes 4}$, so to second order\n\n"
         "$$F_{\\mathrm{logical}} = 1 - \\frac{16}{25}p^2 + O(p^3)$$\n\n"
         "```python\nimport sympy as sp\np = sp.symbols('p')\nF = 1 - sp.Rational(16, 25) * p**2\n```\n\n"
         "Final Answer: $F = 1 - \\frac{16}{25}p^2$")


def mock_config() -> MockConfig:
    problem = SUITE.problems("critpt-example")["quantum_error_correction"]
    replies = [(TEMPLATE_KEYS[s.id], oracle_code(s)) for s in reversed(problem.checkpoints)]
    faults = [{"match": TEMPLATE_KEYS[k], "sequence": seq} for k, seq in CUTS.items()]
    return MockConfig.from_dict({"reply": SOLVE, "faults": faults,
                                 "replies": [{"match": m, "reply": r} for m, r in replies]})


def make_runs(out: Path) -> list[Path]:
    prices = out / "prices.json"
    prices.write_text(json.dumps({"demo-a": {"input": 1.25, "output": 10.0, "cached_input": 0.125},
                                  "demo-b": {"input": 0.3, "output": 2.5}}))
    runs = []
    with MockServer(mock_config()) as server:
        for model, effort in (("openai/demo-a", "high"), ("openai/demo-b", "low")):
            for protocol in ("two-step", "checkpoints-self", "checkpoints-oracle"):
                run = out / "runs" / f"{model.split('/')[1]}-{protocol}"
                cmd = [sys.executable, "-m", "physbench", "eval", "research", "--model", model, "--base-url",
                       server.base_url, "--protocol", protocol, "--option", "problems=critpt-example",
                       "--reasoning-effort", effort, "--price-table", str(prices), "--run-dir", str(run), "--quiet"]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                runs.append(run)
    return runs


def shoot(out: Path, runs: list[Path], docs: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "report"))
    from report_webdriver import Browser, find_browser

    from physbench.report.loading import load_runs
    from physbench.report.viewer import ViewerServer
    from physbench.report.viewer_data import ResponseIndex

    subprocess.run([sys.executable, "-m", "physbench", "report", *map(str, runs), "--out", str(out / "report")],
                   check=True, stdout=subprocess.DEVNULL)
    chromium, driver = find_browser()
    if not (chromium and driver):
        raise SystemExit("needs chromium and chromedriver (make browser)")
    server = ViewerServer(ResponseIndex(load_runs(runs))).start()
    try:
        for width in (1400, 1000):
            browser = Browser(chromium, driver, str(out / f"profile-{width}"), width=width, height=1500)
            try:
                browser.get((out / "report" / "report.html").resolve().as_uri())
                browser.script("document.getElementById('research').scrollIntoView()")
                (docs / f"research-report-{width}.png").write_bytes(browser.screenshot())
                browser.get(server.url)
                browser.wait_for("return document.body.dataset.state === 'ready'")
                select = "document.getElementById('f-step')"
                browser.script(f"{select}.value = 'checkpoint-2'; {select}.dispatchEvent(new Event('change'));")
                browser.wait_for("return document.body.dataset.state === 'ready' && "
                                 "document.querySelectorAll('#rows tr').length > 0")
                rows = browser.find_all("#rows tr")
                browser.click(rows[len(rows) // 2 + 1])
                browser.wait_for("return document.querySelectorAll('#detail .katex').length > 0")
                time.sleep(0.5)  # fonts
                browser.script("window.scrollTo(0, 0); document.getElementById('list').scrollLeft = 0")
                (docs / f"research-viewer-{width}.png").write_bytes(browser.screenshot())
                browser.script("const d = document.getElementById('detail'); "
                               "const t = Array.from(d.querySelectorAll('h3')).find(h => h.textContent.includes('2. model'));"
                               "d.scrollTop = t.getBoundingClientRect().top - d.getBoundingClientRect().top + d.scrollTop - 8;"
                               "window.scrollTo(0, 0)")
                (docs / f"research-viewer-turns-{width}.png").write_bytes(browser.screenshot())
                print(f"{width} px: done")
            finally:
                browser.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = sorted((args.out / "runs").glob("*")) or make_runs(args.out)
    shoot(args.out, runs, args.docs)


if __name__ == "__main__":
    main()
