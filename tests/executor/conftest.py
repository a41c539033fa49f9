"""Shared sandbox pools for the executor tests (one per policy per test process)."""

from __future__ import annotations

import os
import secrets

import pytest

from physbench.executor import Executor

SECRET_NAME = "PHYSBENCH_TEST_SECRET"


@pytest.fixture(scope="session")
def secret() -> str:
    """A value placed in the caller's environment before any pool starts; it must never leak."""
    value = os.environ.setdefault(SECRET_NAME, "s3cr3t-" + secrets.token_hex(8))
    return value


@pytest.fixture(scope="session")
def strict_ex(secret: str):
    with Executor("strict", workers=2) as ex:
        yield ex


@pytest.fixture(scope="session")
def scientific_ex(secret: str):
    with Executor("scientific", workers=2) as ex:
        yield ex
