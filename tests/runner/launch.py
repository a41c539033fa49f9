"""Runs the physbench CLI with the fixture suite registered (the tests start it as a subprocess)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture_suite  # noqa: E402,F401  (registers the suite)

from physbench.cli import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
