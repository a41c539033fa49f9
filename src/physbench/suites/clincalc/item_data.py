"""What a clincalc item carries for its arm beyond the messages (protocol_data["clincalc"]): the library
subset and the formula version. Read by the suite, the arm protocols and the Gold-Solve library alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from physbench.core.items import Item


def item_data(item: "Item") -> Mapping[str, Any]:
    return item.protocol_data.get("clincalc") or {}


def item_library(item: "Item") -> frozenset[int] | None:
    """The calculator ids the item's library covers (None: all of them), as `--library-subset` set it."""
    ids = item_data(item).get("library")
    return None if ids is None else frozenset(int(i) for i in ids)


def item_formulas(item: "Item") -> str | None:
    """The formula version the item's library and formula texts follow (None: the default, benchmark)."""
    return item_data(item).get("formulas")
