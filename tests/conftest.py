"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
import subprocess
from typing import Any, Callable, Iterator

import pytest
from hypothesis import settings

from physbench.cli import main
from physbench.core.caches import CACHE_DIR_ENV, CACHE_ENV, run_exit_hooks
from physbench.runner.mock_server import MockConfig, MockServer

# Property tests are reproducible: every hypothesis test draws the same examples on every run and
# machine (derandomize: the seed comes from the test itself) and keeps no example database; no
# deadline, since a time limit per example is a timed assertion that a loaded machine fails. A
# random search is a choice: HYPOTHESIS_PROFILE=explore (new examples on each run).
settings.register_profile("physbench", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, database=None, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "physbench"))


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The on-disk caches (core/caches.py) of this test session live in a temporary directory,
    never in the user's cache: tests start with it empty and leave nothing behind."""
    os.environ[CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("physbench-cache"))
    os.environ.pop(CACHE_ENV, None)
    yield
    run_exit_hooks()  # save what this process learned (the unit table) while the directory is still ours
    os.environ[CACHE_ENV] = "0"  # and nothing after the session (atexit) writes to the user's cache


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
