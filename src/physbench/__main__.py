"""`python -m physbench`: the command line, with the garbage collector set for a short-lived process.

Importing the command line allocates hundreds of thousands of long-lived objects (modules, classes,
functions); at Python's default threshold the collector walks them over and over for nothing.
Here young collections come less often, and what the imports made is frozen out of every later
walk. `physbench.cli.main` called alone (the console script, tests) leaves the collector as it is.
"""

import gc

YOUNG_THRESHOLD = 20_000  # allocations between young collections (Python's default: 700)

_thresholds = gc.get_threshold()
gc.set_threshold(max(_thresholds[0], YOUNG_THRESHOLD), _thresholds[1], _thresholds[2])

from physbench.cli import main  # noqa: E402

gc.freeze()
main()
