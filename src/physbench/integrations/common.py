"""What every integration shares: a suite's items for given options, an item as chat turns, and
one reply graded by the suite's own grader (so an integration's score is `physbench eval`'s)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from physbench.grading.types import Grade

# OpenAI-style and Inspect stop reasons, as physbench's `Answer.finish_reason` spells them
FINISH = {"stop": "stop", "length": "length", "max_tokens": "length", "model_length": "length",
          "tool_calls": "tool_calls"}


def suite_items(suite: str, split: str = "dev", limit: int | None = None,
                options: dict[str, str] | None = None) -> list[Any]:
    """The items `physbench eval SUITE --split S --limit N --option K=V...` would run."""
    from physbench.runner.evaluate import EvalConfig, load_items

    opts = tuple((k, str(v)) for k, v in (options or {}).items())
    items = load_items(EvalConfig(suite=suite, split=split, limit=limit, item_options=opts))
    check_single_reply(suite, options)  # after the options are checked: an unknown one is its own error
    return items


def check_single_reply(suite: str, options: dict[str, str] | None = None) -> None:
    """A ValueError unless the suite's protocol for these options answers with one reply to the
    item's prompt (programs, tools and several calls are `physbench eval`'s alone)."""
    from physbench.core.registry import get_suite
    from physbench.runner.evaluate import EvalConfig, resolve

    opts = tuple((k, str(v)) for k, v in (options or {}).items())
    protocol = resolve(EvalConfig(suite=suite, item_options=opts), get_suite(suite))[1]
    if not (getattr(protocol, "single_reply", False) is True or getattr(protocol, "one_call", False) is True):
        shown = " ".join(f"{k}={v}" for k, v in opts) or "its defaults"
        raise ValueError(f"{suite} with {shown} uses the {protocol.name!r} protocol, which runs programs, tools "
                         "or several calls; an integration asks one prompt and grades one reply, so run it with "
                         f"`physbench eval {suite}`")


def chat_turns(item: Any) -> list[tuple[str, str]]:
    """The item's opening messages as (role, text), system and user turns only."""
    return [(m.role, m.content) for m in item.messages if m.role in ("system", "user")]


def format_turn(item: Any) -> str | None:
    """The item's formatting turn (research challenges: the two-step protocol), or None."""
    fmt = item.protocol_data.get("format")
    return fmt if isinstance(fmt, str) and fmt else None


def grade_reply(suite: str, item: Any, text: str | None, finish: str | None = None) -> "Grade":
    """The suite's grade of the final reply, `finish` being the provider's stop reason."""
    from physbench.core.registry import get_suite
    from physbench.protocols.base import Answer

    return get_suite(suite).grade(item, Answer(text or "", FINISH.get(str(finish)) if finish else None))
