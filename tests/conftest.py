"""Fixtures shared by every test folder."""

from __future__ import annotations

import subprocess

import pytest

from physbench.cli import main


@pytest.fixture
def cli(capsys):
    """`physbench ARGS` in this process: (exit code, stdout, stderr) as a CompletedProcess."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        with pytest.raises(SystemExit) as exit_:
            main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, exit_.value.code, out.out, out.err)

    return run
