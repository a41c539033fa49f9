"""`physbench sandbox run FILE`: exit 0 for any program status, 2 for a bad invocation."""

from __future__ import annotations

import json
import subprocess
import sys


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "physbench", "sandbox", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


def test_run_prints_json_result(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text("from datetime import date, timedelta\n"
                    "def due(y, m, d):\n    return date(y, m, d) + timedelta(days=280)\n")
    r = _cli("run", str(prog), "--call", "due", "--args", "[2024, 1, 31]", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "ok" and out["value"] == "2024-11-06"
    assert set(out) == {"status", "value", "error", "wall_s", "cpu_s", "max_rss_mb", "output"}


def test_failing_program_still_exits_zero(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text("def solve():\n    return ().__class__\n")
    r = _cli("run", str(prog))
    assert r.returncode == 0
    assert r.stdout.startswith("status: rejected")


def test_scientific_policy_from_stdin():
    r = _cli("run", "-", "--policy", "scientific", "--json",
             stdin="import numpy as np\ndef solve():\n    return float(np.sqrt(2.0))\n")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == 2 ** 0.5


def test_bad_invocations_are_one_line_and_exit_2(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text("def solve():\n    return 1\n")
    binary = tmp_path / "b.py"
    binary.write_bytes(b"\xff\xfe\x00")
    for args in (["run", str(tmp_path / "missing.py")], ["run", str(prog), "--policy", "lenient"],
                 ["run", str(prog), "--call", "__init__"], ["run", str(prog), "--args", "{not json"],
                 ["run", str(binary)], ["run"]):
        r = _cli(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
        assert r.stdout == ""


def test_layers_command_json():
    r = _cli("layers", "--json")
    assert r.returncode == 0
    layers = json.loads(r.stdout)
    assert layers["static_checks"]["active"] is True and "seccomp" in layers
