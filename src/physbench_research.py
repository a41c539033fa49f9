"""The verifiers environment `physbench-research` (`vf-eval physbench-research`); needs the `verifiers` extra."""

from typing import Any

from physbench.integrations.verifiers_envs import PhysbenchEnv, PhysbenchHarness, ResearchTaskset
from physbench.integrations.verifiers_envs import load_environment as _load


def load_environment(**taskset_options: Any) -> Any:
    """The `physbench-research` environment, built the way `vf-eval` builds it."""
    return _load("research", **taskset_options)


__all__ = ["ResearchTaskset", "PhysbenchHarness", "PhysbenchEnv", "load_environment"]
