"""`--key-file` with the public dev split is refused in `eval` and `export` (issue 16: it was silently
ignored, so a user believed the keyed items had run)."""

from __future__ import annotations

import pytest

from physbench.core.errors import UserError
from physbench.runner.evaluate import EvalConfig, load_items


def _one_line(r) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("physbench: error: "), r.stderr
    return lines[0]


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "k.hex"
    path.write_text("ab" * 32)
    return path


@pytest.mark.parametrize("split_args", [[], ["--split", "dev"]])
def test_eval_refuses_a_key_file_with_the_dev_split(cli, tmp_path, key, split_args):
    run = tmp_path / "run"
    line = _one_line(cli("eval", "medphys", *split_args, "--key-file", str(key), "--model", "oracle", "--limit", "1",
                         "--run-dir", str(run), "--quiet"))
    assert "--key-file is only for a keyed split" in line
    assert not run.exists()


def test_export_refuses_a_key_file_with_the_dev_split_and_writes_nothing(cli, tmp_path, key):
    out = tmp_path / "items.jsonl"
    line = _one_line(cli("export", "medphys", "--key-file", str(key), "--out", str(out), "--limit", "2"))
    assert "--key-file is only for a keyed split" in line
    assert not out.exists()


def test_the_dev_split_is_refused_before_the_key_file_is_read(cli, tmp_path):
    line = _one_line(cli("export", "medphys", "--key-file", str(tmp_path / "missing"), "--out",
                         str(tmp_path / "o.jsonl")))
    assert "--key-file is only for a keyed split" in line


def test_the_library_call_refuses_a_dev_key_too():
    with pytest.raises(UserError, match="only for a keyed split"):
        load_items(EvalConfig(suite="medphys", split="dev", key=b"k" * 32, limit=1))
