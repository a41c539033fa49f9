"""The models' tests use the runner's fixture suite (tests/runner/fixture_suite.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))

import fixture_suite  # noqa: E402,F401  (registers the suite "fixture")
