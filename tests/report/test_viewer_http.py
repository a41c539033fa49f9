"""The viewer's HTTP side: the JSON API, its filters, escaping of hostile text, and what it refuses."""

from __future__ import annotations

import json

import httpx
import pytest

from physbench.report.loading import load_runs
from physbench.report.viewer import ViewerServer
from physbench.report.viewer_data import ResponseIndex

MODE = "mode:isocentric_isq_omitted"


@pytest.fixture(scope="module")
def server(dev_runs):
    index = ResponseIndex(load_runs([dev_runs["oracle"], dev_runs["mode"], dev_runs["hostile"]]))
    srv = ViewerServer(index, 0).start()
    yield srv
    srv.stop()


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.url, timeout=10.0) as client:
        yield client


def test_the_server_listens_on_loopback_only(server):
    assert server.server_address[0] == "127.0.0.1" and server.url.startswith("http://127.0.0.1:")


def test_meta_lists_runs_and_every_filter_value(http):
    meta = http.get("/api/meta").json()
    assert meta["total"] == 600 + 600 + 12 and [r["responses"] for r in meta["runs"]] == [600, 600, 12]
    facets = meta["facets"]
    assert facets["model"][:2] == ["oracle", MODE] and "<img src=x" in facets["model"][2]
    assert facets["level"] == ["1", "2", "3"] and set(facets["kind"]) == {"calculation", "worksheet_check",
                                                                          "result_check"}
    assert len(facets["generator"]) == 10 and {"correct", "wrong"} <= set(facets["outcome"])


def test_filters_combine_and_rows_carry_the_parsed_value_and_attribution(http):
    page = http.get("/api/responses", params={"model": MODE, "kind": "calculation", "outcome": "wrong"}).json()
    assert page["matched"] == 10 and len(page["rows"]) == 10
    row = page["rows"][0]
    assert row["generator"] == "mu" and row["level"] == "3" and row["answer"].endswith(" MU")
    assert row["attributed"] == ["isocentric_isq_omitted"] and row["passed"] is False
    level1 = http.get("/api/responses", params={"level": "1", "model": "oracle", "limit": 500}).json()
    assert level1["matched"] == 200 and {r["level"] for r in level1["rows"]} == {"1"}
    paged = http.get("/api/responses", params={"offset": 1200, "limit": 50}).json()
    assert paged["matched"] == 1212 and len(paged["rows"]) == 12


def test_a_response_detail_holds_item_reference_grade_and_attribution(http):
    (row,) = http.get("/api/responses", params={"model": MODE, "kind": "calculation", "outcome": "wrong",
                                                "limit": 1}).json()["rows"]
    d = http.get(f"/api/responses/{row['id']}").json()
    assert [m["role"] for m in d["messages"]] == ["system", "user"] and "isocenter" in d["messages"][1]["text"]
    assert d["reference"]["unit"] == "MU" and d["grade"]["outcome"] == "wrong"
    assert d["parsed"]["in_reference_unit"] == pytest.approx(d["parsed"]["value"])
    assert d["attributed"][0]["mode"] == "isocentric_isq_omitted"
    assert d["attributed"][0]["value"] == pytest.approx(d["parsed"]["value"], rel=1e-5)


def test_hostile_text_leaves_the_api_as_escaped_json_and_every_answer_forbids_foreign_code(http):
    page = http.get("/api/responses", params={"kind": "calculation", "limit": 500, "offset": 600})  # the last 4
    assert "<" not in page.text and ">" not in page.text and "\\u003cimg src=x" in page.text
    rows = page.json()["rows"]
    assert rows[0]["model"].startswith("constant:$\\frac{1}{$ <img src=x")  # a label cut short (issue 36)
    full = next(r["full_label"] for r in http.get("/api/meta").json()["runs"] if r["label"] == rows[0]["model"])
    assert '<img src=x onerror="window.__pwned=1">' in full
    detail = http.get(f"/api/responses/{rows[0]['id']}")
    assert "<" not in detail.text
    assert "<script>window.__pwned=2</script>" in detail.json()["response"]["text"]
    for r in (page, detail, http.get("/"), http.get("/app.js")):
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    assert page.headers["content-type"].startswith("application/json")
    script = http.get("/app.js").text
    assert "innerHTML" not in script and "textContent" in script


def test_the_page_loads_only_its_own_script_and_style(http):
    page = http.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'src="/app.js"' in page.text and 'href="/app.css"' in page.text and "http" not in page.text.replace(
        'http-equiv', '')


@pytest.mark.parametrize("path, status", [
    ("/api/responses/999999", 404), ("/api/responses/-1", 404), ("/api/responses/abc", 404), ("/nothing", 404),
    ("/api/responses?limit=ten", 400), ("/api/responses?offset=-5", 400), ("/" + "a" * 5000, 414),
])
def test_bad_requests_get_a_json_error(http, path, status):
    r = http.get(path)
    assert r.status_code == status and "error" in r.json()


def test_writes_and_foreign_hosts_are_refused(http):
    assert http.post("/api/meta", content=b"{}").status_code == 405
    assert http.delete("/api/responses/1").status_code == 405
    rebound = http.get("/api/meta", headers={"Host": "attacker.example:80"})
    assert rebound.status_code == 421 and json.loads(rebound.text)["error"] == "unexpected Host header"


def test_filters_with_unknown_names_or_values_match_nothing_or_are_ignored(http):
    assert http.get("/api/responses", params={"model": "no such model"}).json()["matched"] == 0
    assert http.get("/api/responses", params={"colour": "red"}).json()["matched"] == 1212
