"""`checkpoints-self` / `checkpoints-oracle`: the item's steps (protocol_data["steps"]) asked one after
another in one conversation; each step is formatted on a copy of it, so the formatting turn never
enters the conversation. With oracle carryover the step's correct answer ("expected") is written
at the head of the next step's user turn, so one wrong step does not sink the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item


def _steps(item: "Item") -> list[Any]:
    steps = item.protocol_data.get("steps")
    if not steps or not all(hasattr(s, "get") and isinstance(s.get("ask"), str) for s in steps):
        raise UserError(f"item {item.id!r} has no protocol_data steps (each with an 'ask') for checkpoints")
    return list(steps)


def _turn(c: Any, label: str) -> Turn:
    return Turn(c.text, c.finish_reason, dict(c.usage), c.latency, label)


class Checkpoints:
    def __init__(self, oracle: bool = False) -> None:
        self.oracle = oracle
        self.name = "checkpoints-oracle" if oracle else "checkpoints-self"

    def check_item(self, item: "Item") -> None:
        """Refuse, before the run, an item without steps (one line, exit 2)."""
        _steps(item)

    async def run(self, item: "Item", ask: Ask) -> Answer:
        steps = _steps(item)
        conversation = [m for m in item.messages if m.role == "system"]
        first_user = [m for m in item.messages if m.role != "system"]
        answers, turns = [], []
        carry = ""
        for i, step in enumerate(steps):
            sid = str(step.get("id") or f"checkpoint-{i + 1}")
            prompt = step["ask"]
            if i == 0 and first_user:  # the item's own question opens the first step
                conversation.extend(first_user[:-1])
                prompt = f"{first_user[-1].content}\n\n{prompt}"
            conversation.append(Message("user", carry + prompt))
            carry = ""
            reply = await ask(conversation, label=f"{sid}:solve")
            turns.append(_turn(reply, f"{sid}:solve"))
            conversation.append(Message("assistant", reply.text))
            final = reply
            fmt = step.get("format")
            if isinstance(fmt, str) and fmt:
                final = await ask([*conversation, Message("user", fmt)], label=f"{sid}:format")
                turns.append(_turn(final, f"{sid}:format"))
            answers.append(Answer(final.text, final.finish_reason, step=sid))
            expected = step.get("expected")
            if self.oracle and i + 1 < len(steps) and isinstance(expected, str) and expected:
                carry = f"For reference, the correct result of the previous step: {expected}\n\n"
        last = answers[-1]
        return Answer(last.text, last.finish_reason, tuple(turns), tuple(answers),
                      detail={"carryover": "oracle" if self.oracle else "self"})
