"""`physbench eval` as a function: items, model and store in; a stored, summarised run out.

Everything the user can get wrong (suite, split, key, model spec, options, a run directory
that holds another run) is checked before the first row is written.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import signal
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from physbench.core.errors import UserError
from physbench.core.hashing import item_set_hash
from physbench.core.registry import get_suite
from physbench.runner.model_check import checked_model
from physbench.runner.stopping import Stopper
from physbench.protocols import calls_model, check_model_spec, get_protocol
from physbench.runner.engine import Engine
from physbench.runner.eval_config import (EvalConfig, EvalResult,  # noqa: F401  (EvalConfig, EvalResult: re-exported)
                                          _check_options, _check_price_table, reasoning_sampling)
from physbench.runner.manifest import Manifest, git_revision
from physbench.runner.progress import Tally, make_progress
from physbench.runner.retry import DEFAULT_MAX_ATTEMPTS, RetryPolicy, declared_retries
from physbench.runner.results import failed_keys
from physbench.runner.sink import ProcessSink, forking, make_sink
from physbench.runner.store import STORE_NAME, RunStore, open_run


def _item_options(suite: Any, c: EvalConfig) -> dict[str, str]:
    """The `--option` pairs, each a name the suite lists in `item_options`; a UserError otherwise."""
    known = tuple(getattr(suite, "item_options", ()) or ())
    defaults = getattr(suite, "default_item_options", None)  # what the chosen protocol implies
    out: dict[str, str] = dict(defaults(str(c.protocol).split(":", 1)[0])) if callable(defaults) else {}
    for name, value in c.item_options:
        if name not in known:
            listed = ", ".join(known) if known else "none"
            raise UserError(f"suite {c.suite!r} has no item option {name!r} (its options: {listed})")
        out[name] = value
    return out


def _items(suite: Any, c: EvalConfig) -> list[Any]:
    try:
        items = list(suite.items(c.split, key=c.key, limit=c.limit, **_item_options(suite, c)))
    except UserError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(f"suite {c.suite!r} cannot give split {c.split!r}: {exc}") from None
    if c.limit is not None:
        items = items[: c.limit]
    if not items:
        raise UserError(f"suite {c.suite!r} has no items in split {c.split!r}")
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise UserError(f"suite {c.suite!r} gave item id {item.id!r} twice")
        seen.add(item.id)
    return items


def load_items(c: EvalConfig) -> list[Any]:
    """The items `physbench eval` would run for these options (for exports and listings)."""
    _check_options(c)
    suite = get_suite(c.suite)
    return _items(suite, resolve(c, suite)[0])


def default_run_dir(suite: str, model: str) -> Path:
    """runs/SUITE-MODEL-YYYYmmdd-HHMMSS (model spec reduced to safe characters); -2, -3, ... when a
    run started in the same second has the name already, so back-to-back runs never collide."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-")[:60] or "model"
    base = Path("runs") / f"{suite}-{slug}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def _open_store(run_dir: Path, manifest: Manifest) -> RunStore:
    """The store of `run_dir`, new or resumed; refuses a directory that holds a different run."""
    if (run_dir / STORE_NAME).exists():
        with open_run(run_dir) as reader:
            stored = reader.manifest
        problems = stored.mismatches(manifest)
        if problems:
            raise UserError(f"{str(run_dir)!r} holds a different run ({'; '.join(problems)}); "
                            "use another --run-dir")
        return RunStore(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise UserError(f"--run-dir {str(run_dir)!r} is not a directory")
    store = RunStore(run_dir)
    if store.manifest() is None:
        store.write_manifest(manifest)
    return store


YOUNG_GC_THRESHOLD = 10_000  # allocations between young collections during a run (Python's default: 700)


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """Garbage collection tuned for the run, and restored after it.

    The objects alive before the run (items, modules) are frozen out of the collector's walks,
    which otherwise visit them at every full collection (and, after the fork, copy each page they
    touch). Young collections come less often: with 64 requests in flight most young objects are
    still alive when one runs, so at Python's default of 700 allocations each walk is mostly
    wasted. Where something else froze objects before (`python -m physbench`, the executor's
    warm parent), they stay frozen afterwards, with what this run froze beside them.
    """
    frozen_before = gc.get_freeze_count() > 0
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], YOUNG_GC_THRESHOLD), thresholds[1], thresholds[2])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not frozen_before:
            gc.unfreeze()


