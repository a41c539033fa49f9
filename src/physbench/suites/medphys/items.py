"""Calculation items of the medphys suite: ids, messages, reference, band and metadata from one draw."""

from __future__ import annotations

from typing import Any

from physbench.core.items import Item, Message
from physbench.suites.medphys.base import Generator, draw, params_to_dict
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.reference import MedphysReference
from physbench.suites.medphys.text import SYSTEM_CALCULATION

SUITE_NAME = "medphys"
KIND_TAGS = {"calculation": "calc", "worksheet_check": "ws", "result_check": "rc"}


def item_id(generator: str, level: int, kind: str, seed: int | None = None, tag: str | None = None) -> str:
    """`medphys/GEN/L{level}/{kind}/{seed}` for public seeds; a tag instead of the seed for secret ones."""
    suffix = str(seed) if seed is not None else f"t-{tag}"
    return f"{SUITE_NAME}/{generator}/L{level}/{KIND_TAGS[kind]}/{suffix}"


def base_meta(gen: Generator, level: int, seed: int | None, p: Any) -> dict[str, Any]:
    spec = gen.level(level)
    return {
        "generator": gen.name,
        "level": level,
        "seed": seed,
        "group": f"{gen.name}/L{level}",
        "unit": spec.unit(p),
        "quantity": spec.quantity(p),
        "planted": None,
    }


def calculation_item(generator: str, level: int, seed: int, *, public: bool = True, tag: str | None = None,
                     params: Any = None) -> Item:
    """The calculation item of (generator, level, seed); `public=False` hides the seed behind `tag`."""
    gen = get_generator(generator)
    spec = gen.level(level)
    p = params if params is not None else draw(gen, level, seed)
    meta = base_meta(gen, level, seed if public else None, p)
    return Item(
        id=item_id(gen.name, level, "calculation", seed if public else None, tag),
        suite=SUITE_NAME,
        kind="calculation",
        messages=(Message("system", SYSTEM_CALCULATION), Message("user", spec.prompt(p))),
        reference=MedphysReference(value=spec.solve(p), unit=spec.unit(p), band=gen.band).to_dict(),
        params=params_to_dict(p),
        meta=meta,
    )
