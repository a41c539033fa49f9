"""Attempts that got no reply after their retries are technical failures with no credit in the
planning report (issue 33 item 5; OpenGray Table S8): 3 of 8 failing give 62.5% over 8 patients."""

from __future__ import annotations

import json

from physbench.report.loading import read_run
from physbench.suites.planning import report as R
from physbench.suites.planning.suite import DEV_PATIENTS

ESCALATE = json.dumps({"action": "escalate", "reason": "infeasible", "explanation": "The coverage goal exceeds the cap."})
FAILING = DEV_PATIENTS[:3]


def test_provider_failures_count_as_technical_failures_in_s10_and_s8(cli, mock_server, tmp_path):
    # a 401 is not retried: each of these three attempts ends without a reply
    server = mock_server(reply=ESCALATE, faults=[{"match": p, "sequence": ["401"]} for p in FAILING])
    run = tmp_path / "run"
    r = cli("eval", "planning", "--split", "dev", "--option", "system=interpreter", "--option", "family=coverage_cap",
            "--model", "openai/mock-interpreter", "--base-url", server.base_url, "--run-dir", str(run),
            "--max-attempts", "1", "--repeats", "1", "--quiet", "--json")
    assert r.returncode in (0, 1), r.stderr
    data = read_run(run)
    assert len({r.item.id for r in [*data.results, *data.failures]}) == 8
    notes: dict[str, str] = {}
    out = R.analyse([data], notes)
    s10 = out["runs"][0]["table_s10"]
    assert s10["patients"] == 8 and s10["primary"]["value"] == 62.5
    failures = out["runs"][0]["technical_failures"]
    assert failures["count"] == 3 and failures["of"] == 8
    assert {a["patient"] for a in failures["attempts"]} == set(FAILING)
    assert {a["failure"] for a in failures["attempts"]} == {"provider_error"}
    cell = out["families"][0]
    assert (cell["name"], cell["n"], cell["n_correct"]) == ("coverage_cap", 8, 5)


def test_planning_declares_the_papers_no_retry_policy():
    """OpenGray Table S16: no retries; a failed call is a technical failure (Table S8)."""
    from physbench.runner.retry import declared_retries
    from physbench.suites.planning.suite import SUITE

    policy = declared_retries(SUITE)
    assert policy is not None and policy.max_attempts == 1 and "S16" in policy.source
