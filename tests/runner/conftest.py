"""Shared fixtures of the runner tests: the fixture suite and a loopback mock server."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture_suite  # noqa: E402  (registers the suite "fixture")

from physbench.runner.mock_server import MockConfig, MockServer  # noqa: E402


@pytest.fixture
def suite() -> fixture_suite.FixtureSuite:
    return fixture_suite.SUITE


@pytest.fixture
def mock_server() -> Iterator[Callable[..., MockServer]]:
    """A factory: `mock_server(**config)` starts a server on 127.0.0.1; all are stopped after the test."""
    servers: list[MockServer] = []

    def start(**config: Any) -> MockServer:
        server = MockServer(MockConfig.from_dict(config)).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
