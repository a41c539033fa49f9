"""`direct`: the item's own messages (system + user) in one turn; the reply is the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from physbench.protocols.base import Answer, Ask

if TYPE_CHECKING:
    from physbench.core.items import Item


class Direct:
    """One call with the item's messages as written; its reply is the answer (no turns to list)."""

    name = "direct"
    one_call = True  # the runner may ask item.messages itself and take the reply as the answer

    async def run(self, item: "Item", ask: Ask) -> Answer:
        completion = await ask(item.messages)
        return Answer(completion.text, completion.finish_reason)
