"""Shared fixtures of the runner tests: the fixture suite (the mock server fixture is in tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture_suite  # noqa: E402  (registers the suite "fixture")


@pytest.fixture
def suite() -> fixture_suite.FixtureSuite:
    return fixture_suite.SUITE
