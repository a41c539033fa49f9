"""The verifiers environment `physbench-clincalc` (`vf-eval physbench-clincalc`); needs the `verifiers` extra."""

from typing import Any

from physbench.integrations.verifiers_envs import PhysbenchEnv, PhysbenchHarness, ClincalcTaskset
from physbench.integrations.verifiers_envs import load_environment as _load


def load_environment(**taskset_options: Any) -> Any:
    """The `physbench-clincalc` environment, built the way `vf-eval` builds it."""
    return _load("clincalc", **taskset_options)


__all__ = ["ClincalcTaskset", "PhysbenchHarness", "PhysbenchEnv", "load_environment"]
