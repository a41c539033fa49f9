"""`physbench grade`: grades a response file or stdin; bad input is one line on stderr, exit 2."""

import io
import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from physbench.cli import main

BOXED = "Working...\n\\boxed{1.018\\ \\text{cGy/MU}}\n"


@pytest.fixture
def _run(capsys, monkeypatch):
    """Run `physbench grade ARGS` in this process (the entry point's own code path)."""

    def run(*args, stdin=None):
        data = (stdin or "").encode()
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data), read=lambda: stdin or ""))
        with pytest.raises(SystemExit) as exc:
            main(["grade", *args])
        out = capsys.readouterr()
        return SimpleNamespace(returncode=exc.value.code, stdout=out.out, stderr=out.err)

    return run


def test_the_installed_entry_point_grades_stdin():
    r = subprocess.run([sys.executable, "-m", "physbench", "grade", "--reference", "1.018 cGy/MU", "--band",
                        "0.5%", "--json"], input=BOXED, capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["passed"] is True


def _fails_with_one_line(r):
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error:"), r.stderr


def test_calculation_from_a_file_prints_one_json_object(_run, tmp_path):
    f = tmp_path / "response.txt"
    f.write_text(BOXED)
    r = _run("--reference", "1.018 cGy/MU", "--band", "0.5%", "--json", str(f))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["passed"] is True and out["outcome"] == "correct"
    assert out["value"] == 1.018 and out["unit"] == "cGy/MU" and out["rel_error"] == 0.0


def test_stdin_and_band_as_fraction_or_percent_agree(_run):
    a = json.loads(_run("--reference", "1.018 cGy/MU", "--band", "0.005", "--json", "-", stdin=BOXED).stdout)
    b = json.loads(_run("--reference", "1.018 cGy/MU", "--band", "0.5%", "--json", stdin=BOXED).stdout)
    assert a == b


def test_wrong_answer_is_reported_not_an_error(_run):
    r = _run("--reference", "1.030 cGy/MU", "--band", "0.5%", "--json", stdin=BOXED)
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["passed"] is False and out["outcome"] == "wrong"
    assert out["rel_error"] == pytest.approx(0.012 / 1.03, rel=1e-6)


def test_plain_output_is_one_readable_line(_run):
    r = _run("--reference", "1.018 cGy/MU", "--band", "0.5%", stdin=BOXED)
    assert r.returncode == 0 and r.stdout.strip().startswith("correct") and "cGy/MU" in r.stdout


def test_worksheet_check_prints_verdict_step_and_corrected_result(_run):
    response = '{"verdict": "incorrect", "first_error_step": "Step 4", "corrected_result": "317 MU"}'
    r = _run("--reference", "317 MU", "--band", "1%", "--kind", "worksheet_check", "--planted",
             "--first-error-step", "4", "--json", stdin=response)
    out = json.loads(r.stdout)
    assert out["passed"] is True and out["verdict"] == "incorrect"
    assert out["first_error_step"] == 4 and out["corrected_passed"] is True
    for key in ("value", "unit", "rel_error", "outcome"):
        assert key in out


def test_result_check_without_verdict_is_unparsable(_run):
    r = _run("--reference", "317 MU", "--band", "1%", "--kind", "result_check", "--no-planted", "--json",
             stdin="I looked at it carefully. " * 30)
    out = json.loads(r.stdout)
    assert out["outcome"] == "unparsable" and out["verdict"] is None and out["corrected_passed"] is None


def test_finish_reason_length_marks_truncation(_run):
    r = _run("--reference", "1 Gy", "--band", "1%", "--finish-reason", "length", "--json",
             stdin="Working on it " * 40)
    assert json.loads(r.stdout)["outcome"] == "truncated"


@pytest.mark.parametrize("args", [
    ("--reference", "1.0 furlongs", "--band", "1%"),
    ("--reference", "one gray", "--band", "1%"),
    ("--reference", "1-2 Gy", "--band", "1%"),
    ("--reference", "1 Gy", "--band", "5"),
    ("--reference", "1 Gy", "--band", "-1%"),
    ("--reference", "1 Gy", "--band", "abc"),
    ("--reference", "1 Gy", "--band", "1%", "--kind", "essay"),
    ("--reference", "1 Gy", "--band", "1%", "--kind", "result_check"),
    ("--reference", "1 Gy", "--band", "1%", "--kind", "worksheet_check", "--planted"),
    ("--reference", "1 Gy", "--band", "1%", "--planted"),
    ("--reference", "1 Gy", "--band", "1%", "/no/such/file.txt"),
    ("--band", "1%"),
])
def test_bad_input_is_one_line_and_exit_2(_run, args):
    _fails_with_one_line(_run(*args, stdin=BOXED))


def test_oversized_input_is_refused(_run, tmp_path):
    f = tmp_path / "big.txt"
    f.write_bytes(b"x" * ((8 << 20) + 1))
    _fails_with_one_line(_run("--reference", "1 Gy", "--band", "1%", str(f)))


def test_hostile_response_is_graded_not_crashed(_run, tmp_path):
    f = tmp_path / "hostile.txt"
    f.write_bytes(b"\\boxed{" * 100_000 + b"\xff\xfe 9**9**9 m {{{{")
    r = _run("--reference", "1 m", "--band", "1%", "--json", str(f))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["passed"] is False


@pytest.mark.parametrize("band", ["0", "0%", "0.0", "100%", "150%"])
def test_a_band_outside_zero_to_one_hundred_percent_is_refused(_run, band):
    _fails_with_one_line(_run("--reference", "1.018 cGy/MU", "--band", band, stdin=BOXED))


def test_empty_binary_or_directory_input_is_refused_not_graded(_run, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    binary = tmp_path / "reply.bin"
    binary.write_bytes(b"\x7fELF\x00\x00\x01" * 10)
    for source in (str(empty), str(binary), str(tmp_path)):
        r = _run("--reference", "1 Gy", "--band", "1%", source)
        _fails_with_one_line(r)
    assert "directory" in _run("--reference", "1 Gy", "--band", "1%", str(tmp_path)).stderr
    _fails_with_one_line(_run("--reference", "1 Gy", "--band", "1%", stdin=""))


def test_a_reference_value_too_large_for_a_number_says_so_not_the_unit(cli):
    """Issue 36 item 8: '1e400 cGy' was blamed on its unit."""
    r = cli("grade", "--reference", "1e400 cGy", "--band", "1%", "-")
    assert r.returncode == 2 and "too large to be a number" in r.stderr and "unit" not in r.stderr
