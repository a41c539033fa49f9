"""pint's answers, remembered on disk, so that grading a known unit needs no pint at all.

Importing pint (and numpy under it) costs a grading process more than grading hundreds of answers.
The grader asks pint only three things: the full name of a unit word, whether an expression is
dimensionless, and the factor between two expressions. This table keeps each answer pint gave
(None included), exactly as pint gave it; a question it has not seen goes to pint and the answer
joins the table, which is saved (merged with what is on disk) when the process ends. The entry is
keyed by our unit code and definitions (core/caches.py) and pint's version, so a change to any of
them starts an empty table; a damaged file is ignored and replaced.
"""

from __future__ import annotations

import atexit
from typing import Any

from physbench.core import caches

NAME = "unit-table"
SOURCES = ("grading",)  # units.py, units.txt and the code that asks
MAX_ENTRIES = 50_000  # per section: unit words come from model text, so stop learning past this
SECTIONS = ("words", "dimensionless", "factors")


def _request() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        pint_version = version("pint")
    except PackageNotFoundError:
        pint_version = "unknown"
    return {"pint": pint_version}


class UnitTable:
    """Three memo sections (word -> name, expression -> bool, "from\\0to" -> factor), each answer pint's own."""

    def __init__(self, data: dict[str, dict[str, Any]] | None = None) -> None:
        self.sections: dict[str, dict[str, Any]] = {s: dict((data or {}).get(s) or {}) for s in SECTIONS}
        self.learned = 0

    def get(self, section: str, key: str, missing: Any) -> Any:
        return self.sections[section].get(key, missing)

    def learn(self, section: str, key: str, value: Any) -> None:
        entries = self.sections[section]
        if len(entries) < MAX_ENTRIES:
            entries[key] = value
            self.learned += 1

    @staticmethod
    def decode(data: Any) -> "UnitTable":
        """A table from its JSON; ValueError if the shape or a value's type is wrong."""
        if not isinstance(data, dict) or any(not isinstance(data.get(s), dict) for s in SECTIONS):
            raise ValueError("not a unit table")
        ok = {"words": lambda v: v is None or isinstance(v, str),
              "dimensionless": lambda v: isinstance(v, bool),
              "factors": lambda v: v is None or (isinstance(v, float) and v == v)}
        for section, check in ok.items():
            if not all(check(v) for v in data[section].values()):
                raise ValueError(f"bad value in the unit table's {section}")
        return UnitTable(data)


_TABLE: UnitTable | None = None


def table() -> UnitTable:
    """This process's table: read from disk at first use (empty when there is none or caching is off)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = UnitTable()
        directory = caches.cache_dir()
        if directory is not None:
            data = caches.read_entry(directory, NAME, caches.entry_key(NAME, SOURCES, _request()))
            try:
                _TABLE = UnitTable.decode(data) if data is not None else _TABLE
            except ValueError:  # damaged or foreign: start empty, and replace it at save()
                pass
        if save not in caches._EXIT_HOOKS:
            atexit.register(save)
        caches.at_exit(save)
    return _TABLE


def save() -> None:
    """Write what this process learned, merged with the table on disk now (another process may have
    saved meanwhile); nothing when nothing was learned or caching is off."""
    if _TABLE is None or not _TABLE.learned:
        return
    directory = caches.cache_dir()
    if directory is None:
        return
    key = caches.entry_key(NAME, SOURCES, _request())
    merged = UnitTable()
    on_disk = caches.read_entry(directory, NAME, key)
    if on_disk is not None:
        try:
            merged = UnitTable.decode(on_disk)
        except ValueError:
            pass
    for section in SECTIONS:
        for k, v in _TABLE.sections[section].items():
            if len(merged.sections[section]) < MAX_ENTRIES:
                merged.sections[section][k] = v
    if caches.write_entry(directory, NAME, key, merged.sections):
        _TABLE.learned = 0


def reset() -> None:
    """Forget the in-memory table (tests: the next use reads the disk again)."""
    global _TABLE
    _TABLE = None
