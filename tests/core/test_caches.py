"""The on-disk cache: keyed by the sources that build the data, atomic, and never trusted blindly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physbench.core import caches


def _build_counter() -> tuple[list[int], object]:
    calls: list[int] = []

    def build() -> dict[str, object]:
        calls.append(1)
        return {"values": [1.5, 2.25], "name": "x"}

    return calls, build


def _cached(build: object, request: dict[str, object] | None = None) -> object:
    return caches.cached("demo", sources=("core",), request=request or {"n": 1}, build=build,  # type: ignore[arg-type]
                         encode=lambda v: v, decode=lambda d: {"values": list(d["values"]), "name": str(d["name"])})


def test_second_call_reads_the_entry_instead_of_building(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    calls, build = _build_counter()
    first, second = _cached(build), _cached(build)
    assert first == second == {"values": [1.5, 2.25], "name": "x"}
    assert len(calls) == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_different_request_is_a_different_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    calls, build = _build_counter()
    _cached(build, {"n": 1})
    _cached(build, {"n": 2})
    assert len(calls) == 2 and len(list(tmp_path.glob("demo-*.json"))) == 2


@pytest.mark.parametrize("damage", [b"", b"{\"key\": ", b"\x00\xff\xfe binary", b"[1, 2]", b"{\"key\": \"other\", \"data\": 1}",
                                    b"{\"key\": \"KEY\", \"data\": {\"values\": 3}}"])
def test_a_corrupt_or_foreign_entry_is_rebuilt_and_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            damage: bytes) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    calls, build = _build_counter()
    _cached(build)
    (entry,) = tmp_path.glob("demo-*.json")
    key = json.loads(entry.read_text())["key"]
    entry.write_bytes(damage.replace(b"KEY", key.encode()))
    assert _cached(build) == {"values": [1.5, 2.25], "name": "x"}
    assert len(calls) == 2
    assert json.loads(entry.read_text())["data"] == {"values": [1.5, 2.25], "name": "x"}  # rewritten whole
    assert _cached(build) and len(calls) == 2


def test_editing_a_source_file_changes_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "physbench"
    (package / "core").mkdir(parents=True)
    (package / "core" / "a.py").write_text("X = 1\n")
    monkeypatch.setattr(caches, "PACKAGE_ROOT", package)
    caches.source_digest.cache_clear()
    before = caches.entry_key("demo", ("core",), {"n": 1})
    (package / "core" / "a.py").write_text("X = 2\n")
    caches.source_digest.cache_clear()
    after = caches.entry_key("demo", ("core",), {"n": 1})
    (package / "core" / "b.txt").write_text("new data file\n")
    caches.source_digest.cache_clear()
    added = caches.entry_key("demo", ("core",), {"n": 1})
    caches.source_digest.cache_clear()
    assert len({before, after, added}) == 3


def test_turned_off_nothing_is_read_or_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(caches.CACHE_ENV, "0")
    calls, build = _build_counter()
    _cached(build)
    _cached(build)
    assert len(calls) == 2 and list(tmp_path.iterdir()) == []


def test_an_unwritable_directory_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(blocker / "cache"))
    calls, build = _build_counter()
    assert _cached(build) == _cached(build)
    assert len(calls) == 2


def test_the_default_directory_is_the_user_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(caches.CACHE_DIR_ENV, raising=False)
    monkeypatch.delenv(caches.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert caches.cache_dir() == tmp_path / "physbench"
