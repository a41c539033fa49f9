"""The hand-off from the event loop to the grading process, and the row each attempt becomes."""

from __future__ import annotations

import asyncio
import gc
import json
import math
import sqlite3

import pytest
from hypothesis import given, strategies as st

from physbench.models.base import Completion, ModelError
from physbench.protocols import Answer
from physbench.runner.engine import Engine
from physbench.runner.evaluate import EvalConfig, evaluate
from physbench.runner.progress import Tally
from physbench.runner.records import AttemptRecord, usage_json
from physbench.runner.sink import decode_batch, encode_batch
from physbench.runner.store import STORE_NAME


class Odd(str):
    """A str subclass, which marshal refuses."""


def _wire(item, extras=None) -> tuple:
    record = AttemptRecord(item, 0, "answered", 1.0, 2.0, "\\boxed{1 MU}", "stop", {"prompt_tokens": 2}, None, 0.5,
                           1, 1, [], None, extras)
    return record.wire()


def test_batches_round_trip_as_marshal_and_fall_back_to_pickle_for_other_types(suite):
    item = list(suite.items("dev"))[0]
    plain = [_wire(item), _wire(item, [{"reasoning_content": "why", "n": [1, 2.5, None, True]}])]
    data = encode_batch(plain)
    assert data[:1] == b"M" and decode_batch(data) == plain
    odd = [_wire(item, [{"note": Odd("kept")}])]
    data = encode_batch(odd)
    assert data[:1] == b"P" and decode_batch(data) == odd
    with pytest.raises(ValueError):
        decode_batch(b"Xjunk")


@given(st.dictionaries(st.sampled_from(["prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens"]),
                       st.integers(-2**70, 2**70) | st.booleans() | st.floats(allow_nan=False)))
def test_usage_json_is_what_json_dumps_writes(usage):
    """json.dumps(usage) exactly, for every value a store can hold; else strict JSON with the
    integer clamped into 64 bits and a non-finite number as null (runner/storable.py)."""
    storable = all(type(v) is bool or (type(v) is int and -2**63 <= v < 2**63) or (type(v) is float and math.isfinite(v))
                   for v in usage.values())
    out = usage_json(usage)
    if storable:
        assert out == json.dumps(usage)
        return

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in stored usage")

    back = json.loads(out, parse_constant=refuse)
    assert back.keys() == usage.keys()
    for key, value in usage.items():
        if type(value) is int:
            assert back[key] == min(max(value, -2**63), 2**63 - 1)
        elif type(value) is float and not math.isfinite(value):
            assert back[key] is None


class Mixed:
    """By item: answers at once, after a transient failure, never (permanent error), raises a bug,
    or returns something that is not a Completion."""

    spec = "mixed"

    def __init__(self) -> None:
        self.tried: set[str] = set()

    async def generate(self, messages, *, item=None, **params):
        first = item.id not in self.tried
        self.tried.add(item.id)
        if item.id == "dev/calc/1":
            raise KeyError("a bug in the model")
        if item.id == "dev/calc/2":
            raise ModelError("HTTP 400: bad request", retryable=False)
        if item.id == "dev/calc/3":
            return "not a completion"
        if first and item.id.endswith(("0", "5")):
            raise ModelError("HTTP 503: busy", retryable=True)
        extras = {"reasoning_content": "r"} if item.id.endswith("4") else None
        return Completion(f"\\boxed{{{len(messages)} MU}}", {"prompt_tokens": 4, "completion_tokens": 1,
                                                              "total_tokens": 5}, "stop", 0.01, extras=extras)

    async def aclose(self) -> None:
        return None


class OneCall:
    """The direct protocol's contract, declared: the runner may skip run()."""

    name = "one-call"
    one_call = True

    async def run(self, item, ask):
        raise AssertionError("a one-call protocol's run() is not needed")


class Plain:
    """The same single call through run()."""

    name = "plain"

    async def run(self, item, ask):
        completion = await ask(item.messages)
        return Answer(completion.text, completion.finish_reason)


class Keep:
    def __init__(self) -> None:
        self.records: list[AttemptRecord] = []

    def submit(self, record: AttemptRecord) -> None:
        self.records.append(record)

    def close(self) -> int:
        return len(self.records)


def _records(suite, protocol) -> list[tuple]:
    from physbench.runner.retry import RetryPolicy

    sink = Keep()
    engine = Engine(model=Mixed(), protocol=protocol, sink=sink, sampling={}, policy=RetryPolicy(base_delay_s=0.0))
    work = [(item, 0) for item in suite.items("dev")]
    asyncio.run(engine.run(work, concurrency=3, tally=Tally(total=len(work))))
    return sorted((r.item.id, r.status, r.text, r.finish_reason, r.usage, r.model_calls, r.tries, r.errors, r.raw,
                   r.turns) for r in sink.records)


def test_a_one_call_protocol_is_run_by_the_engine_with_the_same_retries_and_accounting(suite):
    fast, through_run = _records(suite, OneCall()), _records(suite, Plain())
    assert fast == through_run
    by_id = {r[0]: r for r in fast}
    assert by_id["dev/calc/0"][1:] == ("answered", "\\boxed{2 MU}", "stop",
                                       {"prompt_tokens": 4, "completion_tokens": 1, "total_tokens": 5}, 1, 2,
                                       ["HTTP 503: busy"], None, None)
    assert by_id["dev/calc/4"][5:] == (1, 1, [], [{"reasoning_content": "r"}], None)
    assert by_id["dev/calc/1"][1] == "error" and by_id["dev/calc/1"][5:8] == (1, 1, ["KeyError: 'a bug in the model'"])
    assert by_id["dev/calc/2"][1] == "error" and by_id["dev/calc/2"][7] == ["HTTP 400: bad request"]
    assert by_id["dev/calc/3"][1] == "error" and by_id["dev/calc/3"][7][0].startswith("AttributeError")


@pytest.mark.parametrize("inline", [True, False], ids=["inline-grading", "forked-grading"])
def test_a_run_leaves_the_garbage_collector_as_it_found_it_and_stores_each_item_s_json(mock_server, tmp_path,
                                                                                      inline):
    server = mock_server()
    before = gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()
    config = EvalConfig(suite="fixture", model="openai/mock", base_url=server.base_url, run_dir=str(tmp_path / "r"),
                        concurrency=4, quiet=True, grade_inline=inline)
    evaluate(config)
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before
    from fixture_suite import SUITE

    expected = {item.id: item.to_json() for item in SUITE.items("dev")}
    conn = sqlite3.connect(tmp_path / "r" / STORE_NAME)
    rows = conn.execute("SELECT item_id, item_json FROM items").fetchall()  # each item's JSON once, not per attempt
    assert len(rows) == len(expected) and all(text == expected[item_id] for item_id, text in rows)
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == len(expected)


def test_a_run_in_a_process_that_froze_its_imports_leaves_them_frozen(tmp_path):
    """`python -m physbench` freezes what its imports made; a run adds its items to the frozen set
    and restores the thresholds, but never unfreezes what it did not freeze."""
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        threshold = gc.get_threshold()
        evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(tmp_path / "r"), quiet=True,
                            grade_inline=True))
        # frozen objects that die leave the count, so it may shrink a little; unfreeze() would empty it
        assert gc.get_freeze_count() > before // 2 and gc.get_threshold() == threshold
    finally:
        gc.unfreeze()
