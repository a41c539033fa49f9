"""The scheduler: bounded concurrency, per-attempt parameters, and every outcome handed on."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from physbench.models.base import Completion
from physbench.protocols import get_protocol
from physbench.runner.engine import Engine
from physbench.runner.manifest import Manifest
from physbench.runner.progress import Tally
from physbench.runner.sink import InlineSink
from physbench.runner.store import STORE_NAME, RunStore


class Probe:
    """Answers after a short sleep; records concurrency and the parameters it was given."""

    spec = "probe"

    def __init__(self, attempt_aware: bool = False, max_concurrency: int | None = None, fail_on: str = ""):
        self.attempt_aware = attempt_aware
        if max_concurrency is not None:
            self.max_concurrency = max_concurrency
        self.fail_on = fail_on
        self.in_flight = self.peak = 0
        self.params: list[dict] = []

    async def generate(self, messages, *, item=None, **params):
        self.params.append(params)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(0.002)
            if self.fail_on and item.id == self.fail_on:
                raise KeyError("a bug in the model")
            return Completion("\\boxed{1 MU}", {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3},
                              "stop", 0.002, extras={"reasoning_content": "because"})
        finally:
            self.in_flight -= 1


def _run(tmp_path, suite, model, concurrency, repeats=1, seed=None):
    items = list(suite.items("dev"))
    store = RunStore(tmp_path)
    store.write_manifest(Manifest(suite="fixture", split="dev", protocol="direct", model_spec="probe", sampling={},
                                  repeats=repeats, n_items=len(items), item_set_hash="x"))
    engine = Engine(model=model, protocol=get_protocol("direct"), sink=InlineSink(suite, store),
                    sampling={"temperature": 0.5, "max_tokens": None}, seed=seed)
    work = [(i, r) for r in range(repeats) for i in items]
    tally = asyncio.run(engine.run(work, concurrency=concurrency, tally=Tally(total=len(work))))
    store.close()
    return tally, sqlite3.connect(tmp_path / STORE_NAME)


def test_concurrency_is_bounded_and_used(tmp_path, suite):
    model = Probe()
    tally, _ = _run(tmp_path, suite, model, concurrency=3)
    assert model.peak == 3 and tally.done == 12 and tally.errors == 0 and tally.tokens == 36


def test_a_model_that_serves_one_at_a_time_gets_one_at_a_time(tmp_path, suite):
    model = Probe(max_concurrency=1)
    _run(tmp_path, suite, model, concurrency=16)
    assert model.peak == 1


def test_parameters_carry_sampling_a_seed_per_attempt_and_the_repeat_when_asked(tmp_path, suite):
    model = Probe(attempt_aware=True)
    _run(tmp_path, suite, model, concurrency=4, repeats=2, seed=11)
    assert all(p["temperature"] == 0.5 and "max_tokens" not in p for p in model.params)
    assert {p["repeat"] for p in model.params} == {0, 1}
    assert len({p["seed"] for p in model.params}) == 24
    plain = Probe()
    _run(tmp_path / "b", suite, plain, concurrency=4)
    assert all("repeat" not in p and "seed" not in p for p in plain.params)


def test_a_model_bug_is_an_error_row_and_extras_are_stored(tmp_path, suite):
    tally, conn = _run(tmp_path, suite, Probe(fail_on="dev/calc/3"), concurrency=4)
    assert tally.errors == 1 and tally.done == 11
    errors = conn.execute("SELECT errors_json FROM attempts WHERE status = 'error'").fetchall()
    assert errors == [(json.dumps(["KeyError: 'a bug in the model'"]),)]
    raw = conn.execute("SELECT raw_json FROM attempts WHERE item_id = 'dev/calc/0'").fetchone()[0]
    assert json.loads(raw) == [{"reasoning_content": "because"}]

