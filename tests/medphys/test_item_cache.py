"""The medphys item cache gives exactly the items a fresh build gives, and never stores secret items."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from physbench.core import caches
from physbench.suites.medphys.splits import split_items


def _fresh(monkeypatch: pytest.MonkeyPatch, split: str, limit: int | None) -> list:
    with monkeypatch.context() as m:
        m.setenv(caches.CACHE_ENV, "0")
        return split_items(split, limit=limit)


@pytest.mark.parametrize("split,limit", [("dev", 40), ("targeted:mu:2:isq_inverted:2", None)])
def test_cached_items_equal_freshly_generated_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   split: str, limit: int | None) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    written = split_items(split, limit=limit)
    assert len(list(tmp_path.glob("medphys-items-*.json"))) == 1
    read = split_items(split, limit=limit)  # from the entry just written
    fresh = _fresh(monkeypatch, split, limit)
    assert read == fresh == written
    assert [i.to_json() for i in read] == [i.to_json() for i in fresh]


def test_a_corrupt_item_entry_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    split_items("dev", limit=12)
    (entry,) = tmp_path.glob("medphys-items-*.json")
    text = entry.read_text()
    entry.write_text(text[: len(text) // 2])  # truncated, as by a crash mid-write without the rename
    assert split_items("dev", limit=12) == _fresh(monkeypatch, "dev", 12)
    assert entry.read_text() == text


def test_an_entry_whose_items_do_not_decode_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    split_items("dev", limit=3)
    (entry,) = tmp_path.glob("medphys-items-*.json")
    good = json.loads(entry.read_text())
    for stale in (['{"id": "medphys/x"}'] * 3, [{"id": "not a text"}], "not a list"):  # right key, wrong content
        entry.write_text(json.dumps({"key": good["key"], "data": stale}))
        assert split_items("dev", limit=3) == _fresh(monkeypatch, "dev", 3)
        assert json.loads(entry.read_text()) == good


def test_keyed_splits_are_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(caches.CACHE_DIR_ENV, str(tmp_path))
    split_items("test-half", key=bytes(range(32)), limit=5)
    assert os.listdir(tmp_path) == []
