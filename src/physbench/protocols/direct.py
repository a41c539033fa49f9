"""`direct`: the item's own messages (system + user) in one turn; the reply is the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from physbench.protocols.base import Answer, Ask, Turn

if TYPE_CHECKING:
    from physbench.core.items import Item


class Direct:
    """One call with the item's messages as written."""

    name = "direct"

    async def run(self, item: "Item", ask: Ask) -> Answer:
        completion = await ask(item.messages)
        turn = Turn(completion.text, completion.finish_reason, dict(completion.usage), completion.latency)
        return Answer(completion.text, completion.finish_reason, (turn,))
