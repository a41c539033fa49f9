"""The model of a run, made and checked before anything is stored: the protocol can use it, a replay
file answers some of the run's items, and an endpoint answers (models/preflight.py); an endpoint
model comes back watched, so that a run whose requests all fail stops with the reason."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.models.factory import ModelOptions, make_model
from physbench.models.preflight import endpoints_of, preflight
from physbench.models.watch import RequestWatch, watched
from physbench.protocols import check_model

if TYPE_CHECKING:
    from physbench.runner.evaluate import EvalConfig


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _check_replay(model: Any, items: list[Any]) -> None:
    """A replay file that answers none of the run's items would only record errors: refused."""
    ids_of = getattr(model, "item_ids", None)
    if not callable(ids_of):
        return
    answered = ids_of()
    if not any(item.id in answered for item in items):
        theirs = sorted(answered)[0] if answered else "none"
        raise UserError(f"{getattr(model, 'spec', 'the replay file')[:120]} answers none of the {len(items)} items "
                        f"of this run (it has ids like {theirs[:60]!r}, the run {items[0].id[:60]!r}); "
                        "check the suite, --split and --limit")


def checked_model(c: "EvalConfig", suite: Any, protocol: Any, items: list[Any]) -> tuple[Any, RequestWatch | None]:
    """The model, checked against the protocol and (an endpoint) probed before anything is stored;
    an endpoint model comes back watched (models/watch.py)."""
    assert c.model is not None
    options = ModelOptions(base_url=c.base_url, api_key_env=c.api_key_env, concurrency=c.concurrency,
                           timeout_s=c.timeout_s, price_table=c.price_table, max_retry_after_s=c.max_retry_after_s)
    held = io.StringIO()  # the model's own warnings (e.g. no key set) wait until the endpoint has answered,
    try:  # so that a wrong endpoint is one line naming the cause
        with contextlib.redirect_stderr(held):
            model = make_model(c.model, suite, options)
    except BaseException:
        sys.stderr.write(held.getvalue())
        raise
    try:
        check_model(protocol, model)
        _check_replay(model, items)
        preflight(model, warn=_say)
    except BaseException:
        asyncio.run(model.aclose())
        raise
    sys.stderr.write(held.getvalue())
    if endpoints_of(model) is None:
        return model, None
    workers = getattr(model, "total_concurrency", None) or c.concurrency
    watch = RequestWatch(window=2 * workers, say=_say)
    return watched(model, watch), watch
