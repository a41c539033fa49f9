"""Reading a run back: the manifest and every stored attempt, for reports and viewers."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from physbench.core.errors import UserError
from physbench.core.items import Item
from physbench.grading.types import FAILED, RENAMED_OUTCOMES, Grade
from physbench.runner.manifest import Manifest
from physbench.runner.records import item_group
from physbench.runner.schema import guard

STORE_NAME = "store.sqlite"


@dataclass(frozen=True)
class Result:
    """One stored attempt as the report and the viewer read it."""

    item: Item
    repeat: int
    status: str  # "done" (graded) | "error" (no usable response)
    text: str | None
    finish_reason: str | None
    usage: dict[str, int]
    cost: float | None
    latency: float | None
    model_calls: int
    tries: int
    errors: list[str]
    grade: Grade | None
    started_at: float
    finished_at: float
    turns: list[dict[str, Any]] | None = None
    answer: dict[str, Any] | None = None  # the protocol's structured answer (steps, value, tool log)


class Graded(NamedTuple):
    """What a run's summary needs of one graded attempt."""

    kind: str
    group: str | None
    outcome: str | None  # None: stored without a grade
    passed: bool
    usage: dict[str, int]
    cost: float | None


_COLUMNS = ("a.repeat, a.status, a.response_text, a.finish_reason, a.usage_json, a.cost, a.latency_s, "
            "a.model_calls, a.tries, a.errors_json, a.grade_json, a.started_at, a.finished_at, a.turns_json")
# where each attempt's item JSON is: its own table (schema 2), or each attempt row (schema 1)
_ITEM_SOURCE = {2: ("i.item_json", "attempts a JOIN items i ON i.item_id = a.item_id"),
                1: ("a.item_json", "attempts a")}
_ANSWER = {2: "a.answer_json", 1: "NULL"}


class _Items:
    """Items decoded once per id (a run stores many attempts of each item)."""

    def __init__(self) -> None:
        self._by_text: dict[str, Item] = {}

    def __call__(self, text: str) -> Item:
        item = self._by_text.get(text)
        if item is None:
            item = self._by_text[text] = Item.from_dict(json.loads(text))
        return item


def _result(row: tuple[Any, ...], items: _Items) -> Result:
    (item_json, repeat, status, text, finish, usage, cost, latency, calls, tries, errors, grade,
     started, finished, turns, answer) = row
    return Result(item=items(item_json), repeat=repeat, status=status, text=text,
                  finish_reason=finish, usage=json.loads(usage), cost=cost, latency=latency, model_calls=calls,
                  tries=tries, errors=json.loads(errors),
                  grade=None if grade is None else Grade.from_dict(json.loads(grade)),
                  started_at=started, finished_at=finished, turns=None if turns is None else json.loads(turns),
                  answer=None if answer is None else json.loads(answer))


def _unreadable(run_dir: Path, exc: BaseException) -> UserError:
    why = "a value nested too deeply" if isinstance(exc, RecursionError) else f"{type(exc).__name__}: {str(exc)[:200]}"
    return UserError(f"cannot read the results in {str(run_dir)!r}: {why}")


# the latest row of an (item, repeat) is an error and none of its rows was graded
_FINAL_FAILURE = ("a.status = 'error' AND a.id = "
                  "(SELECT MAX(id) FROM attempts b WHERE b.item_id = a.item_id AND b.repeat = a.repeat) "
                  "AND NOT EXISTS (SELECT 1 FROM attempts c WHERE c.item_id = a.item_id "
                  "AND c.repeat = a.repeat AND c.status = 'done')")


def failed_keys(conn: sqlite3.Connection) -> set[tuple[str, int]]:
    """(item id, repeat) of every attempt of a store that ended without a reply and was never graded."""
    query = f"SELECT a.item_id, a.repeat FROM attempts a WHERE {_FINAL_FAILURE}"
    return {(item_id, repeat) for item_id, repeat in conn.execute(query)}


def failed_grade(errors: list[str]) -> Grade:
    """The grade of an attempt that ended without a reply: no credit, no verdict, its last error."""
    last = (errors[-1] if errors else "unknown error")[:200]
    return Grade(score=0.0, passed=False, outcome=FAILED, detail={"failure": last})


def keyed_run(manifest: Manifest) -> bool:
    """Whether a run's items came from a secret key: recorded by `eval` (options `keyed`); for a
    store written before that, any split but dev and the public targeted ones counts as keyed."""
    keyed = manifest.options.get("keyed") if isinstance(manifest.options, dict) else None
    if isinstance(keyed, bool):
        return keyed
    return manifest.split != "dev" and not manifest.split.startswith("targeted")