async def _drive(engine: Engine, work: list[Any], concurrency: int, tally: Tally, progress: Any,
                 stopper: Stopper, watch: Any) -> None:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    try:
        if task is not None:
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
    except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
        pass
    stopper.attach(loop, task)
    if watch is not None and task is not None:
        watch.stop = task.cancel  # every recent request failed: stop with the reason
    try:
        if not stopper.requested:
            await engine.run(work, concurrency=concurrency, tally=tally, progress=progress)
    finally:
        stopper.detach()
        try:
            loop.remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError):
            pass
        await engine.model.aclose()
    if stopper.requested:
        raise asyncio.CancelledError  # a Ctrl-C that came as the run ended: interrupted all the same


def settle_sampling(protocol: Any, c: EvalConfig) -> dict[str, Any] | None:
    """Hand the user's --temperature / --max-tokens to a protocol with per-call settings of its own
    (`settle_sampling`, see protocols/base.py), so they win over its values; what its calls will send."""
    settle = getattr(protocol, "settle_sampling", None)
    if not callable(settle):
        return None
    user = {k: v for k, v in (("temperature", c.temperature), ("max_tokens", c.max_tokens)) if v is not None}
    return dict(settle(user))


def suite_sampling(c: EvalConfig, suite: Any) -> EvalConfig:
    """The suite's declared sampling where the user gave none (`default_sampling`: a dict, or a
    function of the protocol's name): `max_tokens`, `temperature`, and `seeds` (repeat r sends
    seeds[r]; the repeats default to their number, with --seed too). The user's flags win."""
    declared = getattr(suite, "default_sampling", None)
    d = dict((declared(str(c.protocol)) if callable(declared) else declared) or {})
    used = {k: d[k] for k in ("temperature", "max_tokens") if d.get(k) is not None and getattr(c, k) is None}
    declared_seeds = tuple(int(s) for s in d.get("seeds") or ())
    seeds = declared_seeds if c.seed is None else ()
    if not used and not declared_seeds:
        return c
    repeats = c.repeats if c.repeats is not None or not declared_seeds else len(declared_seeds)
    return replace(c, **used, seeds=seeds or None, repeats=repeats,
                   suite_defaults=tuple(sorted(used)) + (("seeds",) if seeds else ()))


def repeat_seeds(c: EvalConfig) -> list[int] | None:
    """The seed each repeat sends under the suite's seeds; repeats beyond them count on upward."""
    if not c.seeds or c.repeats is None:
        return None
    return [c.seeds[r] if r < len(c.seeds) else c.seeds[-1] + r - len(c.seeds) + 1 for r in range(c.repeats)]


def resolve(c: EvalConfig, suite: Any) -> tuple[EvalConfig, Any]:
    """The config with protocol, model and repeats filled in from the suite's defaults, and the protocol."""
    if c.protocol is None:
        chosen = getattr(suite, "default_protocol", None)
        c = replace(c, protocol=(chosen(dict(c.item_options)) if callable(chosen) else None) or "direct")
    protocol = get_protocol(str(c.protocol), suite)
    if c.model is None:
        c = replace(c, model="local" if calls_model(protocol) else "none")
    if calls_model(protocol):
        c = suite_sampling(c, suite)
    if c.repeats is None:
        c = replace(c, repeats=int(getattr(suite, "default_repeats", 1)))
    if c.max_attempts is None:  # the suite's paper's retry policy, where it declares one
        declared = declared_retries(suite)
        c = replace(c, max_attempts=declared.max_attempts if declared is not None else DEFAULT_MAX_ATTEMPTS)
    return c, protocol


