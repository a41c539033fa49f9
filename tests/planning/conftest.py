"""Shared fixtures: shipped patients and their dose influence, built once per session in a tmp cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from physbench.suites.planning import influence, openkbp
from physbench.suites.planning.metrics import Case

SHARED = Path("/work/shared/data/openkbp")
SMALL = ("pt_278", "pt_254")  # the two smallest External masks: fast to build and to optimize


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("planning-cache")


@pytest.fixture(scope="session")
def case_for(cache):
    """case_for(pid) -> Case on the pencil-beam influence, cached for the session."""
    made: dict[str, Case] = {}

    def get(pid_or_patient) -> Case:
        p = pid_or_patient if isinstance(pid_or_patient, openkbp.Patient) else openkbp.load_shipped(pid_or_patient)
        if p.id not in made:
            made[p.id] = Case(p, lambda p=p: influence.influence_for(p, cache=cache))  # built on first use
        return made[p.id]

    return get


@pytest.fixture
def fast_suite(case_for, monkeypatch):
    """The suite on the session's influence cache, with a short optimizer for the controller."""
    from physbench.suites.planning import suite as S
    from physbench.suites.planning.harness import PlanningHarness
    from physbench.suites.planning.optimizer import SolverConfig

    monkeypatch.setenv("PHYSBENCH_PLANNING_WORKERS", "0")  # harnesses in this process, where the patches hold
    monkeypatch.setattr(S, "case_for", case_for)
    monkeypatch.setattr(S, "new_harness",
                        lambda t: PlanningHarness(t, case_for(t["patient"]), solver=SolverConfig(max_iter=60)))
    S._CONTROLLER.clear()
    yield S.SUITE
    S._CONTROLLER.clear()
