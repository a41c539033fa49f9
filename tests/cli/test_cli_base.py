"""The command line's contract: bad input is one line on stderr and exit code 2."""

import subprocess
import sys


def _run(*args):
    return subprocess.run([sys.executable, "-m", "physbench", *args], capture_output=True, text=True)


def test_version_prints_and_exits_zero():
    r = _run("--version")
    assert r.returncode == 0 and r.stdout.startswith("physbench ")


def test_unknown_command_is_one_line_and_exit_2():
    r = _run("no-such-command")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("physbench: error:")
