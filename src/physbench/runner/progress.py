"""Progress of a run: a rich bar on a terminal, plain periodic lines otherwise (CI logs)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Protocol, TextIO


@dataclass
class Tally:
    """Live counts of a run; the summary is built from the store, not from these."""

    total: int
    done_before: int = 0
    done: int = 0
    errors: int = 0
    tokens: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def finished(self) -> int:
        return self.done_before + self.done + self.errors

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return (self.done + self.errors) / elapsed if elapsed > 0 else 0.0


def rate_text(rate: float) -> str:
    """A rate with enough digits to be read: 0.042, 3.71, 512.3."""
    return f"{rate:.3f}" if rate < 1 else f"{rate:.2f}" if rate < 10 else f"{rate:.1f}"


class Progress(Protocol):
    def update(self, tally: Tally) -> None: ...
    def close(self, tally: Tally) -> None: ...


class PlainProgress:
    """One line every `interval_s` seconds, and one at the end."""

    def __init__(self, stream: TextIO, label: str, interval_s: float = 10.0) -> None:
        self.stream, self.label, self.interval_s = stream, label, interval_s
        self._next = time.perf_counter() + interval_s

    def _line(self, tally: Tally) -> None:
        pct = 100.0 * tally.finished / tally.total if tally.total else 100.0
        print(f"physbench: {self.label}: {tally.finished}/{tally.total} ({pct:.0f}%), "
              f"{rate_text(tally.rate())} items/s, {tally.errors} errors, {tally.tokens:,} tokens",
              file=self.stream, flush=True)

    def update(self, tally: Tally) -> None:
        now = time.perf_counter()
        if now >= self._next:
            self._next = now + self.interval_s
            self._line(tally)

    def close(self, tally: Tally) -> None:
        self._line(tally)


class RichProgress:
    """A live bar: done/total, rate, errors, tokens; redrawn at most a few times a second."""

    def __init__(self, stream: TextIO, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TextColumn("{task.fields[rate]} items/s"), TextColumn("{task.fields[errors]} errors"),
                             TextColumn("{task.fields[tokens]:,} tokens"), TimeElapsedColumn(),
                             console=Console(file=stream), refresh_per_second=4, transient=False)
        self._task = self._bar.add_task(label, total=None, rate="0", errors=0, tokens=0)
        self._bar.start()

    def update(self, tally: Tally) -> None:
        self._bar.update(self._task, total=tally.total, completed=tally.finished, rate=rate_text(tally.rate()),
                         errors=tally.errors, tokens=tally.tokens)

    def close(self, tally: Tally) -> None:
        self.update(tally)
        self._bar.stop()


class NoProgress:
    def update(self, tally: Tally) -> None:
        return None

    def close(self, tally: Tally) -> None:
        return None


def make_progress(label: str, stream: TextIO | None = None, *, quiet: bool = False) -> Progress:
    """Rich on a terminal, plain lines otherwise, nothing when quiet."""
    if quiet:
        return NoProgress()
    stream = stream or sys.stderr
    if stream.isatty():
        return RichProgress(stream, label)
    return PlainProgress(stream, label)
