"""`python -m physbench`: the command line, set up for a short-lived process.

Importing the command line allocates hundreds of thousands of long-lived objects (modules, classes,
functions); at Python's default threshold the collector walks them over and over for nothing.
Here young collections come less often, and what the imports made is frozen out of every later
walk. At the end, once the exit handlers have run and the output is flushed, the process ends
without the interpreter's module-by-module teardown (tens of milliseconds, nothing left to save).
`physbench.cli.main` called alone (the console script, tests) leaves all this as it is.
"""

import atexit
import gc
import os
import sys

YOUNG_THRESHOLD = 20_000  # allocations between young collections (Python's default: 700)

_thresholds = gc.get_threshold()
gc.set_threshold(max(_thresholds[0], YOUNG_THRESHOLD), _thresholds[1], _thresholds[2])

from physbench.cli import main  # noqa: E402

gc.freeze()


def _exit_code(code: object) -> int:
    """What `sys.exit(code)` would end the process with (a message is printed, as Python does)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _finish(code: int) -> None:
    atexit._run_exitfuncs()  # what the interpreter runs at exit: child processes joined, logs flushed
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


try:
    main()
except SystemExit as exc:
    _finish(_exit_code(exc.code))
_finish(0)
