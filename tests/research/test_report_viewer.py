"""The research viewer (issue 37 item 6): filters by problem, step and repeat; every turn shown in order,
later checkpoint prompts and carryover text included; KaTeX served from the package (offline) and math
drawn in headless Chromium without ever running script; code left as code."""

from __future__ import annotations

import http.client
import json
import sys
from pathlib import Path

import pytest

from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
from report_webdriver import Browser, find_browser  # noqa: E402

CHROMIUM, CHROMEDRIVER = find_browser()
EX = ("--option", "problems=critpt-example")


def _eval(cli, run, *args):
    r = cli("eval", "research", *args, "--run-dir", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    return str(run)


@pytest.fixture(scope="module")
def checkpoint_runs(tmp_path_factory):
    from physbench.runner.evaluate import EvalConfig, evaluate

    base = tmp_path_factory.mktemp("research-viewer")
    out = {}
    for protocol in ("checkpoints-self", "checkpoints-oracle", "checkpoints-oracle-multiturn"):
        evaluate(EvalConfig(suite="research", model="oracle", protocol=protocol, repeats=2, quiet=True,
                            run_dir=str(base / protocol), item_options=(("problems", "critpt-example"),)))
        out[protocol] = str(base / protocol)
    return out


def _conversation(index, row_id):
    return [b for b in index.detail(row_id)["blocks"] if "text" in b]


def test_filters_by_problem_step_and_repeat(checkpoint_runs):
    index = ResponseIndex(load_runs(checkpoint_runs.values()))
    meta = index.meta()
    assert {"problem", "step", "repeat"} <= set(meta["filters"])
    assert meta["facets"]["step"] == ["checkpoint-1", "checkpoint-2", "checkpoint-3"]
    assert meta["facets"]["repeat"] == ["1", "2"]
    assert index.query({"step": "checkpoint-2"})["matched"] == 6  # each attempt answers every checkpoint
    assert index.query({"step": "checkpoint-2", "repeat": "2"})["matched"] == 3
    assert index.query({"step": "challenge"})["matched"] == 0
    assert index.query({"problem": "quantum_error_correction", "repeat": "1"})["matched"] == 3


def test_every_turn_is_shown_with_later_prompts_and_carryover(checkpoint_runs):
    from physbench.suites.research.suite import SUITE

    index = ResponseIndex(load_runs(checkpoint_runs.values()))
    by_kind = {e.result.item.kind: e.index for e in index.entries if e.result.repeat == 0}
    problem = SUITE.problems("critpt-example")["quantum_error_correction"]
    second_question = problem.checkpoints[1].question.strip()[:80]

    self_blocks = _conversation(index, by_kind["checkpoints-self"])
    titles = [b["title"] for b in self_blocks]
    assert len([t for t in titles if "user" in t]) == 6 and len([t for t in titles if "model" in t]) == 6
    second = next(b for b in self_blocks if b["title"].endswith("user → checkpoint-2:solve"))
    assert second_question in second["text"]
    fmt = next(b for b in self_blocks if b["title"].endswith("user → checkpoint-2:format"))
    assert "```" in fmt["text"] or "def answer" in fmt["text"]  # the template of the formatting turn

    multi = _conversation(index, by_kind["checkpoints-oracle-multiturn"])
    carried = next(b for b in multi if b["title"].endswith("user → checkpoint-2:solve"))
    expected = problem.checkpoints[0].answer_text
    assert expected and expected.strip()[:40] in carried["text"]  # the expert answer heads the next turn
    assert carried["text"].index(expected.strip()[:40]) < carried["text"].index(second_question)

    alone = _conversation(index, by_kind["checkpoints-oracle"])
    third = next(b for b in alone if b["title"].endswith("user → checkpoint-3:solve"))
    assert problem.setup.strip()[:60] in third["text"] and expected.strip()[:40] in third["text"]


def test_katex_and_the_math_script_are_served_from_the_package(checkpoint_runs):
    server = ViewerServer(ResponseIndex(load_runs(checkpoint_runs.values()))).start()
    try:
        def get(path):
            conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
            conn.request("GET", path)
            resp = conn.getresponse()
            return resp.status, resp.getheader("Content-Type"), resp.getheader("Content-Security-Policy"), resp.read()

        status, ctype, csp, page = get("/")
        assert status == 200 and b"/vendor/katex/katex.min.js" in page and b"/math.js" in page
        assert "font-src 'self'" in csp and "unsafe" not in csp
        status, ctype, _, body = get("/vendor/katex/katex.min.js")
        assert status == 200 and ctype.startswith("text/javascript") and b"katex" in body[:2000].lower()
        status, ctype, _, body = get("/vendor/katex/fonts/KaTeX_Main-Regular.woff2")
        assert status == 200 and ctype == "font/woff2" and body[:4] == b"wOF2"
        css = get("/vendor/katex/katex.min.css")[3].decode()
        assert ".woff2" in css and ".ttf" not in css  # every font the style names is served
        for bad in ("/vendor/katex/../viewer.py", "/vendor/katex/LICENSE", "/vendor/katex/fonts/x.woff2"):
            assert get(bad)[0] == 404
    finally:
        server.stop()


MATH_REPLY = ("constant:The fidelity is $F = 1 - \\frac{16}{25}p^2$ and\n\n$$E = mc^2$$\n\n"
              "```python\nlabel = '$not math$'\n```\n\n"
              "A link: $\\href{javascript:window.__pwned=1}{click}$ and $\\htmlId{x}{y}$ and "
              "$\\url{javascript:window.__pwned=2}$.\n\nA price of $5 and $6 is text. "
              "Broken: $\\frac{1}{2$ ends.\n\n" + "$" * 3000 + " $y$" * 500)


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="needs chromium and chromedriver (make browser)")
def test_math_is_drawn_code_stays_code_and_no_tex_runs_script(cli, tmp_path):
    run = _eval(cli, tmp_path / "m", "--model", MATH_REPLY, *EX, "--repeats", "1")
    server = ViewerServer(ResponseIndex(load_runs([run]))).start()
    browser = Browser(CHROMIUM, CHROMEDRIVER, str(tmp_path / "profile"))
    try:
        browser.get(server.url)
        browser.wait_for("return document.body.dataset.state === 'ready'")
        browser.click(browser.find_all("#rows tr")[0])
        browser.wait_for("return document.querySelectorAll('#detail .katex').length >= 2")
        found = browser.script("""
            const d = document.getElementById('detail');
            return {katex: d.querySelectorAll('.katex').length, display: d.querySelectorAll('.katex-display').length,
                    links: d.querySelectorAll('a').length, ids: d.querySelectorAll('#x').length,
                    pre: Array.from(d.querySelectorAll('pre')).map(p => p.textContent).join('|'),
                    pwned: window.__pwned || 0, errors: Array.from(d.querySelectorAll('.katex-error, .math-error'))
                      .map(e => e.textContent), text: d.textContent};""")
        assert found["katex"] >= 2 and found["display"] >= 1
        assert any("\\frac{1}{2" in e for e in found["errors"])  # a TeX error is shown as its source
        assert found["katex"] <= 400 + 10 and "$y$" in found["text"]  # bounded work: the rest stays text
        assert found["links"] == 0 and found["ids"] == 0 and found["pwned"] == 0
        assert "label = '$not math$'" in found["pre"]  # code is shown as code, never drawn
        assert not browser.alert_open()
    finally:
        browser.close()
        server.stop()


