"""Files written whole: they get the mode a plain write would give (issue 16: reports came out 0600)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from physbench.core.files import write_atomic

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask():
    """Set the umask for one test and restore it after."""
    saved = os.umask(0o022)
    os.umask(saved)

    def set_(mask: int) -> None:
        os.umask(mask)

    yield set_
    os.umask(saved)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_new_file_gets_0666_less_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    path = tmp_path / "sub" / "out.txt"
    write_atomic(path, lambda fh: fh.write(b"x"))
    assert path.read_bytes() == b"x" and _mode(path) == expected


def test_a_replaced_file_keeps_its_mode(tmp_path, umask):
    umask(0o022)
    path = tmp_path / "out.txt"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_atomic(path, lambda fh: fh.write(b"new"))
    assert path.read_bytes() == b"new" and _mode(path) == 0o640


def test_a_failed_write_leaves_nothing(tmp_path):
    path = tmp_path / "out.txt"

    def boom(fh):
        fh.write(b"half")
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        write_atomic(path, boom)
    assert list(tmp_path.iterdir()) == []
