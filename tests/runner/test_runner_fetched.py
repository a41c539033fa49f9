"""Fetched attempts: a one-call reply handed to the grading process unread, and read there.

What is stored must be what the event loop would have stored had it read the reply itself, and
a malformed reply must come back and be retried with the same accounting as any failed call.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

import pytest

from physbench.core.errors import UserError
from physbench.models.base import ModelError
from physbench.models.chat_json import read_completion
from physbench.models.pricing import Price
from physbench.runner import sink as sink_module
from physbench.runner.engine import Engine
from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.runner.pipe import FrameReceiver, FrameSender
from physbench.runner.progress import Tally
from physbench.runner.records import FETCHED, AttemptRecord
from physbench.runner.retry import RetryPolicy
from physbench.runner.sink import grade_batch
from physbench.runner.store import open_run
from test_runner_handoff import OneCall  # the one-call protocol's contract, declared

MALFORMED = b'{"choices": [{"message": {"content": "\\\\boxed{1'


def _body(text: str | None, *, extra: dict | None = None, usage: dict | None = None) -> bytes:
    message = {"role": "assistant", "content": text, **(extra or {})}
    return json.dumps({"choices": [{"message": message, "finish_reason": "stop"}],
                       "usage": usage or {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}).encode()


# by item: the body of each try (the last repeats); a ModelError is raised rather than returned
SCRIPTS: dict[str, list[bytes | ModelError]] = {
    "dev/calc/0": [_body("\\boxed{1.018 cGy/MU}")],
    "dev/calc/1": [MALFORMED, _body("\\boxed{2 MU}")],
    "dev/calc/2": [MALFORMED],  # never readable: the tries run out
    "dev/calc/3": [_body(None), b"[1, 2]", _body("\\boxed{2.0 Gy}")],  # null content, then not an object
    "dev/calc/4": [ModelError("HTTP 503: busy", retryable=True), _body("\\boxed{4 MBq h}")],
    "dev/calc/5": [_body("\\boxed{0.45 cm}", extra={"reasoning_content": "thought"},
                         usage={"prompt_tokens": 9, "completion_tokens": 4, "prompt_tokens_details": {"cached_tokens": 5}})],
    "dev/calc/6": [ModelError("HTTP 400: no", retryable=False)],
}


class Scripted:
    """A model with both `generate` and `fetch`, playing SCRIPTS (items not named answer at once)."""

    spec = "scripted-bodies"

    def __init__(self, price: Price | None) -> None:
        self.price = price
        self.tries: dict[str, int] = {}

    def _next(self, item) -> bytes:
        script = SCRIPTS.get(item.id, [_body("\\boxed{1 MU}")])
        n = self.tries[item.id] = self.tries.get(item.id, 0) + 1
        step = script[min(n, len(script)) - 1]
        if isinstance(step, ModelError):
            raise ModelError(str(step), retryable=step.retryable)
        return step

    async def fetch(self, messages, *, item=None, **params):
        await asyncio.sleep(0)
        return self._next(item), 0.25

    async def generate(self, messages, *, item=None, **params):
        body, latency = await self.fetch(messages, item=item, **params)
        return read_completion(body, latency, self.price)

    async def aclose(self) -> None:
        return None


class Keep:
    """Takes answered attempts as they are (the event loop read every reply)."""

    def __init__(self, suite) -> None:
        self.suite, self.rows = suite, []

    def submit(self, record: AttemptRecord) -> None:
        assert record.status != FETCHED
        self.rows.append(record.grade_with(self.suite).row())

    def close(self) -> int:
        return len(self.rows)


class Deferring(Keep):
    """ProcessSink's contract in this process: batches graded by `grade_batch` a loop turn later,
    and the verdict handed back through the callback given to `watch`."""

    defers = True
    failure = None

    def __init__(self, suite, items) -> None:
        super().__init__(suite)
        self.items, self.waiting, self.fetched, self.on_verdict = items, [], 0, None

    def watch(self, on_verdict) -> None:
        self.on_verdict = on_verdict

    def unwatch(self) -> None:
        self.on_verdict = None

    def submit(self, record: AttemptRecord) -> None:
        self.fetched += record.status == FETCHED
        if not self.waiting:
            asyncio.get_running_loop().call_soon(self.flush)
        self.waiting.append(record.wire())

    def flush(self) -> None:
        if not self.waiting:
            return
        rows, verdict = grade_batch(self.waiting, self.items, self.suite)
        self.waiting = []
        self.rows += rows
        if verdict is not None:
            self.on_verdict(*verdict)


def _run(suite, sink, price):
    items = list(suite.items("dev"))
    work = [(item, 0) for item in items]
    engine = Engine(model=Scripted(price), protocol=OneCall(), sink=sink, sampling={},
                    policy=RetryPolicy(max_attempts=3, base_delay_s=0.0))
    tally = Tally(total=len(work))
    asyncio.run(engine.run(work, concurrency=4, tally=tally))
    return sorted(row[:-2] for row in sink.rows), tally  # all but the timestamps


@pytest.mark.parametrize("price", [None, Price(2.0, 8.0, 0.5)], ids=["no-price", "priced"])
def test_fetched_attempts_are_stored_as_if_the_event_loop_had_read_each_reply(suite, price):
    items = {item.id: item for item in suite.items("dev")}
    deferring = Deferring(suite, items)
    fetched_rows, fetched_tally = _run(suite, deferring, price)
    read_rows, read_tally = _run(suite, Keep(suite), price)
    assert deferring.fetched >= len(items) - 2  # every first try that got a body went unread
    assert fetched_rows == read_rows
    assert (fetched_tally.done, fetched_tally.errors, fetched_tally.tokens) == \
        (read_tally.done, read_tally.errors, read_tally.tokens)
    by_id = {row[0]: row for row in fetched_rows}
    # (status, text, ..., tries, errors): columns as runner/store.py lays them out
    assert by_id["dev/calc/1"][2] == "done" and by_id["dev/calc/1"][13] == 2
    assert json.loads(by_id["dev/calc/1"][14])[0].startswith("malformed JSON")
    assert by_id["dev/calc/2"][2] == "error" and by_id["dev/calc/2"][13] == 3
    assert [e[:13] for e in json.loads(by_id["dev/calc/2"][14])] == ["malformed JSO"] * 3
    assert json.loads(by_id["dev/calc/3"][14]) == ["message content is null and there are no tool calls",
                                                   "response body is not a JSON object"]
    assert by_id["dev/calc/6"][2] == "error" and by_id["dev/calc/6"][13] == 1
    assert json.loads(by_id["dev/calc/5"][16]) == [{"reasoning_content": "thought"}]
    assert (by_id["dev/calc/5"][10] is None) == (price is None)
    assert by_id["dev/calc/0"][11] == 0.25  # the call's latency, measured where the reply arrived


def test_a_batch_answers_for_its_fetched_attempts_and_stores_none_it_could_not_read(suite):
    items = {item.id: item for item in suite.items("dev")}
    ok, bad, plain = (items["dev/calc/0"], items["dev/calc/1"], items["dev/calc/2"])
    wires = [AttemptRecord(ok, 0, FETCHED, 1.0, 2.0, latency=0.1, model_calls=1, tries=1,
                           body=_body("\\boxed{1.018 cGy/MU}")).wire(),
             AttemptRecord(bad, 1, FETCHED, 3.0, 4.0, latency=0.1, model_calls=1, tries=1, body=MALFORMED).wire(),
             AttemptRecord(plain, 0, "answered", 5.0, 6.0, "\\boxed{2 MU}", "stop", {"prompt_tokens": 1}).wire()]
    rows, verdict = grade_batch(wires, items, suite)
    assert [(r[0], r[2]) for r in rows] == [("dev/calc/0", "done"), ("dev/calc/2", "done")]
    read, tokens, retry = verdict
    assert (read, tokens) == (2, 10)
    assert [(i, r, s, retryable) for i, r, s, _, retryable in retry] == [("dev/calc/1", 1, 3.0, True)]
    assert retry[0][3].startswith("malformed JSON body")
    assert grade_batch(wires[2:], items, suite)[1] is None  # nothing fetched: nothing to answer


def _config(server, run_dir, **kw) -> EvalConfig:
    base = dict(suite="fixture", model="openai/mock", base_url=server.base_url, run_dir=str(run_dir),
                concurrency=4, quiet=True, retry_delay_s=0.01, timeout_s=5.0, max_attempts=3)
    return EvalConfig(**{**base, **kw})


def _stored(run_dir) -> list[tuple]:
    with open_run(run_dir) as reader:
        records = list(reader.results()) + list(reader.failures())
    return sorted((r.item.id, r.status, r.text, r.usage, r.cost, r.tries, r.errors,
                   None if r.grade is None else r.grade.outcome) for r in records)


def test_a_forked_run_stores_what_an_inline_run_stores_when_replies_are_malformed(mock_server, tmp_path):
    faults = [{"match": "dev/calc/1:", "sequence": ["malformed", "malformed", "ok"]},
              {"match": "dev/calc/2:", "sequence": ["malformed"]},
              {"match": "dev/result_check/2:", "sequence": ["empty"]}]
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({"mock": {"input": 1.5, "output": 6.0}}))
    runs = {}
    for inline in (True, False):
        server = mock_server(faults=faults)
        run_dir = tmp_path / f"run-{inline}"
        result = evaluate(_config(server, run_dir, grade_inline=inline, price_table=str(table)))
        assert result.status == "completed"
        runs[inline] = _stored(run_dir)
    assert runs[False] == runs[True]
    by_id = {r[0]: r for r in runs[False]}
    assert by_id["dev/calc/1"][1] == "done" and by_id["dev/calc/1"][5] == 3
    assert by_id["dev/calc/2"][1] == "error" and len(by_id["dev/calc/2"][6]) == 3
    assert all(r[4] is not None and r[4] > 0 for r in runs[False] if r[1] == "done")


@pytest.mark.timeout(60)
def test_a_grading_process_that_dies_while_the_runner_awaits_its_verdicts_fails_the_run(mock_server, tmp_path,
                                                                                        monkeypatch, suite):
    """The last batch kills the grading process: the runner, with nothing left to ask, is waiting
    for verdicts, and must hear of the death (its pipe closing) rather than wait for ever."""
    last = list(suite.items("dev"))[-1].id
    real = sink_module.grade_batch

    def dying(wires, items, suite_):
        if any(w[0] == last for w in wires):
            os._exit(7)
        return real(wires, items, suite_)

    monkeypatch.setattr(sink_module, "grade_batch", dying)  # the grading process is forked with it
    server = mock_server()
    start = time.monotonic()
    with pytest.raises(UserError, match="grading process"):
        evaluate(_config(server, tmp_path / "run", grade_inline=False, concurrency=1))
    assert time.monotonic() - start < 30


def test_the_event_loop_end_of_a_pipe_hands_out_whole_frames_without_waiting():
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    receiver, sender = FrameReceiver(read_fd), FrameSender(write_fd)
    assert receiver.ready() == []  # nothing yet, and no wait
    sender.send(b"one")
    sender.send(b"two")
    os.write(write_fd, b"\x00\x00\x00\x05thr")  # a frame cut short: kept for the next call
    assert receiver.ready() == [b"one", b"two"]
    os.write(write_fd, b"ee")
    assert receiver.ready() == [b"three"]
    sender.close(sentinel=False)
    assert receiver.ready() is None  # closed, and nothing left
    receiver.close()


def test_a_reader_that_raises_makes_the_fetched_attempt_an_error_row_not_a_retry(suite, monkeypatch):
    from physbench.runner import records

    def broken(body, latency, price):
        raise KeyError("a bug in the reader")

    monkeypatch.setattr(records, "read_completion", broken)
    item = next(iter(suite.items("dev")))
    record = AttemptRecord(item, 0, FETCHED, 1.0, 2.0, latency=0.1, model_calls=1, tries=1, body=_body("x"))
    assert record.read_body() is None
    assert (record.status, record.errors, record.body) == ("error", ["KeyError: 'a bug in the reader'"], None)
    assert record.row()[2] == "error"
