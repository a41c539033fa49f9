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


def test_json_is_strict_and_text_escapes_terminal_controls(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text('def solve():\n    print("\\x1b]0;pwned\\x07\\x1b[2J\\u202e")\n'
                    '    return [float("nan"), float("-inf")]\n')
    r = _cli("run", str(prog), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    assert out["value"] == ["NaN", "-Infinity"]
    r = _cli("run", str(prog))
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\u202e" not in r.stdout
    assert "\\x1b]0;pwned" in r.stdout


def test_missing_layer_is_one_line_exit_2_unless_insecure(tmp_path):
    import os

    prog = tmp_path / "p.py"
    prog.write_text("def solve():\n    return 1\n")
    env = dict(os.environ, PHYSBENCH_SANDBOX_DISABLE="landlock")
    r = subprocess.run([sys.executable, "-m", "physbench", "sandbox", "run", str(prog)], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "landlock" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "physbench", "sandbox", "run", str(prog), "--json",
                        "--insecure-allow-missing-layers"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == 1
