"""Stores written before items moved to their own table (schema 1, the item JSON on every attempt,
medphys references with a top-level band) are read by `physbench report`; `physbench eval` refuses to
resume one with one line saying to use a new run directory (README, "Run stores")."""

from __future__ import annotations

import json
import sqlite3


def _downgrade_to_schema_1(store) -> None:
    conn = sqlite3.connect(store)
    conn.execute("ALTER TABLE attempts ADD COLUMN item_json TEXT")
    for item_id, text in conn.execute("SELECT item_id, item_json FROM items").fetchall():
        item = json.loads(text)
        item["band"] = item["reference"].pop("band")  # the old shape: the band beside the reference
        conn.execute("UPDATE attempts SET item_json = ? WHERE item_id = ?", (json.dumps(item), item_id))
    conn.execute("DROP TABLE items")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_a_schema_1_store_is_reported_but_not_resumed(cli, tmp_path):
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--model", "oracle", "--limit", "4", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    before = json.loads(r.stdout)
    _downgrade_to_schema_1(run / "store.sqlite")

    rep = cli("report", str(run), "--out", str(tmp_path / "rep"), "--json")
    assert rep.returncode == 0, rep.stderr
    (summary,) = json.loads((tmp_path / "rep" / "report.json").read_text())["runs"]
    assert (summary["n_done"], summary["n_correct"]) == (before["n_done"], before["n_correct"]) == (4, 4)

    again = cli("eval", "medphys", "--model", "oracle", "--limit", "4", "--run-dir", str(run), "--quiet")
    assert again.returncode == 2
    assert "has schema 1" in again.stderr and "new --run-dir" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