def _retry_source(suite: Any, c: EvalConfig) -> dict[str, str]:
    """{"retry_policy": its source} when the run follows the suite's declared retry policy."""
    declared = declared_retries(suite)
    if declared is None or declared.max_attempts != c.max_attempts or not declared.source:
        return {}
    return {"retry_policy": declared.source}


def evaluate(c: EvalConfig) -> EvalResult:
    """Run (or resume) one evaluation and return its summary."""
    from physbench.report.summary import summarise

    _check_options(c)
    suite = get_suite(c.suite)
    c, protocol = resolve(c, suite)
    assert c.model is not None and c.protocol is not None and c.repeats is not None
    check_model_spec(protocol, c.model)
    _check_price_table(c)
    items = _items(suite, c)
    check_item = getattr(protocol, "check_item", None)
    for item in items if callable(check_item) else ():
        check_item(item)
    run_dir = Path(c.run_dir) if c.run_dir else default_run_dir(c.suite, c.model)
    by_id = {item.id: item for item in items}
    stopper = Stopper()  # installed once the model has answered the preflight, until the summary is read
    try:
        with _frozen_heap():
            # the grading process is forked now, before the model and the store are made, so that its
            # warm-up (imports, a first grade) overlaps them; it is ended if the run stops before it starts
            fork = hasattr(os, "fork") and (c.grade_inline is False or (c.grade_inline is None and forking()))
            early = ProcessSink(suite, run_dir, by_id) if fork else None
            try:
                outcome = _run(c, suite, protocol, items, by_id, run_dir, early, stopper)
            except BaseException:
                if early is not None and not early.settled:
                    early.abandon()
                raise
        wall, tally, skipped, status, reason = outcome
        with open_run(run_dir) as reader:
            summary = summarise(reader)
    finally:
        stopper.restore()
    attempted = tally.done + tally.errors
    if status != "completed":  # attempts dropped on the way to the store are not counted as run
        attempted = min(attempted, max(0, int(summary["n_done"]) + int(summary["n_errors"]) - skipped))
    return EvalResult(run_dir=run_dir, summary=summary, status=status, attempted=attempted,
                      skipped=skipped, wall_s=wall, reason=reason)


