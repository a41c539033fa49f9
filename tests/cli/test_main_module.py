"""`python -m physbench` ends without the interpreter's teardown: its output, exit code and exit
handlers must be exactly those of a normal exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import physbench

SRC = str(Path(physbench.__file__).resolve().parents[1])


def _run(*args: str, stdin: str = "", cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cache is not None:
        env.update(PHYSBENCH_CACHE_DIR=str(cache), PHYSBENCH_CACHE="1")
    return subprocess.run([sys.executable, "-m", "physbench", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120)


def test_a_long_json_output_arrives_whole_and_the_exit_code_is_zero(cli):
    proc = _run("medphys", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(cli("medphys", "list", "--json").stdout)


def test_bad_input_is_still_one_line_and_exit_2():
    proc = _run("eval", "no-such-suite")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "unknown suite" in proc.stderr


def test_exit_handlers_still_run(tmp_path):
    """The unit table is saved by an exit handler: it must be on disk after a grade."""
    proc = _run("grade", "--reference", "1 Gy", "--band", "5%", "-", stdin="The dose is \\boxed{100 cGy}.",
                cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert list(tmp_path.glob("unit-table-*.json"))


def test_the_console_script_gets_the_same_process_set_up():
    """`physbench` (what the README runs) and `python -m physbench` start through one function."""
    from importlib.metadata import entry_points

    from physbench import launch

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "physbench"]
    assert script.load() is launch.run
    proc = subprocess.run([str(Path(sys.executable).with_name("physbench")), "eval", "no-such-suite"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "unknown suite" in proc.stderr
