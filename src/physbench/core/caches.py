"""On-disk caches of data that the code alone determines and that is slow to rebuild.

A cache entry is one JSON file named by a digest of the package version, the bytes of the source
files that produce the data, and the request (a split, a limit...): editing any of those sources
gives a new name, so a stale entry is never read. Entries are written to a temporary file and
renamed into place, so a reader sees a whole file or none; an entry that cannot be read or decoded
(truncated, hand-edited, from another layout) counts as missing and is rebuilt and replaced.

`PHYSBENCH_CACHE_DIR` names the directory (default: `$XDG_CACHE_HOME/physbench`, else
`~/.cache/physbench`); `PHYSBENCH_CACHE=0` turns every cache off. Failing to write is never an
error: the data was built anyway.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

T = TypeVar("T")
_EXIT_HOOKS: list[Callable[[], None]] = []

CACHE_DIR_ENV = "PHYSBENCH_CACHE_DIR"
CACHE_ENV = "PHYSBENCH_CACHE"  # "0" turns the caches off
FORMAT = 1  # the layout of an entry file; bump it when that layout changes
PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # src/physbench


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is turned off."""
    if os.environ.get(CACHE_ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return None
    chosen = os.environ.get(CACHE_DIR_ENV)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "physbench"


@lru_cache(maxsize=None)
def source_digest(packages: tuple[str, ...]) -> str:
    """SHA-256 of the package version and of every .py/.txt file under the given folders of the
    package (paths relative to src/physbench, e.g. "core", "suites/medphys"), in a fixed order."""
    from physbench import __version__

    h = hashlib.sha256(f"physbench {__version__} format {FORMAT}\n".encode())
    for folder in sorted(set(packages)):
        root = PACKAGE_ROOT / folder
        files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".txt") and p.is_file())
        for path in files:
            h.update(path.relative_to(PACKAGE_ROOT).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def entry_key(name: str, sources: tuple[str, ...], request: Mapping[str, Any]) -> str:
    """The digest that names one entry: what the data is, which code builds it, what was asked."""
    text = json.dumps({"name": name, "sources": source_digest(sources), "request": request}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(directory: Path, name: str, key: str) -> Path:
    return directory / f"{name}-{key[:32]}.json"


def read_entry(directory: Path, name: str, key: str) -> Any | None:
    """The data of an entry, or None when it is missing, unreadable or not for this key."""
    try:
        with open(_path(directory, name, key), "rb") as fh:
            entry = json.loads(fh.read())
    except (OSError, ValueError):  # missing, or not JSON (truncated, edited, binary)
        return None
    if not isinstance(entry, dict) or entry.get("key") != key or "data" not in entry:
        return None
    return entry["data"]


def write_entry(directory: Path, name: str, key: str, data: Any) -> bool:
    """Write an entry atomically (temporary file, then rename); False when it could not be written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=directory)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "data": data}, fh, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, _path(directory, name, key))
        return True
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def cached(name: str, *, sources: tuple[str, ...], request: Mapping[str, Any], build: Callable[[], T],
           encode: Callable[[T], Any], decode: Callable[[Any], T]) -> T:
    """`build()`, or its result as stored by an earlier call with the same sources and request.

    `encode` turns the result into plain JSON and `decode` back; a `decode` that raises (an entry
    of the right name and key but unexpected content) means the entry is rebuilt.
    """
    directory = cache_dir()
    if directory is None:
        return build()
    key = entry_key(name, sources, request)
    data = read_entry(directory, name, key)
    if data is not None:
        try:
            return decode(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # not what this code writes: rebuild it below
    value = build()
    write_entry(directory, name, key, encode(value))
    return value


def at_exit(hook: Callable[[], None]) -> None:
    """Run `hook` from `run_exit_hooks()`: a forked worker (which skips atexit) calls that before it
    ends, so what it learned (the unit table) is saved too."""
    if hook not in _EXIT_HOOKS:
        _EXIT_HOOKS.append(hook)


def run_exit_hooks() -> None:
    """Run the registered hooks; one that fails does not stop the others (a cache is never an error)."""
    for hook in list(_EXIT_HOOKS):
        try:
            hook()
        except Exception:
            pass
