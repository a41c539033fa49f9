"""Trusted judges: comparison code that runs in a fresh forked process, never beside a program.

A grader that must compare a program's returned value with a reference (issue 33) sends that
value, as inert data, to a judge: a function imported here in the warm parent, called in a newly
forked process under the same limits and kernel layers as a program, in which no program ever
ran. Callers name a judge; they cannot send code. The table is data: "name" -> "module:function".
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

_RESEARCH = {"research": "physbench.suites.research.judge:judge",
             "research_batch": "physbench.suites.research.judge:judge_batch"}
JUDGES: dict[str, dict[str, str]] = {"strict": {}, "scientific": _RESEARCH, "symbolic": _RESEARCH}


def load(policy: str) -> dict[str, Callable[..., Any]]:
    """The policy's judges, imported (in the warm parent, before any fork)."""
    out = {}
    for name, target in JUDGES.get(policy, {}).items():
        module, function = target.split(":")
        out[name] = getattr(import_module(module), function)
    return out
