"""Formula versions: `benchmark` computes what MedCalc-Bench Verified's own calculators compute (its gold),
each deviation from the clinical rule a named erratum of data/errata.json; `clinical` is the published rule.

A calculator asks `deviates(<erratum id>)` at each point where the benchmark's code departs from the
rule; the answer depends on the version (or the set of errata) in force for the current computation.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Iterable, Iterator, Union

VERSIONS = ("benchmark", "clinical")
DEFAULT = "benchmark"   # the paper's setting: a gold answer is what the benchmark's code computes

Version = Union[str, Iterable[str]]


@lru_cache(maxsize=1)
def erratum_ids() -> tuple[str, ...]:
    """Every erratum id of data/errata.json, in table order."""
    raw = json.loads((resources.files("physbench.suites.clincalc") / "data" / "errata.json").read_text("utf-8"))
    return tuple(e["id"] for e in raw["errata"])


def resolve(version: Version) -> frozenset[str]:
    """The errata in force: all of them for 'benchmark', none for 'clinical', or the ids given."""
    if isinstance(version, str):
        if version == "benchmark":
            return frozenset(erratum_ids())
        if version == "clinical":
            return frozenset()
        raise ValueError(f"unknown formula version {version!r} (one of {', '.join(VERSIONS)})")
    ids = frozenset(version)
    unknown = ids - set(erratum_ids())
    if unknown:
        raise ValueError(f"unknown erratum id(s): {', '.join(sorted(unknown))}")
    return ids


_ACTIVE: ContextVar[frozenset[str] | None] = ContextVar("clincalc_errata_in_force", default=None)


def active() -> frozenset[str]:
    current = _ACTIVE.get()
    return resolve(DEFAULT) if current is None else current


def deviates(erratum_id: str) -> bool:
    """Whether the computation in progress follows the benchmark's code at this erratum."""
    return erratum_id in active()


@contextmanager
def using(version: Version | None) -> Iterator[None]:
    """Compute under `version` ('benchmark', 'clinical' or a set of erratum ids); None keeps the current one."""
    if version is None:
        yield
        return
    token = _ACTIVE.set(resolve(version))
    try:
        yield
    finally:
        _ACTIVE.reset(token)
