"""Framing shared by the pool, the warm parent and the program's process (no JSON parsing here).

Every message is a 4-byte big-endian length and that many bytes. The warm parent never parses a
program's request or reply: it reads only the small control header (limits, sizes) and moves the
payload between pipes with splice(2), so no previous program's source, arguments, output or
value is ever in its memory when it forks the next program's process.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

HEADER = struct.Struct(">I")
MAX_CONTROL = 1 << 20
MAX_REPLY = 1 << 31  # the zygote caps each reply by the program's own limits first


class WireError(Exception):
    """The peer closed the stream or broke the framing."""


def read_exact(fd: int, n: int, deadline: float | None = None) -> bytes:
    """Exactly n bytes from fd (blocking, or until `deadline`); raises WireError on EOF or timeout."""
    parts, got = [], 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise WireError("timed out")
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise WireError("stream closed")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd: int, limit: int = MAX_CONTROL, deadline: float | None = None) -> bytes:
    (size,) = HEADER.unpack(read_exact(fd, HEADER.size, deadline))
    if size > limit:
        raise WireError(f"frame of {size} bytes is over the {limit} byte limit")
    return read_exact(fd, size, deadline)


def write_json(fd: int, message: Any) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    write_all(fd, HEADER.pack(len(body)) + body)


def read_json(fd: int, deadline: float | None = None) -> Any:
    return json.loads(read_frame(fd, MAX_CONTROL, deadline))


def move(src: int, dst: int, n: int) -> int:
    """Move n bytes from pipe `src` to pipe `dst` inside the kernel; returns how many moved
    before `src` reached end of file."""
    moved = 0
    while moved < n:
        try:
            k = os.splice(src, dst, n - moved)
        except OSError:  # no splice between these descriptors: copy through a short buffer
            chunk = os.read(src, min(n - moved, 1 << 16))
            k = len(chunk)
            if k:
                write_all(dst, chunk)
            del chunk
        if k == 0:
            break
        moved += k
    return moved
