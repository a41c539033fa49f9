"""Fixtures shared by every test folder."""

from __future__ import annotations

import subprocess
from typing import Any, Callable, Iterator

import pytest

from physbench.cli import main
from physbench.runner.mock_server import MockConfig, MockServer


@pytest.fixture
def cli(capsys):
    """`physbench ARGS` in this process: (exit code, stdout, stderr) as a CompletedProcess."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        with pytest.raises(SystemExit) as exit_:
            main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, exit_.value.code, out.out, out.err)

    return run


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
