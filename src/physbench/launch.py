"""The process entry point of both `physbench` (the console script) and `python -m physbench`.

Importing the command line allocates hundreds of thousands of long-lived objects (modules, classes,
functions); at Python's default threshold the collector walks them over and over for nothing.
Here young collections come less often, and what the imports made is frozen out of every later
walk. At the end, once the exit handlers have run and the output is flushed, the process ends
without the interpreter's module-by-module teardown (tens of milliseconds, nothing left to save).
`physbench.cli.main` called alone (tests, embedding) leaves all this as it is.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from typing import NoReturn

YOUNG_THRESHOLD = 20_000  # allocations between young collections (Python's default: 700)


def _exit_code(code: object) -> int:
    """What `sys.exit(code)` would end the process with (a message is printed, as Python does)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finish(code: int) -> NoReturn:
    atexit._run_exitfuncs()  # what the interpreter runs at exit: child processes joined, logs flushed
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


def run() -> NoReturn:
    """Tune the collector, import and run the command line, and end the process with its exit code."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], YOUNG_THRESHOLD), thresholds[1], thresholds[2])
    try:
        from physbench.cli import main

        gc.freeze()
        main()
    except SystemExit as exc:
        _finish(_exit_code(exc.code))
    except KeyboardInterrupt:  # a Ctrl-C while the command line is still being imported
        print("physbench: interrupted; re-run the same command to resume", file=sys.stderr)
        _finish(130)
    _finish(0)
