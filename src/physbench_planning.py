"""The verifiers environment `physbench-planning` (`vf-eval physbench-planning`); needs the `verifiers` extra."""

from typing import Any

from physbench.integrations.verifiers_envs import PhysbenchEnv, PhysbenchHarness, PlanningTaskset
from physbench.integrations.verifiers_envs import load_environment as _load


def load_environment(**taskset_options: Any) -> Any:
    """The `physbench-planning` environment, built the way `vf-eval` builds it."""
    return _load("planning", **taskset_options)


__all__ = ["PlanningTaskset", "PhysbenchHarness", "PhysbenchEnv", "load_environment"]
