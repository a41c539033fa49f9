"""Protocols by name; multi-turn protocols register here as they are written."""

from __future__ import annotations

from physbench.core.errors import UserError
from physbench.protocols.base import Answer, Ask, Protocol, Turn
from physbench.protocols.direct import Direct

PROTOCOLS: dict[str, type] = {"direct": Direct}


def get_protocol(name: str) -> Protocol:
    """A new protocol object for `name`; a UserError naming the known ones otherwise."""
    try:
        return PROTOCOLS[name]()  # type: ignore[no-any-return]
    except KeyError:
        raise UserError(f"unknown protocol {name!r}; known protocols: {', '.join(sorted(PROTOCOLS))}") from None


__all__ = ["Answer", "Ask", "PROTOCOLS", "Protocol", "Turn", "get_protocol"]
