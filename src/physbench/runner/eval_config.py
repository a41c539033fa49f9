"""The options of one `physbench eval` run and their checks (each wrong value: a UserError before any row)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from physbench.core.errors import UserError
from physbench.models.factory import base_urls


@dataclass(frozen=True)
class EvalConfig:
    """The options of one `physbench eval` invocation. `key` is never stored or printed."""

    suite: str
    split: str = "dev"
    model: str | None = None  # None: `none` for a protocol that calls no model, else `local`
    protocol: str | None = None  # None: the suite's `default_protocol(item_options)`, else `direct`
    base_url: str | tuple[str, ...] | None = None  # several URLs: requests spread over them
    api_key_env: str | None = None
    limit: int | None = None
    repeats: int | None = None  # None: the suite's `default_repeats`, else 1
    concurrency: int = 16
    run_dir: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float = 600.0
    max_attempts: int | None = None  # None: the suite's declared retry policy, else DEFAULT_MAX_ATTEMPTS
    retry_delay_s: float = 1.0
    max_retry_after_s: float = 120.0
    seed: int | None = None
    price_table: str | None = None
    key: bytes | None = None
    quiet: bool = False
    grade_inline: bool | None = None  # None: a forked grading process where the platform allows
    item_options: tuple[tuple[str, str], ...] = ()  # a suite's own item options (`--option NAME=VALUE`)
    reasoning_effort: str | None = None  # --reasoning-effort: sent as `reasoning_effort` (see REASONING_EFFORTS)
    thinking_budget: int | None = None  # --thinking-budget: the most thinking tokens per call
    label: str | None = None  # the run's name in reports and the viewer (`--label`); default: from the model spec
    seeds: tuple[int, ...] | None = None  # set by `suite_sampling`, not a flag: repeat r sends seeds[r]
    suite_defaults: tuple[str, ...] = ()  # the sampling keys that came from the suite's `default_sampling`

    def __repr__(self) -> str:  # keep the key out of any traceback or log
        return f"EvalConfig(suite={self.suite!r}, split={self.split!r}, model={self.model!r})"


@dataclass(frozen=True)
class EvalResult:
    run_dir: Path
    summary: dict[str, Any]
    status: str  # "completed" | "interrupted"
    attempted: int  # attempts run in this invocation
    skipped: int  # attempts already graded by an earlier invocation
    wall_s: float
    reason: str | None = None  # why a run with status "stopped" was stopped


DEV_KEY_ERROR = "--key-file is only for a keyed split (e.g. --split test); the dev split is public and takes no key"


def _check_options(c: EvalConfig) -> None:
    if c.limit is not None and c.limit < 1:
        raise UserError("--limit must be at least 1")
    if c.repeats is not None and not 1 <= c.repeats <= 1000:
        raise UserError("--repeats must be between 1 and 1000")
    if not 1 <= c.concurrency <= 4096:
        raise UserError("--concurrency must be between 1 and 4096")
    if c.temperature is not None and not 0 <= c.temperature <= 10:
        raise UserError("--temperature must be between 0 and 10")
    if c.max_tokens is not None and c.max_tokens < 1:
        raise UserError("--max-tokens must be at least 1")
    if not c.timeout_s > 0:
        raise UserError("--timeout must be positive")
    if c.max_attempts is not None and not 1 <= c.max_attempts <= 100:
        raise UserError("--max-attempts must be between 1 and 100")
    if not 0 <= c.retry_delay_s <= 600:
        raise UserError("--retry-delay must be between 0 and 600 seconds")
    if not 0 <= c.max_retry_after_s <= 3600:
        raise UserError("--max-retry-after must be between 0 and 3600 seconds")
    if c.split == "test" and not c.key:
        raise UserError("--split test needs --key-file")
    if c.split == "dev" and c.key is not None:
        raise UserError(DEV_KEY_ERROR)
    if c.label is not None and not (c.label.strip() and c.label.isprintable() and len(c.label) <= 80):
        raise UserError("--label must be 1 to 80 printable characters")
    if base_urls(c.base_url) and not (c.model or "").startswith("openai/"):
        raise UserError("--base-url applies to openai/NAME models only")
    _check_reasoning(c)


# --- reasoning settings (issue 37 item 5): sent to the server, part of what a run measures ---------
REASONING_EFFORTS = ("minimal", "low", "medium", "high")


def _check_reasoning(c: EvalConfig) -> None:
    if c.reasoning_effort is not None and c.reasoning_effort not in REASONING_EFFORTS:
        raise UserError(f"--reasoning-effort must be one of {', '.join(REASONING_EFFORTS)}")
    if c.thinking_budget is not None and not 1 <= c.thinking_budget <= 10_000_000:
        raise UserError("--thinking-budget must be between 1 and 10000000 tokens")
    given = c.reasoning_effort is not None or c.thinking_budget is not None
    if given and not (c.model or "").startswith("openai/"):
        raise UserError("--reasoning-effort and --thinking-budget apply to openai/NAME models only")


def reasoning_sampling(c: EvalConfig) -> dict[str, Any]:
    """The reasoning settings given, as sampling keys (none when not given: older manifests stay equal)."""
    out: dict[str, Any] = {}
    if c.reasoning_effort is not None:
        out["reasoning_effort"] = c.reasoning_effort
    if c.thinking_budget is not None:
        out["thinking_budget"] = c.thinking_budget
    return out


def _check_price_table(c: EvalConfig) -> None:
    """A `--price-table` prices openai/NAME models only, and is read whole before any request."""
    if c.price_table is None:
        return
    from physbench.models.pricing import load_table

    if not str(c.model).startswith("openai/"):
        raise UserError(f"--price-table applies to openai/NAME models only, not --model {str(c.model)[:60]}")
    load_table(c.price_table)
