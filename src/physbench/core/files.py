"""Files written whole or not at all: through a temporary file in the same folder, renamed into place."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

from physbench.core.errors import UserError


def _umask() -> int:
    """The process umask, read without changing it where Linux reports it (else set and restored)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode(path: Path) -> int:
    """The mode a plain `open(path, "w")` would leave: the old file's when it is replaced, else
    0666 less the umask (a temporary file starts at 0600, which is not what the user asked for)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


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
        if hasattr(os, "fchmod"):  # POSIX
            os.fchmod(fd, file_mode(path))
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_capped(path: str | Path, where: str, max_bytes: int) -> bytes:
    """The bytes of a file the user named, read up to `max_bytes` and refused beyond: a device or
    pipe that never ends (/dev/zero) is "larger than" rather than read until memory runs out. A
    directory, a missing, oversized or unreadable file is one UserError starting with `where`."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UserError(f"{where}: is a directory, not a file")
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise UserError(f"{where}: no such file") from None
    except OSError as exc:
        raise UserError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise UserError(f"{where}: larger than {max_bytes} bytes")
    return data


def read_small_text(path: str, where: str, max_bytes: int) -> str:
    """The UTF-8 text of a small file the user named (`where` starts each error line, e.g. the option);
    a directory, a missing, oversized, unreadable or binary file is one UserError."""
    try:
        return read_capped(path, where, max_bytes).decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{where}: not a UTF-8 text file") from None
