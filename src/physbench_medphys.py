"""The verifiers environment `physbench-medphys` (`vf-eval physbench-medphys`); needs the `verifiers` extra."""

from typing import Any

from physbench.integrations.verifiers_envs import PhysbenchEnv, PhysbenchHarness, MedphysTaskset
from physbench.integrations.verifiers_envs import load_environment as _load


def load_environment(**taskset_options: Any) -> Any:
    """The `physbench-medphys` environment, built the way `vf-eval` builds it."""
    return _load("medphys", **taskset_options)


__all__ = ["MedphysTaskset", "PhysbenchHarness", "PhysbenchEnv", "load_environment"]
