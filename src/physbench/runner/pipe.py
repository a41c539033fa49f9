"""Length-prefixed frames over an OS pipe, between the event loop and the grading process.

The sender never blocks the event loop: a frame the pipe cannot take at once waits in a buffer,
written out when the loop reports the pipe writable again (the grading process may still be
warming up, or busy with a large batch). The grading process's receiver blocks, reading large
chunks and handing out one frame at a time; the event loop's (for the grading process's replies)
takes whatever whole frames have arrived when the loop says the pipe is readable. An empty frame
is the end-of-run sentinel.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
from collections import deque

HEADER = struct.Struct("!I")
PIPE_BYTES = 1 << 20  # ask Linux for a 1 MiB pipe (default 64 KiB): fewer wake-ups on both sides
READ_BYTES = 1 << 20
WRITE_BYTES = 1 << 20  # the most one write() is given: a blocking write then returns within one pipe's worth


def make_pipe() -> tuple[int, int]:
    """(read fd, write fd) of a new pipe, enlarged where the system allows."""
    read_fd, write_fd = os.pipe()
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        try:
            fcntl.fcntl(write_fd, set_size, PIPE_BYTES)
        except OSError:  # over /proc/sys/fs/pipe-max-size: keep the default
            pass
    return read_fd, write_fd


class PipeClosed(RuntimeError):
    """The receiving end is gone."""


class FrameSender:
    """Buffered, non-blocking sending end; `close()` writes out what is left, blocking."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self._out = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop watching for writability
        self.failure: PipeClosed | None = None
        self._ends: deque[int] = deque()  # where each queued frame ends, counted in bytes ever queued
        self._queued = self._written = 0
        self._cut = False
        self._sentinel_at: int | None = None  # where the end-of-run sentinel ends, once queued

    def cut(self) -> None:
        """Send no frame that has not begun (safe to call from a signal handler): the frame being
        written is finished, so the receiver never reads half of one; the rest is dropped."""
        self._cut = True

    def _drop_unsent(self) -> None:
        """Keep only the rest of the frame being written (and the sentinel, once close() has queued it)."""
        while self._ends and self._ends[0] <= self._written:
            self._ends.popleft()
        if self._ends:
            del self._out[self._ends[0] - self._written:]
            self._queued = self._ends[0]
            self._ends = deque([self._queued])
        else:
            self._out.clear()
        if self._sentinel_at is not None and self._sentinel_at not in self._ends and self._sentinel_at > self._written:
            self._queue_sentinel()

    def _queue_sentinel(self) -> None:
        self._out += HEADER.pack(0)
        self._queued += HEADER.size
        self._ends.append(self._queued)
        self._sentinel_at = self._queued

    @property
    def pending(self) -> int:
        """Bytes waiting in the buffer."""
        return len(self._out)

    def send(self, payload: bytes) -> None:
        """Queue one frame and write as much as the pipe takes now; raises PipeClosed if it is gone."""
        if self.failure is not None:
            raise self.failure
        if self._cut:
            return
        self._out += HEADER.pack(len(payload))
        self._out += payload
        self._queued += HEADER.size + len(payload)
        self._ends.append(self._queued)
        if self._loop is not None:
            return  # already waiting for the pipe: the frame goes out behind the ones queued
        self._write_some()
        if self._out:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop: nothing else to do meanwhile, so wait
                self._write_all()
                return
            loop.add_writer(self.fd, self._on_writable)
            self._loop = loop

    def _write_some(self) -> None:
        try:
            with memoryview(self._out) as view, view[:WRITE_BYTES] as part:
                written = os.write(self.fd, part)
        except BlockingIOError:
            return
        except OSError:  # EPIPE and the like: the grading process has ended
            self.failure = PipeClosed("the grading process has stopped")
            raise self.failure from None
        del self._out[:written]
        self._written += written

    def _on_writable(self) -> None:
        try:
            self._write_some()
        except PipeClosed:
            self._unwatch()
            return
        if not self._out:
            self._unwatch()

    def _unwatch(self) -> None:
        if self._loop is not None:
            if not self._loop.is_closed():
                self._loop.remove_writer(self.fd)
            self._loop = None

    def _write_all(self) -> None:
        os.set_blocking(self.fd, True)
        try:
            while self._out:
                if self._cut:  # in pieces of at most WRITE_BYTES, so that a cut takes effect soon
                    self._drop_unsent()
                    if not self._out:
                        break
                self._write_some()
        finally:
            os.set_blocking(self.fd, False)

    def close(self, sentinel: bool = True) -> None:
        """Write out the buffer (and the end-of-run sentinel), blocking, then close the pipe."""
        self._unwatch()
        try:
            if self.failure is None:
                if self._cut:
                    self._drop_unsent()
                if sentinel:
                    self._queue_sentinel()
                self._write_all()
        finally:
            os.close(self.fd)
        if self.failure is not None:
            raise self.failure


class FrameReceiver:
    """Blocking receiving end (the grading process); reads in large chunks, hands out one frame at a time."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buf = bytearray()
        self._at = 0  # where the next frame starts in the buffer
        self._eof = False

    def _frame(self) -> bytes | None:
        available = len(self._buf) - self._at
        if available < HEADER.size:
            return None
        (n,) = HEADER.unpack_from(self._buf, self._at)
        if available - HEADER.size < n:
            return None
        start = self._at + HEADER.size
        self._at = start + n
        return bytes(self._buf[start:self._at])

    def receive(self) -> bytes | None:
        """The next frame, waiting for it; None once the pipe is closed and no whole frame is left
        (a partial frame at the end is a sender that died mid-write)."""
        while True:
            frame = self._frame()
            if frame is not None:
                return frame
            if self._eof:
                return None
            del self._buf[:self._at]
            self._at = 0
            chunk = os.read(self.fd, READ_BYTES)
            if not chunk:
                self._eof = True
            self._buf += chunk

    def ready(self) -> list[bytes] | None:
        """The whole frames that have arrived, without waiting (the fd must be non-blocking: a reader
        the event loop wakes); None once the pipe is closed and they have all been handed out."""
        try:
            chunk = os.read(self.fd, READ_BYTES)
        except BlockingIOError:
            chunk = None
        if chunk == b"":
            self._eof = True
        elif chunk:
            self._buf += chunk
        frames = []
        while (frame := self._frame()) is not None:
            frames.append(frame)
        del self._buf[:self._at]
        self._at = 0
        return None if self._eof and not frames else frames

    def close(self) -> None:
        os.close(self.fd)
