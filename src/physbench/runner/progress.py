"""Progress of a run: a rich bar on a terminal, plain periodic lines otherwise (CI logs).

The live line and the final summary count the same things: tokens are prompt + completion
(`attempt_tokens`), and the rate is the attempts of this invocation over the same interval, from
the start of the run to `Tally.stop()` once every attempt is stored.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Mapping, Protocol, TextIO


def attempt_tokens(usage: Mapping[str, int]) -> int:
    """The tokens an attempt spent: prompt + completion (what the summary adds up, too)."""
    return int(usage.get("prompt_tokens", 0) or 0) + int(usage.get("completion_tokens", 0) or 0)


@dataclass
class Tally:
    """Live counts of a run; the summary is built from the store, not from these."""

    total: int
    done_before: int = 0
    done: int = 0
    errors: int = 0
    tokens: int = 0
    started: float = field(default_factory=time.perf_counter)
    stopped: float | None = None

    @property
    def finished(self) -> int:
        return self.done_before + self.done + self.errors

    def stop(self) -> None:
        """Fix the end of the interval that `elapsed` and `rate` measure."""
        if self.stopped is None:
            self.stopped = time.perf_counter()

    def elapsed(self) -> float:
        return (self.stopped if self.stopped is not None else time.perf_counter()) - self.started

    def rate(self) -> float:
        """Attempts of this invocation per second."""
        elapsed = self.elapsed()
        return (self.done + self.errors) / elapsed if elapsed > 0 else 0.0


def rate_text(rate: float) -> str:
    """A rate with enough digits to be read: 0.042, 3.71, 512.3."""
    return f"{rate:.3f}" if rate < 1 else f"{rate:.2f}" if rate < 10 else f"{rate:.1f}"


def count_text(tally: Tally) -> str:
    pct = 100.0 * tally.finished / tally.total if tally.total else 100.0
    return f"{tally.finished}/{tally.total} ({pct:.0f}%)"


MIN_LABEL = 12  # a label cut shorter than this says nothing; it is left out instead


def status_text(label: str, tally: Tally, width: int) -> str:
    """The live status in at most `width` columns, the count first so that it always survives:
    the label is shortened, then left out, then tokens, errors and rate, in that order."""
    stats = [count_text(tally), f"{rate_text(tally.rate())} items/s", f"{tally.errors} errors",
             f"{tally.tokens:,} tokens"]
    while len(stats) > 1 and len(", ".join(stats)) > width:
        stats.pop()
    line = ", ".join(stats)
    room = width - len(line) - len(" - ")
    if len(stats) == 4 and room >= min(MIN_LABEL, len(label)):
        line += " - " + (label if len(label) <= room else label[: room - 1] + "…")
    return line


class Progress(Protocol):
    def update(self, tally: Tally) -> None: ...
    def close(self, tally: Tally) -> None: ...


class PlainProgress:
    """One line every `interval_s` seconds, and one at the end (printed by `close` only, so a slow
    run whose last attempt lands on an interval does not print its last line twice)."""

    def __init__(self, stream: TextIO, label: str, interval_s: float = 10.0) -> None:
        self.stream, self.label, self.interval_s = stream, label, interval_s
        self._next = time.perf_counter() + interval_s

    def _line(self, tally: Tally) -> None:
        print(f"physbench: {self.label}: {count_text(tally)}, {rate_text(tally.rate())} items/s, "
              f"{tally.errors} errors, {tally.tokens:,} tokens", file=self.stream, flush=True)

    def update(self, tally: Tally) -> None:
        now = time.perf_counter()
        if now >= self._next and tally.finished < tally.total:
            self._next = now + self.interval_s
            self._line(tally)

    def close(self, tally: Tally) -> None:
        self._line(tally)


ELAPSED_COLUMNS = 8  # "10:00:00"
GAPS = 2  # rich puts one space between columns


class RichProgress:
    """A live line: the status text fitted to the terminal, a bar where there is room, elapsed time."""

    def __init__(self, stream: TextIO, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.label = label
        self._console = Console(file=stream)
        self._bar_column = BarColumn(bar_width=20)
        self._bar = Progress(TextColumn("{task.fields[status]}", markup=False), self._bar_column,
                             TimeElapsedColumn(), console=self._console, refresh_per_second=4, transient=False)
        self._task = self._bar.add_task("", total=None, status=label)
        self._bar.start()

    def update(self, tally: Tally) -> None:
        width = self._console.width
        bar = min(20, max(0, (width - ELAPSED_COLUMNS - GAPS) // 4))
        self._bar_column.bar_width = bar
        self._bar.update(self._task, total=tally.total, completed=tally.finished,
                         status=status_text(self.label, tally, width - bar - ELAPSED_COLUMNS - GAPS))

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
