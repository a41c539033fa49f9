"""The run store's schema, and the check that opens a store someone else wrote without running
code it may carry.

A SQLite file can hold code: triggers (run on every insert or update), views (a recursive one
never ends), virtual tables, and expressions in indexes, CHECK and DEFAULT clauses that call
functions. `guard` runs first on every connection to a store (the writer, the grading process
and every reader: report, view, export-results, resume): it turns SQLite's trusted schema off
(functions in the schema are limited to those SQLite marks harmless) and refuses, in one line,
any schema object that `SCHEMA` below does not make: triggers, views, other tables, other
indexes, a table that is not a plain table. Columns added to our own tables are allowed (older
stores have other columns).
"""

from __future__ import annotations

import functools
import re
import sqlite3

from physbench.core.errors import UserError

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, split TEXT NOT NULL, protocol TEXT NOT NULL,
    model_spec TEXT NOT NULL, model_info_json TEXT NOT NULL, base_url TEXT, sampling_json TEXT NOT NULL,
    repeats INTEGER NOT NULL, n_items INTEGER NOT NULL, item_set_hash TEXT NOT NULL,
    package_version TEXT NOT NULL, git_revision TEXT, started_at TEXT NOT NULL, options_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS items (item_id TEXT PRIMARY KEY, item_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id TEXT NOT NULL, repeat INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'error')),
    kind TEXT, item_group TEXT,
    response_text TEXT, finish_reason TEXT, usage_json TEXT NOT NULL,
    prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL,
    latency_s REAL, model_calls INTEGER NOT NULL, tries INTEGER NOT NULL, errors_json TEXT NOT NULL,
    turns_json TEXT, raw_json TEXT, answer_json TEXT,
    grade_json TEXT, outcome TEXT, score REAL, passed INTEGER,
    started_at REAL NOT NULL, finished_at REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS one_grade_per_attempt ON attempts (item_id, repeat) WHERE status = 'done';
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, started_at REAL NOT NULL, finished_at REAL,
    status TEXT NOT NULL, attempts_written INTEGER NOT NULL DEFAULT 0
);
"""


_INTERNAL_TABLES = frozenset({"sqlite_sequence"})  # SQLite's own, for AUTOINCREMENT
_AUTOINDEX = re.compile(r"sqlite_autoindex_(\w+)_\d+")  # SQLite's own, for PRIMARY KEY and UNIQUE


def _plain(sql: str | None) -> str:
    return " ".join((sql or "").split())


@functools.lru_cache(maxsize=1)
def expected_objects() -> dict[tuple[str, str], str]:
    """(type, name) -> CREATE statement of every object SCHEMA makes, as SQLite records it."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return {(kind, name): _plain(sql) for kind, name, sql in
                conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL")}
    finally:
        conn.close()


def _unexpected(kind: str, name: str, table: str, sql: str | None) -> bool:
    expected = expected_objects()
    if kind == "table":
        return name not in _INTERNAL_TABLES and (("table", name) not in expected
                                                  or not _plain(sql).upper().startswith("CREATE TABLE"))
    if kind == "index":
        auto = _AUTOINDEX.fullmatch(name)
        if sql is None and auto is not None:  # made by a PRIMARY KEY or UNIQUE of one of our tables
            return ("table", table) not in expected
        return expected.get(("index", name)) != _plain(sql)
    return True  # a trigger, a view, or anything else


def guard(conn: sqlite3.Connection, where: str) -> None:
    """Make `conn` run no code from the store and refuse a store holding schema objects we do not
    make (a UserError naming the first and `where`, the run directory)."""
    conn.execute("PRAGMA trusted_schema = OFF")
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").fetchall()
    for kind, name, table, sql in rows:
        if _unexpected(kind, name, table, sql):
            shown = "".join(c if c.isprintable() else "?" for c in str(name))[:60]
            raise UserError(f"refusing the run store in {where!r}: it holds a {kind} {shown!r} that physbench "
                            "does not make (a store from elsewhere may carry code that would run when it is read)")
