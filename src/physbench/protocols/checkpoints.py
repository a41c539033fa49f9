"""Checkpoint protocols: the item's steps (protocol_data["steps"]) each asked, then formatted on a
copy of the conversation (the formatting turn never enters it). Three forms of carryover:

- `checkpoints-self`: one conversation; the item's messages open it and each step's question
  (`ask`) follows the model's own earlier replies.
- `checkpoints-oracle`: each step asked on its own, in a fresh conversation whose one user turn
  (`alone`, or one built from the opening, the earlier `ask`s and their `expected` answers) holds
  the setup, the earlier steps and their expert answers (CritPt's oracle carryover, as its
  official code asks it); a wrong step cannot sink the next.
- `checkpoints-oracle-multiturn`: one conversation, with the previous step's expert answer
  (`expected`) at the head of the next user turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from physbench.core.errors import UserError
from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item

CARRYOVERS = {"self": "checkpoints-self", "oracle": "checkpoints-oracle", "oracle-multiturn": "checkpoints-oracle-multiturn"}


def _steps(item: "Item", need: str = "ask") -> list[Any]:
    steps = item.protocol_data.get("steps")
    if not steps or not all(hasattr(s, "get") and isinstance(s.get(need), str) for s in steps):
        raise UserError(f"item {item.id!r} has no protocol_data steps (each with {need!r}) for checkpoints")
    return list(steps)


def alone_prompt(opening: list[Message], steps: list[Any], i: int) -> str:
    """Step `i` on its own: the step's `alone` text, else the item's opening, each earlier step's
    question with its expert answer (`expected`), then this step's question."""
    if isinstance(steps[i].get("alone"), str):
        return str(steps[i]["alone"])
    parts = [m.content for m in opening]
    for earlier in steps[:i]:
        parts += [earlier["ask"], str(earlier.get("expected") or "")]
    parts.append(steps[i]["ask"])
    return "\n\n".join(p.strip() for p in parts if p and p.strip())


def _turn(c: Any, label: str) -> Turn:
    return Turn(c.text, c.finish_reason, dict(c.usage), c.latency, label)


class Checkpoints:
    def __init__(self, oracle: bool = False, carryover: str | None = None) -> None:
        self.carryover = carryover or ("oracle" if oracle else "self")
        if self.carryover not in CARRYOVERS:
            raise UserError(f"unknown carryover {self.carryover!r}; known: {', '.join(CARRYOVERS)}")
        self.oracle = self.carryover != "self"
        self.name = CARRYOVERS[self.carryover]

    def check_item(self, item: "Item") -> None:
        """Refuse, before the run, an item without steps (one line, exit 2)."""
        _steps(item)

    async def _step(self, ask: Ask, conversation: list[Message], step: Any, sid: str,
                    turns: list[Turn]) -> tuple[Any, Any]:
        """Solve, then format on a copy; (solve reply, graded reply)."""
        reply = await ask(conversation, label=f"{sid}:solve")
        turns.append(_turn(reply, f"{sid}:solve"))
        final = reply
        fmt = step.get("format")
        if isinstance(fmt, str) and fmt:
            final = await ask([*conversation, Message("assistant", reply.text), Message("user", fmt)],
                              label=f"{sid}:format")
            turns.append(_turn(final, f"{sid}:format"))
        return reply, final

    async def run(self, item: "Item", ask: Ask) -> Answer:
        steps = _steps(item)
        system = [m for m in item.messages if m.role == "system"]
        opening = [m for m in item.messages if m.role != "system"]
        answers, turns = [], []
        conversation = list(system)
        carry = ""
        for i, step in enumerate(steps):
            sid = str(step.get("id") or f"checkpoint-{i + 1}")
            if self.carryover == "oracle":
                alone = Message("user", alone_prompt(opening, steps, i))
                _, final = await self._step(ask, [*system, alone], step, sid, turns)
            else:
                prompt = carry + step["ask"]
                if i == 0 and opening:  # the item's own opening (the setup) leads the first question
                    conversation.extend(opening[:-1])
                    prompt = f"{opening[-1].content}\n\n{prompt}"
                conversation.append(Message("user", prompt))
                reply, final = await self._step(ask, conversation, step, sid, turns)
                conversation.append(Message("assistant", reply.text))
                expected = step.get("expected")
                carry = f"{expected}\n\n" if self.carryover == "oracle-multiturn" and isinstance(expected, str) \
                    and expected else ""
            answers.append(Answer(final.text, final.finish_reason, step=sid))
        last = answers[-1]
        return Answer(last.text, last.finish_reason, tuple(turns), tuple(answers),
                      detail={"carryover": self.carryover})
