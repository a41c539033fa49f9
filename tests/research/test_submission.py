"""CritPt's grading server: `research submission` writes the official batch, complete or refused with
what is missing; `research submit` posts it to a loopback stand-in that enforces complete batches,
a daily limit and its error replies, and keeps the metrics beside the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physbench.core.errors import UserError
from physbench.suites.research.importer import import_release
from physbench.suites.research.submission import RESULTS_FILE, build_batch, post_batch
from tests.research.critpt_fixture import write_release
from tests.research.critpt_server import CritPtServer

IDS = {"Challenge_1_main", "Challenge_2_main", "Challenge_3_main"}


@pytest.fixture
def run(cli, tmp_path) -> Path:
    """An oracle run, two repeats, over three private test challenges (answers unknown)."""
    data = write_release(tmp_path / "data", n_private=3)
    (data / "example" / "two_level.ipynb").unlink()
    import_release(data, tmp_path / "problems")
    r = cli("eval", "research", "--model", "oracle", "--option", f"problems={tmp_path / 'problems'}",
            "--repeats", "2", "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outcomes"]["ungraded"] == 6
    return tmp_path / "run"


def test_the_submission_has_every_official_id_in_every_repeat_with_the_official_fields(cli, run, tmp_path):
    r = cli("research", "submission", str(run), "--out", str(tmp_path / "sub.json"))
    assert r.returncode == 0, r.stderr
    payload = json.loads((tmp_path / "sub.json").read_text())
    rows = payload["submissions"]
    assert sorted(s["problem_id"] for s in rows) == sorted(list(IDS) * 2)
    for s in rows:
        assert set(s) == {"problem_id", "generated_code", "model", "generation_config", "messages"}
        assert s["model"] == "oracle" and "def answer" in s["generated_code"]
        cfg = s["generation_config"]
        assert cfg["parsing"] is False and cfg["use_golden_for_prev_steps"] is False and cfg["epoch"] in (0, 1)
        roles = [m["role"] for m in s["messages"]]
        assert roles == ["system", "user", "assistant", "user", "assistant"]  # solve, then the formatting turn
        assert s["messages"][-1]["content"] == s["generated_code"]


def test_an_incomplete_run_is_refused_listing_what_is_missing(cli, tmp_path):
    data = write_release(tmp_path / "data", n_private=3)
    import_release(data, tmp_path / "problems")
    r = cli("eval", "research", "--model", "oracle", "--option", f"problems={tmp_path / 'problems'}",
            "--limit", "2", "--repeats", "1", "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 0, r.stderr
    r = cli("research", "submission", str(tmp_path / "run"), "--out", str(tmp_path / "sub.json"))
    assert r.returncode == 2 and not (tmp_path / "sub.json").exists()
    assert "submission refused: 2 rows missing" in r.stderr and "Challenge_3_main (repeat 0): no graded attempt" \
        in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_submit_posts_the_batch_and_keeps_the_metrics_with_the_run(cli, run, monkeypatch):
    monkeypatch.setenv("CRITPT_KEY", "k-test")
    with CritPtServer(IDS, score=lambda s: s["problem_id"] == "Challenge_1_main") as server:
        r = cli("research", "submit", str(run), "--api-key-env", "CRITPT_KEY", "--url", server.url, "--json")
        assert r.returncode == 0, r.stderr
        assert len(server.bodies[0]["submissions"]) == 6 and "batch_metadata" in server.bodies[0]
    record = json.loads((run / RESULTS_FILE).read_text().splitlines()[-1])
    assert record["metrics"]["accuracy"] == pytest.approx(2 / 6) and record["n_submissions"] == 6
    assert "k-test" not in r.stdout + (run / RESULTS_FILE).read_text()


def test_the_servers_refusals_are_one_line_each(run):
    batch = build_batch(run).payload
    with CritPtServer(IDS, daily_limit=1) as server:
        with pytest.raises(UserError, match=r"HTTP 401\): Invalid or missing API key"):
            post_batch(batch, server.url, "wrong")
        partial = dict(batch, submissions=batch["submissions"][:-1])
        with pytest.raises(UserError, match=r"HTTP 400\): Incomplete batch"):
            post_batch(partial, server.url, "k-test")
        assert post_batch(batch, server.url, "k-test")["accuracy"] == 0.0
        with pytest.raises(UserError, match=r"HTTP 429\): Daily limit"):
            post_batch(batch, server.url, "k-test")


def test_a_redirect_is_not_followed_and_the_key_goes_only_over_https_or_loopback(run):
    batch = build_batch(run).payload
    with CritPtServer(IDS, redirect_to="http://127.0.0.1:9/elsewhere") as server:
        with pytest.raises(UserError, match="redirected \\(307\\) to http://127.0.0.1:9/elsewhere"):
            post_batch(batch, server.url, "k-test")
        assert len(server.bodies) == 1
    with pytest.raises(UserError, match="only over https"):
        post_batch(batch, "http://example.org/evaluate", "k-test")


def test_submit_without_the_key_variable_is_one_line(cli, run, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    r = cli("research", "submit", str(run), "--api-key-env", "NO_SUCH_KEY_VAR", "--url", "http://127.0.0.1:9/x")
    assert r.returncode == 2 and "NO_SUCH_KEY_VAR" in r.stderr and not (run / RESULTS_FILE).exists()
