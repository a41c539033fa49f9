"""Files written whole or not at all: through a temporary file in the same folder, renamed into place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

from physbench.core.errors import UserError


def write_atomic(path: Path, write: Callable[[BinaryIO], object], *, make_folder: bool = True) -> None:
    """Call `write(fh)` on a temporary file and rename it to `path` when it returns; a folder that
    cannot be made or written is one UserError, and nothing half-written is left behind."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{path} is a directory")
    folder = path.parent if str(path.parent) else Path(".")
    try:
        if make_folder:
            folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UserError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
