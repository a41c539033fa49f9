"""The ten medphys generators by name (seed 000, Table 1); modules are imported on first use."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from physbench.core.errors import UserError
from physbench.suites.medphys.base import Generator

GENERATOR_NAMES: tuple[str, ...] = ("tg51", "mu", "tg43", "bed", "ssde", "hvl", "decay", "mird", "ncrp151", "ncrp147")
CHECKING_GENERATORS: tuple[str, ...] = ("tg51", "mu", "ncrp151", "ssde", "mird")
LEVELS: tuple[int, ...] = (1, 2, 3)


@cache
def get_generator(name: str) -> Generator:
    """The generator called `name`; a UserError naming the known ones otherwise."""
    if name not in GENERATOR_NAMES:
        raise UserError(f"unknown generator {name!r}; known: {', '.join(GENERATOR_NAMES)}")
    return import_module(f"physbench.suites.medphys.{name}").GENERATOR  # type: ignore[no-any-return]


def available_generators() -> list[Generator]:
    """The ten generators in Table 1 order."""
    return [get_generator(name) for name in GENERATOR_NAMES]