def test_the_math_splitter_leaves_prices_escapes_and_code_alone(tmp_path):
    """The splitter's rules, run in Node when it is installed (the browser test covers it otherwise)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("needs node")
    script = Path(__file__).resolve().parents[2] / "src" / "physbench" / "report" / "viewer_math.js"
    harness = ("globalThis.window = {}; globalThis.document = {readyState: 'loading', addEventListener() {}};"
               "globalThis.performance = {now: () => 0};"
               f"require({json.dumps(str(script))});"
               "const s = window.physbenchMath.split;"
               "console.log(JSON.stringify([s('costs $5 and $6'), s('a $x^2$ b'), s('\\\\$x$ y'),"
               " s('$$a\\nb$$'), s('\\\\(z\\\\) and \\\\[w\\\\]'), s('$ x$'),"
               " s('is: $ F_{\\\\rm{a}}=1 $'), s('$...$ and $$...$$')]));")
    out = subprocess.run([node, "-e", harness], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    prices, inline, escaped, display, parens, spaced, critpt, dots = json.loads(out.stdout)
    assert prices == [{"text": "costs $5 and $6"}]
    assert inline == [{"text": "a "}, {"tex": "x^2", "display": False}, {"text": " b"}]
    assert all("tex" not in p for p in escaped)
    assert display == [{"tex": "a\nb", "display": True}]
    assert [p.get("tex") for p in parens if "tex" in p] == ["z", "w"]
    assert spaced == [{"text": "$ x$"}]
    assert critpt == [{"text": "is: "}, {"tex": " F_{\\rm{a}}=1 ", "display": False}]  # CritPt's spaced answers
    assert dots == [{"text": "$...$ and $$...$$"}]  # a prompt naming the delimiters names no formula


def test_tool_calls_show_their_code_and_output_between_the_turns(cli, tmp_path, mock_server):
    from physbench.suites.research.problem import shipped_dir
    from physbench.suites.research.report_viewer import conversation_blocks

    filled = "```python\nimport sympy as sp\n\ndef answer(p):\n    return p\n```"
    call = {"tool_calls": [{"name": "python", "arguments": {"code": "x = 6 * 7\nprint(x)"}}]}
    d = json.loads((shipped_dir() / "qed_422_depolarising.json").read_text())
    d["challenge"]["question"] += "\nmock-script: " + json.dumps([call, "Final Answer: $p$"])
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "qed.json").write_text(json.dumps(d))
    (tmp_path / "wording.json").write_text(json.dumps({"format": "mock-script: " + json.dumps([filled]) + "\n{template}"}))
    server = mock_server()
    run = _eval(cli, tmp_path / "run", "--model", "openai/mock", "--base-url", server.base_url, "--protocol", "agent",
                "--option", f"problems={tmp_path / 'set'}", "--option", f"prompts={tmp_path / 'wording.json'}",
                "--repeats", "1")
    (entry,) = ResponseIndex(load_runs([run])).entries
    blocks = conversation_blocks(entry.result)
    titles = [b["title"].split(" (")[0] for b in blocks]  # without the finish reason and tokens
    assert titles[:3] == ["1. model · turn-1", "1. tool call · python", "2. model · turn-2"]
    tool = blocks[1]["text"]
    assert tool.startswith("```python\nx = 6 * 7\nprint(x)\n```") and "42" in tool.split("output:")[1]
    assert titles[3] == "3. user → format" and "def answer" in blocks[3]["text"]  # the formatting turn's prompt
