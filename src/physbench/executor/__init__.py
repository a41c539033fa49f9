"""The restricted executor: run model-written Python safely and fast.

    from physbench.executor import run, Executor, Limits
    run("def solve(a, b):\n    return a * b", args=(6, 7)).value   # 42
    with Executor("scientific", workers=2) as ex:
        results = ex.map(sources)

Layers, outermost first: static AST policy, proxy modules and a builtins allow-list, run-time
guards on the scientific libraries, an audit hook, a compiled-in line counter, a process forked
per program from a warm parent with rlimits and a wall-clock kill of the whole job, and the
kernel layers (namespaces, seccomp, Landlock). The pool fails closed: it refuses to start when a
kernel layer the policy requires is missing, unless `allow_missing_layers=` says otherwise.
`Executor(...).layers` says which are active on this host; docs/security.md is the threat model.

Names are loaded on first use, so the warm parent (which imports this package's modules)
does not carry the caller-side pool machinery into every fork.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "POLICIES": "limits", "STATUSES": "limits", "ExecResult": "limits", "Limits": "limits",
    "Executor": "pool", "ExecutorError": "pool", "default_executor": "pool", "run": "pool",
    "shutdown": "pool", "check_source": "static",
}

__all__ = sorted([*_EXPORTS, "active_layers"])


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(f"physbench.executor.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'physbench.executor' has no attribute {name!r}")


def active_layers(policy: str = "strict") -> dict:
    """The isolation layers active in the shared pool for `policy` (starts it if needed)."""
    return import_module("physbench.executor.pool").default_executor(policy).layers
