"""`physbench eval`: the summary, --json, resuming, and one clear line (exit 2) for every bad input."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

LAUNCH = Path(__file__).resolve().parents[1] / "runner" / "launch.py"  # the CLI with the fixture suite registered
sys.path.insert(0, str(LAUNCH.parent))

import fixture_suite  # noqa: E402,F401  (registers the suite "fixture" in this process too)

from physbench.cli import main  # noqa: E402


def _eval(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LAUNCH), "eval", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def _main(capsys, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in this process (faster than a subprocess); exit code, stdout and stderr as a subprocess gives them."""
    with pytest.raises(SystemExit) as exit_:
        main(["eval", *args])
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["physbench", "eval", *args], exit_.value.code, out.out, out.err)


def _one_error_line(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: "), r.stderr
    return lines[0]


def test_eval_prints_a_summary_and_json_then_resumes_without_regrading(tmp_path):
    run = tmp_path / "run"
    r = _eval("fixture", "--model", "oracle", "--run-dir", str(run))
    assert r.returncode == 0, r.stderr
    assert "accuracy 100.0 (73.5–100.0) % (12/12 graded, exact 95% CI)" in r.stdout
    assert "outcomes: correct 12" in r.stdout and "wall time" in r.stdout and "tokens:" in r.stdout

    again = _eval("fixture", "--model", "oracle", "--run-dir", str(run), "--json")
    assert again.returncode == 0, again.stderr
    doc = json.loads(again.stdout)
    assert (doc["attempted"], doc["skipped"], doc["n_done"], doc["status"]) == (0, 12, 12, "completed")
    assert {"run_id", "model", "suite", "n_items", "n_done", "n_correct", "accuracy", "ci_low", "ci_high",
            "outcomes"} <= doc.keys()
    conn = sqlite3.connect(run / "store.sqlite")
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 12


def test_the_default_run_dir_is_under_runs_named_by_suite_and_model(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _main(capsys, "fixture", "--model", "constant:\\boxed{1 MU}", "--limit", "2", "--quiet")
    assert r.returncode == 0, r.stderr
    (run,) = (tmp_path / "runs").iterdir()
    assert run.name.startswith("fixture-constant-boxed-1-MU-") and (run / "store.sqlite").is_file()


def test_two_default_runs_in_one_second_get_two_run_dirs(tmp_path, capsys, monkeypatch):
    """Issue 16: README commands run back to back collided in one timestamped folder."""
    import importlib

    evaluate = importlib.import_module("physbench.runner.evaluate")  # the package exports a function of that name

    class Frozen(evaluate.datetime):
        @classmethod
        def now(cls, tz=None):
            return evaluate.datetime(2026, 1, 2, 3, 4, 5)

    monkeypatch.setattr(evaluate, "datetime", Frozen)
    monkeypatch.chdir(tmp_path)
    for limit in ("2", "3"):
        r = _main(capsys, "fixture", "--model", "oracle", "--limit", limit, "--quiet")
        assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert names == ["fixture-oracle-20260102-030405", "fixture-oracle-20260102-030405-2"]


@pytest.mark.parametrize("args, words", [
    (["nosuch"], "unknown suite 'nosuch'"),
    (["fixture", "--model", "gpt"], "unknown model spec 'gpt'"),
    (["fixture", "--split", "test"], "--split test needs --key-file"),
    (["fixture", "--model", "local", "--base-url", "http://x"], "--base-url applies to openai/NAME models only"),
    (["fixture", "--model", "oracle", "--limit", "0"], "--limit must be at least 1"),
    (["fixture", "--model", "oracle", "--protocol", "chat"], "unknown protocol 'chat'"),
    (["fixture", "--model", "replay:/nonexistent.jsonl"], "cannot read replay file"),
    (["fixture", "--split", "train", "--model", "oracle"], "fixture suite has no split 'train'"),
])
def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(tmp_path, capsys, args, words):
    line = _one_error_line(_main(capsys, *args, "--run-dir", str(tmp_path / "run")))
    assert words in line
    assert not (tmp_path / "run").exists()


def test_bad_input_from_the_installed_command_is_one_line_too(tmp_path):
    r = subprocess.run([sys.executable, "-m", "physbench", "eval", "nosuch-suite"], capture_output=True, text=True,
                       timeout=120)
    assert "unknown suite 'nosuch-suite'" in _one_error_line(r)


def test_a_run_dir_holding_another_run_is_refused_untouched(tmp_path, capsys):
    run = tmp_path / "run"
    assert _main(capsys, "fixture", "--model", "oracle", "--run-dir", str(run), "--quiet").returncode == 0
    before = (run / "store.sqlite").read_bytes()
    line = _one_error_line(_main(capsys, "fixture", "--model", "constant:x", "--run-dir", str(run)))
    assert "holds a different run" in line and "model_spec: 'oracle' stored, 'constant:x' now" in line
    line = _one_error_line(_main(capsys, "fixture", "--model", "oracle", "--limit", "3", "--run-dir", str(run)))
    assert "the items differ (another --limit" in line and "--benchmark-version" in line
    assert (run / "store.sqlite").read_bytes() == before


def test_the_test_split_key_and_its_path_never_reach_output_or_store(tmp_path, capsys):
    secret = "K3Y-" + os.urandom(8).hex()
    key_file = tmp_path / f"keydir-{os.urandom(4).hex()}" / "test.key"
    key_file.parent.mkdir()
    key_file.write_text(secret)
    run = tmp_path / "run"
    r = _main(capsys, "fixture", "--split", "test", "--key-file", str(key_file), "--model", "oracle", "--run-dir",
              str(run), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["n_done"] == 12
    blobs = [r.stdout, r.stderr] + [p.read_bytes().decode("latin-1") for p in run.iterdir() if p.is_file()]
    for blob in blobs:
        assert secret not in blob and key_file.parent.name not in blob
    missing = _one_error_line(_main(capsys, "fixture", "--split", "test", "--key-file", str(tmp_path / "nokey"),
                                    "--model", "oracle", "--run-dir", str(tmp_path / "r2")))
    # issue 36 item 8: the error names the path the user gave and why (never the key)
    assert f"--key-file {str(tmp_path / 'nokey')!r}: cannot read it (no such file or directory)" in missing


def test_a_hex_key_file_is_decoded_and_a_raw_one_kept():
    from physbench.cli.eval_cmd import normalise_key

    raw = bytes(range(32))
    assert normalise_key(raw) == raw
    assert normalise_key(raw.hex().encode() + b"\n") == raw
    assert normalise_key(b"not hex at all\n") == b"not hex at all\n"


def test_eval_of_the_medphys_test_split_uses_the_items_its_own_split_command_lists(tmp_path, capsys):
    try:
        from physbench.suites.medphys.splits import heldout_items, read_key
    except ImportError as exc:
        pytest.skip(f"medphys suite not available: {exc}")
    key_file = tmp_path / "k"
    key_file.write_text(os.urandom(32).hex() + "\n")
    r = _main(capsys, "medphys", "--split", "test", "--key-file", str(key_file), "--model", "oracle", "--limit", "4",
              "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(tmp_path / "run" / "store.sqlite") as conn:
        ids = [row[0] for row in conn.execute("SELECT item_id FROM attempts ORDER BY id")]
    from physbench.suites.medphys.suite import SUITE

    expected = SUITE.items("test", key=read_key(key_file), limit=4)
    assert sorted(ids) == sorted(i.id for i in expected)
    assert {i.id for i in expected} <= {i.id for i in heldout_items(read_key(key_file))}


def test_a_replay_file_answering_none_of_the_items_is_refused_before_the_run(tmp_path, capsys):
    """Issue 36 item 8: it used to make a run and record an error per attempt."""
    replay = tmp_path / "replies.jsonl"
    replay.write_text(json.dumps({"id": "not-an-item-of-this-suite", "response": "1 MU"}) + "\n")
    r = _main(capsys, "fixture", "--model", f"replay:{replay}", "--limit", "2", "--max-attempts", "1",
              "--run-dir", str(tmp_path / "run"), "--quiet")
    line = _one_error_line(r)
    assert "answers none of the 2 items of this run" in line and "not-an-item-of-this-suite" in line
    assert not (tmp_path / "run").exists()


def test_a_run_where_no_attempt_got_a_response_says_why_and_exits_non_zero(tmp_path, capsys, mock_server):
    server = mock_server(faults=[{"match": "messages", "sequence": ["400"]}])  # every chat request refused
    r = _main(capsys, "fixture", "--model", "openai/mock", "--base-url", server.base_url, "--limit", "2",
              "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "2 attempts got no response; the most frequent error: HTTP 400" in r.stdout
    assert "fix that cause, then re-run the same command" in r.stdout


def test_a_replay_file_that_misses_some_items_records_those_as_errors(tmp_path, capsys):
    replay = tmp_path / "replies.jsonl"
    replay.write_text(json.dumps({"id": "dev/calc/0", "response": "1 MU"}) + "\n")  # one item of the run
    r = _main(capsys, "fixture", "--model", f"replay:{replay}", "--limit", "3", "--max-attempts", "1",
              "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert "2 attempts got no response; the most frequent error: " in r.stdout and "dev/calc/" in r.stdout
    assert "re-run the same command to retry them" not in r.stdout  # a replay file does not fill itself in


def test_an_unknown_model_lists_the_suites_own_models_too(capsys):
    line = _one_error_line(_main(capsys, "medphys", "--model", "gpt-4", "--limit", "1"))
    assert "oracle" in line and "nocalc" in line and "mode:NAME" in line
