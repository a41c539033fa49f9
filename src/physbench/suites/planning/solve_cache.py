"""Optimizations already done in this process, reused: the same anatomy, dose influence, terms,
warm start and solver settings give the same plan (the solver is deterministic), so it runs once.

Tasks of one patient share objectives (a conflicting note's goals are its routine task's; the
controller's first objective ignores a coverage goal's value) and the arithmetic system runs the
controller on the tasks its checks pass, so a sweep of systems over a patient repeats many solves.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np

from physbench.suites.planning.metrics import Case
from physbench.suites.planning.optimizer import SolverConfig, SolveResult, Term, solve

KEPT = 24  # a plan holds one dose per External voxel (about 1 MB): 24 cover a patient's sweep
_DONE: "OrderedDict[tuple[Any, ...], SolveResult]" = OrderedDict()
_STATS = {"hits": 0, "misses": 0}


def _digest(a: np.ndarray | None) -> str | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a, dtype=np.float64)
    return hashlib.sha256(str(a.shape).encode() + a.tobytes()).hexdigest()


def _key(case: Case, terms: list[Term], w0: np.ndarray | None, cfg: SolverConfig) -> tuple[Any, ...]:
    # the anatomy (structure rows) and the influence (its hash names its model constants or its file)
    return (case.patient.content_hash(), case.influence.content_hash, tuple(terms), _digest(w0), cfg)


def _copy(res: SolveResult) -> SolveResult:
    return dataclasses.replace(res, w=res.w.copy(), dose=res.dose.copy(), history=list(res.history))


def cached_solve(case: Case, terms: list[Term], w0: np.ndarray | None = None,
                 config: SolverConfig | None = None) -> SolveResult:
    """``optimizer.solve``'s result, computed once per distinct input in this process (a copy)."""
    cfg = config or SolverConfig()
    key = _key(case, terms, w0, cfg)
    if key in _DONE:
        _DONE.move_to_end(key)
        _STATS["hits"] += 1
        return _copy(_DONE[key])
    _STATS["misses"] += 1
    res = solve(case, terms, w0=w0, config=cfg)
    _DONE[key] = _copy(res)
    while len(_DONE) > KEPT:
        _DONE.popitem(last=False)
    return res


def stats() -> dict[str, int]:
    """Hits and misses so far in this process (for tests and benchmarks)."""
    return {**_STATS, "kept": len(_DONE)}


def clear() -> None:
    _DONE.clear()
    _STATS.update(hits=0, misses=0)
