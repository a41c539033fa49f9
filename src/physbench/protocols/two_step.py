"""`two-step`: the item's question, then a formatting turn (protocol_data["format"]) on a copy of
the conversation that holds the first reply; the formatting reply is the graded answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item


def format_text(item: "Item", data: object) -> str:
    text = data.get("format") if hasattr(data, "get") else None
    if not isinstance(text, str) or not text:
        raise UserError(f"item {item.id!r} has no protocol_data format text for the two-step protocol")
    return text


class TwoStep:
    name = "two-step"
    single_reply = True  # the answer is the reply to the formatting turn (protocols/base.py)

    def check_item(self, item: "Item") -> None:
        """Refuse, before the run, an item this protocol cannot ask (one line, exit 2)."""
        format_text(item, item.protocol_data)

    async def run(self, item: "Item", ask: Ask) -> Answer:
        fmt = format_text(item, item.protocol_data)
        conversation = list(item.messages)
        first = await ask(conversation, label="solve")
        formatted = await ask([*conversation, Message("assistant", first.text), Message("user", fmt)], label="format")
        turns = (Turn(first.text, first.finish_reason, dict(first.usage), first.latency, "solve"),
                 Turn(formatted.text, formatted.finish_reason, dict(formatted.usage), formatted.latency, "format"))
        return Answer(formatted.text, formatted.finish_reason, turns, detail={"solve_text": first.text})
