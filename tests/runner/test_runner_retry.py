"""Retries: backoff with jitter, Retry-After honoured, permanent errors not retried, accounting."""

from __future__ import annotations

import asyncio

from hypothesis import given, strategies as st

from physbench.core import Message
from physbench.models.base import Completion, ModelError
from physbench.models.openai_compat import parse_retry_after
from physbench.runner.retry import AttemptFailed, CallLedger, RetryPolicy


@given(st.integers(1, 30), st.floats(0, 1))
def test_backoff_delay_lies_between_half_and_all_of_the_capped_exponential(failures, u):
    p = RetryPolicy(base_delay_s=1.0, max_delay_s=60.0)
    cap = min(60.0, 2.0 ** (failures - 1))
    assert cap / 2 <= p.delay(failures, None, rng=lambda: u) <= cap


def test_retry_after_is_a_floor_but_capped():
    p = RetryPolicy(base_delay_s=0.1, max_retry_after_s=30.0)
    assert p.delay(1, 7.0, rng=lambda: 0.0) == 7.0
    assert p.delay(1, 1e9, rng=lambda: 0.0) == 30.0


def test_retry_after_parses_seconds_and_http_dates():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
    assert parse_retry_after("-5") == 0.0


class Scripted:
    """Raises the given errors in order, then answers."""

    spec = "scripted"

    def __init__(self, errors):
        self.errors = list(errors)
        self.calls = 0

    async def generate(self, messages, *, item=None, **params):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return Completion("ok", {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}, "stop", 0.5)


def _ledger(model, max_attempts=6):
    waits: list[float] = []

    async def sleep(s):
        waits.append(s)

    return CallLedger(model, None, {}, RetryPolicy(max_attempts=max_attempts, base_delay_s=0.5), sleep=sleep), waits


def test_transient_errors_are_retried_until_an_answer_and_all_are_recorded():
    model = Scripted([ModelError("HTTP 429", retryable=True, retry_after=2.0), ModelError("timeout", retryable=True)])
    ledger, waits = _ledger(model)
    out = asyncio.run(ledger([Message("user", "q")]))
    assert out.text == "ok" and model.calls == 3 and ledger.tries == 3 and ledger.calls == 1
    assert ledger.errors == ["HTTP 429", "timeout"]
    assert waits[0] >= 2.0 and len(waits) == 2
    assert ledger.usage == {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


def test_a_permanent_error_fails_at_once():
    model = Scripted([ModelError("HTTP 400: bad", retryable=False)])
    ledger, waits = _ledger(model)
    try:
        asyncio.run(ledger([Message("user", "q")]))
    except AttemptFailed as exc:
        assert exc.errors == ["HTTP 400: bad"]
    else:
        raise AssertionError("expected AttemptFailed")
    assert model.calls == 1 and waits == []


def test_retries_stop_after_max_attempts():
    model = Scripted([ModelError("HTTP 503", retryable=True)] * 10)
    ledger, waits = _ledger(model, max_attempts=3)
    try:
        asyncio.run(ledger([Message("user", "q")]))
    except AttemptFailed as exc:
        assert len(exc.errors) == 3
    else:
        raise AssertionError("expected AttemptFailed")
    assert model.calls == 3 and len(waits) == 2