def _run(c: EvalConfig, suite: Any, protocol: Any, items: list[Any], by_id: dict[str, Any], run_dir: Path,
         early: ProcessSink | None, stopper: Stopper) -> tuple[float, Tally, int, str, str | None]:
    """Make the model and the store, run the attempts not yet graded:
    (wall s, tally, skipped, status, why it was stopped)."""
    assert c.model is not None and c.protocol is not None and c.repeats is not None and c.max_attempts is not None
    model, watch = checked_model(c, suite, protocol, items)
    info_fn = getattr(model, "info", None)
    source_fn = getattr(suite, "data_source", None)  # a suite reading a data file says which one
    data_source = source_fn() if callable(source_fn) else None
    sampling: dict[str, Any] = {"temperature": c.temperature, "max_tokens": c.max_tokens, "seed": c.seed,
                                **reasoning_sampling(c)}
    calls = settle_sampling(protocol, c)
    if calls is not None:
        sampling["calls"] = calls  # what each kind of the protocol's calls sends, the user's flags applied
    if c.suite_defaults:  # what came from the suite's declared defaults, and the seed of each repeat
        sampling.update(suite_defaults=list(c.suite_defaults), **({"seeds": repeat_seeds(c)} if c.seeds else {}))
    manifest = Manifest(
        suite=c.suite, split=c.split, protocol=c.protocol, model_spec=c.model, sampling=sampling,
        repeats=c.repeats, n_items=len(items), item_set_hash=item_set_hash((i.id, i.params_hash) for i in items),
        model_info=info_fn() if callable(info_fn) else {}, base_url=getattr(model, "base_url", None),
        options={"concurrency": c.concurrency, "timeout_s": c.timeout_s, "max_attempts": c.max_attempts,
                 "retry_delay_s": c.retry_delay_s, "max_retry_after_s": c.max_retry_after_s, "limit": c.limit,
                 "item_options": dict(c.item_options), **({"data_source": data_source} if data_source else {}),
                 "keyed": c.key is not None, **_retry_source(suite, c),
                 **({"label": c.label} if c.label else {})},
        git_revision=git_revision())
    stopper.install()  # from here on, Ctrl-C stops the run cleanly (its summary is printed)
    try:
        store = _open_store(run_dir, manifest)
    except BaseException:
        asyncio.run(model.aclose())
        raise
    start = time.perf_counter()
    status = "interrupted"
    failure: str | None = None
    try:
        done = store.done_keys()
        if c.max_attempts == 1:  # no retries: an attempt that ended without a reply stays a failure
            done |= failed_keys(store.conn)
        order = getattr(suite, "case_order", None)  # a suite whose seeds fix the case order (clincalc)
        work = [(item, r) for r in range(c.repeats) for item in (order(items, r) if callable(order) else items)
                if (item.id, r) not in done]
        tally = Tally(total=len(items) * c.repeats, done_before=len(items) * c.repeats - len(work), started=start)
        store.begin_session()
        inline = c.grade_inline
        if inline is None and getattr(model, "max_concurrency", None) == 1:
            inline = True  # one answer at a time (the local model): nothing to gain from a second process
        if early is not None and not inline:
            early.use_store(store)
            sink: Any = early
        else:
            if early is not None:
                early.abandon()
            sink = make_sink(suite, store, by_id, inline=inline)
        if not isinstance(sink, ProcessSink):  # a grading process stores the items itself, off the event loop
            store.write_items(items)
        else:
            stopper.on_stop.append(sink.cut)
        progress = make_progress(f"{c.suite} x {c.model}", quiet=c.quiet)  # after the fork: rich runs a thread
        engine = Engine(model=model, protocol=protocol, sink=sink,
                        sampling={"temperature": c.temperature, "max_tokens": c.max_tokens, **reasoning_sampling(c)},
                        policy=RetryPolicy(max_attempts=c.max_attempts, base_delay_s=c.retry_delay_s,
                                           max_retry_after_s=c.max_retry_after_s), seed=c.seed,
                        seeds=tuple(repeat_seeds(c) or ()) or None)
        try:
            workers = getattr(model, "total_concurrency", None) or c.concurrency  # --concurrency per endpoint
            asyncio.run(_drive(engine, work, workers, tally, progress, stopper, watch))
            status = "interrupted" if stopper.requested else "completed"  # a Ctrl-C as it ended: some not stored
        except (KeyboardInterrupt, asyncio.CancelledError):
            status = "stopped" if watch is not None and watch.reason and not stopper.requested else "interrupted"
        except RuntimeError as exc:  # the grading process or the store failed
            status, failure = "failed", str(exc)
        finally:
            try:
                sink.close()  # every attempt stored: the end of the interval the rate is over
            except RuntimeError as exc:
                status, failure = "failed", failure or str(exc)
            tally.stop()
            progress.close(tally)
            counts = getattr(model, "counts", None)
            if callable(counts):
                store.add_endpoint_counts(counts())
            store.end_session(status, tally.done + tally.errors)
    finally:
        store.close()
    if stopper.requested and status == "completed":
        status = "interrupted"  # the Ctrl-C came as the last attempts were stored: some may have been dropped
    if failure is not None:
        raise UserError(failure)
    # the progress line's interval, so that it and the summary print the same rate
    reason = watch.reason if watch is not None and status == "stopped" else None
    return tally.elapsed(), tally, len(items) * c.repeats - len(work), status, reason
