"""Calculation items of the medphys suite: ids, messages, reference, band and metadata from one draw."""

from __future__ import annotations

from typing import Any

from physbench.core.items import Item, Message
from physbench.suites.medphys.base import Generator, draw, params_to_dict
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.reference import MedphysReference
from physbench.suites.medphys.text import SYSTEM_CALCULATION
from physbench.suites.medphys.versions import Version, get_version

SUITE_NAME = "medphys"
KIND_TAGS = {"calculation": "calc", "worksheet_check": "ws", "result_check": "rc"}


def item_id(generator: str, level: int, kind: str, seed: int | None = None, tag: str | None = None,
            version: Version | str | None = None) -> str:
    """`medphys/GEN/L{level}/{kind}/{seed}` for public seeds; a tag instead of the seed for secret ones.
    Items of benchmark version 1.0 start with `medphys@1.0/` instead of `medphys/`."""
    suffix = str(seed) if seed is not None else f"t-{tag}"
    return f"{get_version(version).id_prefix}/{generator}/L{level}/{KIND_TAGS[kind]}/{suffix}"


def group_name(generator: str, level: int) -> str:
    """The cell of a generator and level, `GEN/L{level}` (the unit of stratification and reporting)."""
    return f"{generator}/L{level}"


def base_meta(gen: Generator, level: int, seed: int | None, p: Any, version: Version | str | None = None) -> dict[str, Any]:
    spec = gen.level(level)
    return {
        "generator": gen.name,
        "level": level,
        "seed": seed,
        "group": group_name(gen.name, level),
        "unit": spec.unit(p),
        "quantity": spec.quantity(p),
        "planted": None,
        "benchmark_version": get_version(version).name,
    }


def calculation_item(generator: str, level: int, seed: int, *, public: bool = True, tag: str | None = None,
                     params: Any = None, version: Version | str | None = None) -> Item:
    """The calculation item of (generator, level, seed); `public=False` hides the seed behind `tag`."""
    gen = get_generator(generator)
    spec = gen.level(level)
    v = get_version(version)
    p = params if params is not None else draw(gen, level, seed, legacy=v.legacy_conventions)
    meta = base_meta(gen, level, seed if public else None, p, v)
    return Item(
        id=item_id(gen.name, level, "calculation", seed if public else None, tag, v),
        suite=SUITE_NAME,
        kind="calculation",
        messages=(Message("system", SYSTEM_CALCULATION), Message("user", spec.prompt(p))),
        reference=MedphysReference(value=spec.solve(p), unit=spec.unit(p), band=gen.band).to_dict(),
        params=params_to_dict(p),
        meta=meta,
    )
