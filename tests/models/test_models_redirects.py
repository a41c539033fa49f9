"""Model requests never follow redirects (issue 33, item 7): a 307 would re-post the whole prompt
to another origin and grade that server's reply; a 302 would GET any URL and put its body in the
run's errors. A redirect is an error naming its Location, not retried."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from physbench.core import Message
from physbench.models import ModelError
from physbench.models.openai_compat import OpenAIModel

REDIRECTS = ["301", "302", "303", "307", "308"]


def _call(model: OpenAIModel):  # noqa: ANN202
    async def go():  # noqa: ANN202
        try:
            return await model.generate((Message("user", "the prompt: secret item text"),))
        finally:
            await model.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("status", REDIRECTS)
def test_a_redirect_is_an_error_naming_its_location_and_the_other_origin_gets_nothing(mock_server, status):
    other = mock_server(record=True, reply="\\boxed{1.018 cGy/MU}")
    target = f"{other.base_url}/chat/completions"
    endpoint = mock_server(faults=[{"match": "", "sequence": [status]}], location=target)
    with pytest.raises(ModelError) as caught:
        _call(OpenAIModel("m", base_url=endpoint.base_url))
    assert caught.value.retryable is False
    assert f"HTTP {status}" in str(caught.value) and target in str(caught.value)
    assert other.bodies == [] and sum(other.requests.values()) == 0


def test_a_hostile_location_is_shown_as_one_printable_line(mock_server):
    location = "http://evil.example/\x1b[2J" + "x" * 500
    endpoint = mock_server(faults=[{"match": "", "sequence": ["302"]}], location=location)
    with pytest.raises(ModelError) as caught:
        _call(OpenAIModel("m", base_url=endpoint.base_url))
    text = str(caught.value)
    assert "\x1b" not in text and "\n" not in text and len(text) < 400


@pytest.mark.parametrize("status", ["302", "307"])
def test_eval_against_a_redirecting_endpoint_grades_nothing_from_the_other_origin(cli, mock_server, tmp_path, status):
    other = mock_server(record=True, reply="\\boxed{1.018 cGy/MU}")
    target = f"{other.base_url}/chat/completions"
    endpoint = mock_server(faults=[{"match": "", "sequence": [status]}], location=target)
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--limit", "2", "--model", "openai/m", "--base-url", endpoint.base_url,
            "--run-dir", str(run), "--retry-delay", "0.01", "--json")
    assert r.returncode == 1, r.stderr  # nothing graded: the run measured nothing
    assert other.bodies == [] and sum(other.requests.values()) == 0
    assert endpoint.requests[status] == 2  # one request per item: a redirect is not retried
    conn = sqlite3.connect(run / "store.sqlite")
    rows = conn.execute("SELECT status, errors_json FROM attempts").fetchall()
    conn.close()
    assert [s for s, _ in rows] == ["error", "error"]
    assert all(target in json.loads(e)[-1] and "redirect" in json.loads(e)[-1] for _, e in rows)
