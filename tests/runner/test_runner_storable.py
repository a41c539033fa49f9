"""Values from models and servers are stored as they came where SQLite can hold them and
sanitised where not (runner/storable.py; issue 33, item 6)."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from physbench.runner import storable

ANY_TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x1F64F))  # lone surrogates included
JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-2**80, 2**80) | st.floats() | ANY_TEXT,
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
                       max_leaves=20)


def test_text_keeps_what_utf8_can_hold_and_replaces_only_lone_surrogates() -> None:
    assert storable.text("dose \U0001F600 \u00e9") == "dose \U0001F600 \u00e9"
    assert storable.text("a\ud800b\udfffc") == "a\ufffdb\ufffdc"
    assert storable.text(None) is None


@given(ANY_TEXT)
def test_stored_text_is_utf8_and_unchanged_when_it_was(text: str) -> None:
    out = storable.text(text)
    out.encode("utf-8")
    assert len(out) == len(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert out == text


@given(JSONISH)
def test_json_text_is_strict_json_sqlite_stores_and_reads_back(value: object) -> None:
    text = storable.json_text(value)

    def refuse(constant: str) -> None:
        raise AssertionError(f"bare {constant}")

    back = json.loads(text, parse_constant=refuse)
    json.dumps(back, ensure_ascii=False).encode("utf-8")  # no lone surrogate survives the round trip
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (x TEXT, n INTEGER)")
    conn.execute("INSERT INTO t VALUES (?, ?)", (text, storable.integer(10**30)))
    assert conn.execute("SELECT x, n FROM t").fetchone() == (text, 2**63 - 1)


def test_json_text_of_a_storable_value_is_json_dumps() -> None:
    value = {"a": [1, 2.5, "x\U0001F600"], "b": None, "c": 2**62}
    assert storable.json_text(value) == json.dumps(value)


def test_the_writer_rewrites_a_batch_sqlite_refuses_with_every_value_storable(tmp_path) -> None:
    """The last defence: a row that reached the writer unsanitised (here a lone surrogate and an
    integer past 64 bits, put in by hand) is written with U+FFFD and the integer clamped."""
    from physbench.core.items import Item, Message
    from physbench.runner.records import AttemptRecord
    from physbench.runner.store import RowWriter, RunStore

    RunStore(tmp_path).close()  # makes the schema
    item = Item(id="x/1", suite="fixture", kind="calculation", messages=(Message("user", "q"),))
    row = list(AttemptRecord(item, 0, "error", 1.0, 2.0, errors=["e"]).row())
    row[5] = "reply \ud800"  # response_text
    row[12] = 10**30  # model_calls
    writer = RowWriter(tmp_path)
    assert writer.write([tuple(row)]) == 1
    writer.close()
    conn = sqlite3.connect(tmp_path / "store.sqlite")
    assert conn.execute("SELECT response_text, model_calls FROM attempts").fetchone() == ("reply \ufffd", 2**63 - 1)
    conn.close()
