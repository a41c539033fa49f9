"""The run store: one SQLite file (WAL) per run directory, written as attempts finish.

Schema (version 2), documented here because reports and viewers read it directly:
- `runs`: one manifest row (suite, split, protocol, model spec and info, base URL, sampling
  parameters, repeats, item count, item-set hash, package version, git revision, start time).
- `items`: each item's JSON, once per item (written when a session starts, by the grading
  process when there is one, before the session's first attempt row).
- `attempts`: one row per finished attempt of (item, repeat): status `done` (a response, graded)
  or `error` (no usable response after retries). Each row holds the response text, finish
  reason, usage (JSON plus token columns), cost, latency, model calls and tries, the errors met
  on the way, the protocol's turns (multi-turn protocols only), what the provider sent beside the
  text (`raw_json`: e.g. reasoning_content, only when present), the protocol's structured answer
  (`answer_json`: per-step answers, a program's value, the tool log; only when present), and for
  `done` rows the grade JSON with its outcome, score and pass flag. A unique index allows one
  `done` row per (item, repeat): an attempt is graded exactly once. Error rows are kept when the
  attempt later succeeds, so nothing is lost.
- `sessions`: each invocation of the runner on this store, with how it ended; a session left
  `running` by a killed process is marked `killed` when the store is next opened for writing.

Version 1 stores (before items had their own table) held the item JSON in every attempt row;
they are still read (reports, viewer), but not resumed: a new run directory is needed.

Reading: `open_run(run_dir)` (runner/results.py) gives the manifest, `results()` and `failures()`.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from physbench.core.errors import UserError
from physbench.runner import storable
from physbench.runner.manifest import Manifest
from physbench.runner.records import AttemptRecord
from physbench.runner.results import STORE_NAME, Result, RunReader, open_run, read_manifest, stored_version
from physbench.runner.schema import SCHEMA, SCHEMA_VERSION, guard

if TYPE_CHECKING:
    from physbench.core.items import Item

__all__ = ["STORE_NAME", "Result", "RowWriter", "RunReader", "RunStore", "SCHEMA_VERSION", "open_run"]

LOCK_WAIT_S = 10.0  # a killed run's grading process may still be committing its last rows

_INSERT = """INSERT OR IGNORE INTO attempts (item_id, repeat, status, kind, item_group, response_text,
    finish_reason, usage_json, prompt_tokens, completion_tokens, cost, latency_s, model_calls, tries,
    errors_json, turns_json, raw_json, answer_json, grade_json, outcome, score, passed, started_at, finished_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""


WAL_CHECKPOINT_PAGES = 128  # fold the log into the database every ~0.5 MB (SQLite's default: 1000 pages)


def _connect(path: Path) -> sqlite3.Connection:
    """A writing connection to the store at `path`, after `guard` (runner/schema.py) found nothing
    in it that would run code; a UserError if it did."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 10000")
    try:
        guard(conn, str(path.parent))
    except BaseException:
        conn.close()
        raise
    conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: durable when the process is killed
    # small checkpoints as the run goes, by whoever writes (the grading process by default), so
    # that closing the last connection at the end of a run has little log left to fold in
    conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES}")
    return conn


class RowWriter:
    """Inserts attempt rows, a batch per transaction; a second graded row for an attempt is ignored."""

    def __init__(self, run_dir: Path) -> None:
        self.conn = _connect(run_dir / STORE_NAME)
        self.written = 0

    def write(self, rows: Sequence[tuple[Any, ...]]) -> int:
        """Insert a batch in one transaction; a batch SQLite refuses a value of (text it cannot
        encode, an integer past 64 bits) is written again with every value made storable."""
        if not rows:
            return 0
        before = self.conn.total_changes
        try:
            self._insert(rows)
        except (UnicodeEncodeError, OverflowError, sqlite3.InterfaceError):
            self._insert([storable.row(r) for r in rows])
        added = self.conn.total_changes - before
        self.written += added
        return added

    def _insert(self, rows: Sequence[tuple[Any, ...]]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.executemany(_INSERT, rows)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def write_items(self, items: Iterable["Item"]) -> int:
        """Store each item's JSON once (items already stored are left as they are; a lone surrogate from
        a problem set from elsewhere is stored as U+FFFD); how many were added."""
        stored = {i for (i,) in self.conn.execute("SELECT item_id FROM items")}
        rows = [(item.id, storable.text(item.to_json())) for item in items if item.id not in stored]
        if rows:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.executemany("INSERT OR IGNORE INTO items VALUES (?, ?)", rows)
            self.conn.execute("COMMIT")
        return len(rows)

    def close(self) -> None:
        self.conn.close()


def _lock(run_dir: Path) -> Any:
    handle = open(run_dir / ".lock", "a+")
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except OSError:
            if time.monotonic() > deadline:
                handle.close()
                raise UserError(f"another physbench eval is writing to {str(run_dir)!r}") from None
            time.sleep(0.05)


class RunStore:
    """The writer side of a run directory; one at a time (an exclusive lock file guards it).

    `record()` grades nothing: it stores graded attempts, grouping those that finish in the same
    turn of the event loop into one transaction. `detach()` closes the database connection (before
    a grading process is forked) and `attach()` reopens it; the lock is held throughout.
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        self._lock_file = _lock(run_dir)
        try:
            conn = _connect(run_dir / STORE_NAME)
            conn.execute("PRAGMA journal_mode = WAL")
            version = stored_version(conn)
            if version is not None and version != SCHEMA_VERSION:
                conn.close()
                raise UserError(f"the run store in {str(run_dir)!r} has schema {version} (this physbench writes "
                                f"{SCHEMA_VERSION}): `physbench report` still reads it; to run again, use a new --run-dir")
            conn.executescript(SCHEMA)
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            # we hold the lock, so a session still marked running was ended by a kill
            conn.execute("UPDATE sessions SET status = 'killed' WHERE status = 'running'")
            conn.close()
        except sqlite3.DatabaseError as exc:
            self._unlock()
            raise UserError(f"cannot use the run store in {str(run_dir)!r}: {exc}") from None
        except UserError:
            self._unlock()
            raise
        self.writer: RowWriter | None = RowWriter(run_dir)
        self.session_id: int | None = None
        self._pending: list[AttemptRecord] = []
        self._flush_scheduled = False
        self._failure: Exception | None = None

    @property
    def conn(self) -> sqlite3.Connection:
        if self.writer is None:
            raise RuntimeError("the run store is detached")
        return self.writer.conn

    def detach(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def attach(self) -> None:
        if self.writer is None:
            self.writer = RowWriter(self.run_dir)

    def manifest(self) -> Manifest | None:
        return read_manifest(self.conn)

    def write_manifest(self, manifest: Manifest) -> None:
        row = manifest.to_row()
        self.conn.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                          tuple(row.values()))

    def add_endpoint_counts(self, session: Sequence[dict[str, Any]]) -> None:
        """Add this session's per-endpoint request and failure counts to the manifest's model info
        (`endpoints`), summed over the sessions of a resumed run."""
        from physbench.models.endpoints import merge_counts

        row = self.conn.execute("SELECT run_id, model_info_json FROM runs").fetchone()
        if row is None:
            return
        info = json.loads(row[1])
        info["endpoints"] = merge_counts(info.get("endpoints") or [], session)
        self.conn.execute("UPDATE runs SET model_info_json = ? WHERE run_id = ?",
                          (json.dumps(info, sort_keys=True), row[0]))

    def write_items(self, items: Sequence["Item"]) -> None:
        """Store each item's JSON once (items already stored are left as they are)."""
        if self.writer is None:
            raise RuntimeError("the run store is detached")
        self.writer.write_items(items)

    def done_keys(self) -> set[tuple[str, int]]:
        """(item id, repeat) of every graded attempt: these are skipped on resume."""
        return {(i, r) for i, r in self.conn.execute("SELECT item_id, repeat FROM attempts WHERE status = 'done'")}

    def begin_session(self) -> None:
        cur = self.conn.execute("INSERT INTO sessions (started_at, status) VALUES (?, 'running')", (time.time(),))
        self.session_id = cur.lastrowid

    def end_session(self, status: str, written: int) -> None:
        if self.session_id is not None:
            self.conn.execute("UPDATE sessions SET finished_at = ?, status = ?, attempts_written = ? WHERE id = ?",
                              (time.time(), status, written, self.session_id))

    def record(self, attempt: AttemptRecord) -> None:
        """Queue one graded attempt; it is committed before the event loop runs anything else.

        Attempts that finish in the same turn of the event loop share one transaction (a group
        commit); outside an event loop the row is committed at once.
        """
        if self._failure is not None:
            raise self._failure
        self._pending.append(attempt)
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self._scheduled_flush)

    def _scheduled_flush(self) -> None:
        try:
            self.flush()
        except Exception as exc:  # e.g. disk full: raised again at the next record() or flush()
            self._failure = exc

    def flush(self) -> None:
        self._flush_scheduled = False
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        if self.writer is None:
            raise RuntimeError("the run store is detached")
        self.writer.write([a.row() for a in pending])

    @property
    def written(self) -> int:
        return self.writer.written if self.writer is not None else 0

    def _unlock(self) -> None:
        fcntl.flock(self._lock_file, fcntl.LOCK_UN)
        self._lock_file.close()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self.writer is not None:
                self.writer.close()
                self.writer = None
            self._unlock()