def stored_version(conn: sqlite3.Connection) -> int | None:
    """The schema version a store was written with (None for a new, empty file)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.OperationalError:  # no meta table: a new file
        return None
    return None if row is None else int(row[0])


def read_manifest(conn: sqlite3.Connection) -> Manifest | None:
    cur = conn.execute("SELECT * FROM runs")
    row = cur.fetchone()
    if row is None:
        return None
    return Manifest.from_row(dict(zip([d[0] for d in cur.description], row)))


class RunReader:
    """Read access to a finished or running run; never writes."""

    def __init__(self, run_dir: Path) -> None:
        path = run_dir / STORE_NAME
        if not path.is_file():
            raise UserError(f"{str(run_dir)!r} is not a physbench run directory (no {STORE_NAME})")
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        try:
            self.conn.execute("PRAGMA busy_timeout = 10000")
            guard(self.conn, str(run_dir))  # before anything is read: no code in the store runs
            manifest = read_manifest(self.conn)
            version = stored_version(self.conn)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise UserError(f"cannot read the run store in {str(run_dir)!r}: {exc}") from None
        except (UserError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            self.conn.close()
            raise exc if isinstance(exc, UserError) else _unreadable(run_dir, exc) from None
        if manifest is None:
            self.conn.close()
            raise UserError(f"the run store in {str(run_dir)!r} has no manifest")
        self.run_dir = run_dir
        self.manifest = manifest
        self.schema_version = version or 1
        if self.schema_version not in _ITEM_SOURCE:
            self.conn.close()
            raise UserError(f"the run store in {str(run_dir)!r} has schema {self.schema_version}, newer than this "
                            "physbench reads: upgrade physbench")
        item_column, source = _ITEM_SOURCE[self.schema_version]
        self._select = f"SELECT {item_column}, {_COLUMNS}, {_ANSWER[self.schema_version]} FROM {source}"
        self._items = _Items()

    def _decoded(self, query: str) -> Iterator[Result]:
        """The Results of `query`'s rows; a row whose JSON cannot be read (malformed, nested
        thousands deep) is one UserError naming the run, not a traceback."""
        for row in self.conn.execute(query):
            try:
                yield _result(row, self._items)
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
                raise _unreadable(self.run_dir, exc) from None

    def results(self) -> Iterator[Result]:
        """Every graded attempt, in the order it was stored."""
        yield from self._decoded(f"{self._select} WHERE a.status = 'done' ORDER BY a.id")

    def graded(self) -> Iterator[Graded]:
        """The summary's columns of every graded attempt, in the order stored: read from the columns
        (no item, grade or response JSON decoded) where the schema has them, else from `results()`."""
        if self.schema_version < 2:
            for r in self.results():
                g = r.grade
                yield Graded(r.item.kind, item_group(r.item), g.outcome if g else None, bool(g and g.passed),
                             r.usage, r.cost)
            return
        query = ("SELECT kind, item_group, outcome, passed, usage_json, cost FROM attempts "
                 "WHERE status = 'done' ORDER BY id")
        for kind, group, outcome, passed, usage, cost in self.conn.execute(query):
            outcome = RENAMED_OUTCOMES.get(outcome, outcome)  # a store written before an outcome's rename
            try:
                counts = json.loads(usage)
            except (ValueError, TypeError, RecursionError) as exc:
                raise _unreadable(self.run_dir, exc) from None
            yield Graded(kind, group, outcome, bool(passed), counts, cost)

    def failures(self) -> Iterator[Result]:
        """The last error of every attempt that never got graded (what a resume would redo)."""
        yield from self._decoded(f"{self._select} WHERE {_FINAL_FAILURE} ORDER BY a.id")

    def attempts(self) -> Iterator[Result]:
        """Every finished attempt, in the order stored: the graded ones, and each one that ended
        without a reply as a no-credit result whose grade has the outcome `failed` (`failed_grade`)."""
        query = f"{self._select} WHERE a.status = 'done' OR ({_FINAL_FAILURE}) ORDER BY a.id"
        for r in self._decoded(query):
            yield r if r.status == "done" else replace(r, grade=failed_grade(r.errors))

    def count_done(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM attempts WHERE status = 'done'").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "RunReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_run(run_dir: str | os.PathLike[str]) -> RunReader:
    """Open a run directory for reading (UserError if it holds no run)."""
    return RunReader(Path(run_dir))
