"""Build any public medphys item by (generator, level, seed, kind) and benchmark version."""

from __future__ import annotations

from physbench.core.errors import UserError
from physbench.core.items import Item
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.splits import draw_items
from physbench.suites.medphys.versions import Version


def build_item(generator: str, level: int, seed: int, kind: str = "calculation",
               version: Version | str | None = None) -> Item:
    """The public item of (generator, level, seed) of the given kind; checking items alternate
    between correct (even seeds) and planted (odd seeds) as in the splits."""
    gen = get_generator(generator)
    gen.level(level)
    if kind == "calculation":
        return calculation_item(gen.name, level, seed, version=version)
    if not gen.checking:
        raise UserError(f"{generator} has no {kind} items (checking generators: tg51, mu, ncrp151, ssde, mird)")
    return next(i for i in draw_items(gen, level, seed, planted=seed % 2 == 1, version=version) if i.kind == kind)
