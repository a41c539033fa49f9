"""Suites plug in by name: an entry point in the group `physbench.suites`, or `register()`.

The core never imports a suite's internals; it asks the registry for an object that
follows the `Suite` protocol below.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Iterable, Protocol, runtime_checkable

from physbench.core.errors import UserError

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.protocols.base import Answer

ENTRY_POINT_GROUP = "physbench.suites"


@runtime_checkable
class Suite(Protocol):
    """What the runner needs from a suite.

    Optional members the core uses when a suite has them:
    - `make_model(spec) -> Model | None`: the suite's own scripted models (`mode:NAME`...);
    - `oracle(item) -> str | None`: what a perfect model replies (the `oracle` model); a suite whose
      protocols take several turns may also define `oracle_turn(item, label, messages) -> str | None`;
    - `protocols() -> Mapping[str, Callable[..., Protocol]]`: protocols of its own (a suite's arms);
    - `harness(item) -> Harness`: the tools of the `agent` protocol;
    - `report`: a `physbench.report.registry.SuiteReport` with its analyses, sections, figures and
      viewer fields;
    - `item_options`: names of the options `items()` accepts beside split, key and limit;
    - `retry_policy`: a `physbench.runner.retry.DeclaredRetries`, its paper's tries per model call
      (the default of `--max-attempts`; 1 also keeps a re-run from asking again for a failed attempt).
    """

    name: str

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              **options: Any) -> Iterable["Item"]:
        """The split's items in a stable order."""
        ...

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        """Grade one answer to one item; never raises on model text."""
        ...


_SUITES: dict[str, Suite] = {}


def register(suite: Suite) -> Suite:
    """Register a suite object under its name (tests use this for fixture suites)."""
    _SUITES[suite.name] = suite
    return suite


def unregister(name: str) -> None:
    _SUITES.pop(name, None)


def _load_entry_point(name: str) -> Suite | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            return ep.load()  # type: ignore[no-any-return]
    return None


def get_suite(name: str) -> Suite:
    """The suite called `name`; a UserError naming the known suites if there is none."""
    if name in _SUITES:
        return _SUITES[name]
    suite = _load_entry_point(name)
    if suite is None and name.isidentifier():
        # fall back to the package's own suites when it is not installed with entry points
        try:
            suite = import_module(f"physbench.suites.{name}.suite").SUITE
        except ModuleNotFoundError:
            suite = None
    if suite is None:
        raise UserError(f"unknown suite {name!r}; known suites: {', '.join(suite_names()) or 'none'}")
    _SUITES[name] = suite
    return suite


def suite_names() -> list[str]:
    names = set(_SUITES) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(names)
