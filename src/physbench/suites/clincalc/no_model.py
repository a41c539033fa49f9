"""`--model none`: the model of the arms that call no model (the Gold-Solve library)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from physbench.models.base import Completion, ModelError

if TYPE_CHECKING:
    from physbench.core.items import Item, Message


class NoModel:
    """Answers nothing: a protocol that calls it records an error rather than a guessed reply."""

    spec = "none"

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       **params: Any) -> Completion:
        raise ModelError("this arm calls no model (--model none); choose a model for this arm", retryable=False)

    def info(self) -> dict[str, Any]:
        return {"kind": "none"}

    async def aclose(self) -> None:
        return None
