"""`--out FILE` suffixes, checked alike by every command that writes a file: an unknown one is one
error line (exit 2) before anything is written, never a file in another format than its name says."""

from __future__ import annotations

from pathlib import PurePath
from typing import Mapping

from physbench.core.errors import UserError


def out_format(out: str, formats: Mapping[str, str], fmt: str | None = None) -> str:
    """The format `--out OUT` asks for by its suffix (`formats`: suffix -> format); `--format FMT`,
    when given, must agree with it."""
    suffix = PurePath(out).suffix.lower()
    listed = " or ".join(sorted(formats))
    if suffix not in formats:
        shown = f"unknown suffix {suffix!r}" if suffix else "no suffix"
        raise UserError(f"--out {out}: {shown}; give a {listed} file")
    if fmt is not None and fmt != formats[suffix]:
        raise UserError(f"--format {fmt} does not match --out {out} (a {suffix} file is {formats[suffix]})")
    return formats[suffix]
