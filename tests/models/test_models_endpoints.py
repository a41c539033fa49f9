"""The endpoint pool on its own: per-endpoint limits, fail-over, cool-down and probe, no retry on 401."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.models.base import Completion, ModelError
from physbench.models.endpoints import EndpointPool, failing, merge_counts
from physbench.models.factory import ModelOptions, make_model
from physbench.models.openai_compat import OpenAIModel

MESSAGES = (Message("user", "hello"),)


class FakeEndpoint:
    """Stands in for one OpenAIModel: answers after `delay_s`, or raises the errors queued in `fail`."""

    spec, name = "openai/m", "m"

    def __init__(self, url: str, delay_s: float = 0.0) -> None:
        self.base_url, self.delay_s = url, delay_s
        self.fail: list[ModelError] = []
        self.in_flight = self.most_in_flight = self.calls = 0

    async def generate(self, messages: Any, **params: Any) -> Completion:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay_s)
            if self.fail:
                raise self.fail.pop(0)
            return Completion(f"from {self.base_url}")
        finally:
            self.in_flight -= 1

    def info(self) -> dict[str, Any]:
        return {"kind": "openai", "name": self.name}

    async def aclose(self) -> None:
        pass


def _fault() -> ModelError:
    return ModelError("HTTP 503: busy", retryable=True, endpoint_fault=True)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_requests_spread_over_endpoints_never_exceeding_the_per_endpoint_limit():
    fakes = [FakeEndpoint(f"http://h{i}/v1", delay_s=0.01) for i in range(3)]
    pool = EndpointPool(fakes, concurrency=2)  # type: ignore[arg-type]

    async def main() -> list[Completion]:
        return await asyncio.gather(*(pool.generate(MESSAGES) for _ in range(30)))

    replies = asyncio.run(main())
    assert len(replies) == 30 and pool.total_concurrency == 6
    assert all(f.most_in_flight == 2 for f in fakes) and sum(f.calls for f in fakes) == 30
    assert [c["requests"] for c in pool.counts()] == [f.calls for f in fakes]


def test_a_server_fault_fails_over_at_once_and_the_endpoint_returns_after_a_probe():
    clock = Clock()
    a, b = FakeEndpoint("http://a/v1"), FakeEndpoint("http://b/v1")
    pool = EndpointPool([a, b], concurrency=1, cool_down_s=2.0, clock=clock)  # type: ignore[list-item]
    a.fail = [_fault()]

    async def ask() -> str:
        return (await pool.generate(MESSAGES)).text

    assert asyncio.run(ask()) == "from http://b/v1"  # a faulted; the same request went to b
    counts = {c["url"]: c for c in pool.counts()}
    assert counts["http://a/v1"]["failures"] == 1 and not counts["http://a/v1"]["in_rotation"]
    assert [asyncio.run(ask()) for _ in range(3)] == ["from http://b/v1"] * 3  # a is cooling down
    clock.now += 2.0
    a.fail = [_fault()]  # the probe fails: out again, for twice as long
    assert asyncio.run(ask()) == "from http://b/v1"
    clock.now += 2.0
    assert asyncio.run(ask()) == "from http://b/v1"  # 4 s this time
    clock.now += 2.0
    assert asyncio.run(ask()) == "from http://a/v1"  # the probe answered: back in rotation
    assert pool.counts()[0]["in_rotation"] and a.calls == 3


def test_when_every_endpoint_faults_the_request_fails_retryably_with_the_wait():
    clock = Clock()
    a, b = FakeEndpoint("http://a/v1"), FakeEndpoint("http://b/v1")
    pool = EndpointPool([a, b], concurrency=1, cool_down_s=3.0, clock=clock)  # type: ignore[list-item]
    a.fail, b.fail = [_fault()], [_fault()]
    with pytest.raises(ModelError) as err:
        asyncio.run(pool.generate(MESSAGES))
    assert err.value.retryable and err.value.retry_after == pytest.approx(3.0)
    assert "every endpoint failed this request" in str(err.value) and "HTTP 503" in str(err.value)


def test_a_401_is_not_retried_on_another_endpoint_nor_takes_the_endpoint_out():
    a, b = FakeEndpoint("http://a/v1"), FakeEndpoint("http://b/v1")
    pool = EndpointPool([a, b], concurrency=1)  # type: ignore[list-item]
    a.fail = [ModelError("HTTP 401: bad key", retryable=False)]
    with pytest.raises(ModelError) as err:
        asyncio.run(pool.generate(MESSAGES))
    assert not err.value.retryable and b.calls == 0
    assert pool.counts()[0] == {"url": "http://a/v1", "requests": 1, "failures": 1, "in_rotation": True,
                                "last_error": "HTTP 401: bad key"}


def test_http_faults_are_classified_for_the_pool(mock_server):
    server = mock_server(faults=[{"match": "five", "sequence": ["500"]}, {"match": "four", "sequence": ["401"]},
                                 {"match": "rate", "sequence": ["429"]}])
    model = OpenAIModel("m", base_url=server.base_url, timeout_s=5.0)

    async def ask(text: str) -> None:
        try:
            await model.generate((Message("user", text),))
        finally:
            await model.aclose()

    for text, expected in [("five", True), ("four", False), ("rate", False)]:
        with pytest.raises(ModelError) as err:
            asyncio.run(ask(text))
        assert err.value.endpoint_fault is expected, text


def test_the_factory_makes_a_pool_only_for_several_urls():
    one = make_model("openai/m", options=ModelOptions(base_url=("http://127.0.0.1:1/v1",)))
    assert isinstance(one, OpenAIModel)
    pool = make_model("openai/m", options=ModelOptions(base_url=("http://127.0.0.1:2/v1", "http://127.0.0.1:1/v1"),
                                                       concurrency=5))
    assert isinstance(pool, EndpointPool) and pool.total_concurrency == 10
    assert pool.base_url == "http://127.0.0.1:1/v1, http://127.0.0.1:2/v1"
    assert [e["url"] for e in pool.info()["endpoints"]] == ["http://127.0.0.1:2/v1", "http://127.0.0.1:1/v1"]
    with pytest.raises(UserError, match="given twice"):
        make_model("openai/m", options=ModelOptions(base_url=("http://127.0.0.1:1/v1", "http://127.0.0.1:1/v1/")))


def test_counts_add_up_over_sessions_and_the_latest_says_whether_in_rotation():
    first = [{"url": "u1", "requests": 5, "failures": 5, "in_rotation": False, "last_error": "HTTP 500"},
             {"url": "u2", "requests": 7, "failures": 0, "in_rotation": True, "last_error": None}]
    second = [{"url": "u1", "requests": 1, "failures": 0, "in_rotation": True, "last_error": None},
              {"url": "u2", "requests": 4, "failures": 1, "in_rotation": True, "last_error": "timeout"}]
    merged = merge_counts(first, second)
    assert [(e["requests"], e["failures"], e["in_rotation"]) for e in merged] == [(6, 5, True), (11, 1, True)]
    assert failing(first) == [first[0]] and failing(merged) == []
