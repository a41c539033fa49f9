"""Fluence optimization: prioritised quadratic dose penalties and a smoothness term on [0, 15].

Objective (the anchor's terms), minimised by L-BFGS-B or, by name, FISTA (descent.py):

    f(w) = sum_terms p/N sum_voxels (level - d)_+^2      min_dose
         + sum_terms p/N sum_voxels (d - level)_+^2      max_dose
         + sum_terms p (mean(d) - level)_+^2              mean_dose
         + sum_terms p/N sum_voxels (d - level)^2        uniform_dose
         + sum_terms p/N sum_{level < d <= D_v} (d - level)^2   dvh_max
         + lambda sum_neighbours (w_i - w_j)^2           fluence smoothness
    over 0 <= w <= 15 (OpenKBP-Opt's beamlet bound). N counts a structure's voxels outside the
    dose grid as well (dose zero). dvh_max asks that at most a fraction v of the volume exceed
    level: D_v is the dose at that fraction (the (1 - v) quantile of the structure's doses), and
    only voxels between level and D_v are pushed down (the dose-volume penalty of Wu and Mohan,
    Med Phys 27:701, 2000; the anchor's fifth term).

Fluence complexity is the sum of positive gradients (SPG) of OpenKBP-Opt's ``optimizer.py``:
per beam, the largest over fluence-map rows of the sum of (w_c - w_{c+1})_+, a missing right
neighbour counting as zero; the plan's SPG sums the nine beams.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import ndimage, sparse
from threadpoolctl import threadpool_limits

from physbench.suites.planning import descent
from physbench.suites.planning.influence import DoseInfluence
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.openkbp import GRID_SHAPE, in_sorted
from physbench.suites.planning.row_dose import RowDose

TERMS = ("min_dose", "max_dose", "mean_dose", "uniform_dose", "dvh_max")
PRIORITY_MAX = 1000.0
PLAN_STEPS = 200  # a plan's budget in the harness and the witness search: L-BFGS-B evaluations
W_MAX = 15.0  # OpenKBP-Opt constants_class: max_beam = 15


@dataclass(frozen=True)
class Term:
    structure: str
    term: str
    level: float  # Gy
    priority: float
    volume_fraction: float | None = None  # dvh_max only: the fraction of the volume allowed above level

    def __post_init__(self) -> None:
        if self.term not in TERMS:
            raise ValueError(f"term must be one of {', '.join(TERMS)}, not {self.term!r}")
        vf = self.volume_fraction
        if self.term == "dvh_max" and not (isinstance(vf, (int, float)) and 0 < vf < 1):
            raise ValueError(f"a dvh_max term needs a volume_fraction between 0 and 1 (exclusive), not {vf!r}")
        if self.term != "dvh_max" and vf is not None:
            raise ValueError("volume_fraction belongs to dvh_max terms only")
        for name, v, hi in (("level", self.level, 1000.0), ("priority", self.priority, PRIORITY_MAX)):
            if not (isinstance(v, (int, float)) and np.isfinite(v) and 0 <= v <= hi):
                raise ValueError(f"{name} must be a number in [0, {hi:g}], not {v!r}")

    def to_dict(self) -> dict:
        out = {"structure": self.structure, "term": self.term, "level": self.level, "priority": self.priority}
        return out if self.volume_fraction is None else {**out, "volume_fraction": self.volume_fraction}


def term_penalty(t: Term, ds: np.ndarray, n: int, outside: int, need_grad: bool = True
                 ) -> tuple[float, np.ndarray | None]:
    """One term's value and its gradient over the structure's in-grid doses ``ds`` (see the module
    docstring); ``n`` counts every voxel of the structure, ``outside`` those with no dose row."""
    p = t.priority
    if t.term in ("min_dose", "max_dose"):  # one array, clipped and scaled in place (the same numbers)
        gap = t.level - ds if t.term == "min_dose" else ds - t.level
        np.maximum(gap, 0.0, out=gap)
        f = p / n * (float(gap @ gap) + (outside * t.level**2 if t.term == "min_dose" else 0.0))
        if need_grad:
            gap *= -2.0 * p / n if t.term == "min_dose" else 2.0 * p / n
        return f, gap if need_grad else None
    if t.term == "mean_dose":
        excess = max(0.0, float(ds.sum()) / n - t.level)
        grad = np.full(ds.shape, 2.0 * p * excess / n) if need_grad and excess > 0 else None
        return p * excess**2, grad
    if t.term == "uniform_dose":
        diff = ds - t.level
        return p / n * (float(diff @ diff) + outside * t.level**2), 2.0 * p / n * diff if need_grad else None
    assert t.volume_fraction is not None  # dvh_max
    full = np.concatenate([ds, np.zeros(outside)]) if outside else ds
    d_v = float(np.quantile(full, 1.0 - t.volume_fraction))
    over = np.where((ds > t.level) & (ds <= d_v), ds - t.level, 0.0)
    return p / n * float(over @ over), 2.0 * p / n * over if need_grad else None


@dataclass(frozen=True)
class SolverConfig:
    max_iter: int = 300  # steps: L-BFGS-B objective evaluations, or FISTA iterations
    rel_tol: float = 1e-4  # stop when f fell by less than this fraction over ``patience`` steps
    patience: int = 10
    smoothness: float = 1e-4
    w_max: float = W_MAX
    method: str = "lbfgsb"  # descent.METHODS: "lbfgsb" (the default) or "fista" (plans before December 2026)

    def __post_init__(self) -> None:
        if not (isinstance(self.max_iter, int) and self.max_iter >= 1):
            raise ValueError(f"max_iter must be a whole number of at least 1, not {self.max_iter!r}")
        if self.method not in descent.METHODS:
            raise ValueError(f"method must be one of {', '.join(descent.METHODS)}, not {self.method!r}")


@dataclass
class SolveResult:
    w: np.ndarray
    dose: np.ndarray  # every External voxel, Gy
    objective: float
    iterations: int  # steps the budget counts (L-BFGS-B: objective evaluations; FISTA: iterations)
    converged: bool
    wall_s: float
    spg: float
    warm_start: bool
    history: list[float] = field(default_factory=list)
    method: str = "lbfgsb"


def neighbour_pairs(inf: DoseInfluence) -> np.ndarray:
    """(n, 2) beamlet index pairs that are fluence-map neighbours (same beam, along a row or column)."""
    key = {(int(b), int(r), int(c)): j for j, (b, r, c) in enumerate(zip(inf.beam, inf.row, inf.col))}
    pairs = [(j, key[(b, r, c + 1)]) for (b, r, c), j in key.items() if (b, r, c + 1) in key]
    pairs += [(j, key[(b, r + 1, c)]) for (b, r, c), j in key.items() if (b, r + 1, c) in key]
    return np.asarray(pairs, dtype=np.int64).reshape(-1, 2)


def spg(inf: DoseInfluence, w: np.ndarray) -> float:
    """Sum of positive gradients (OpenKBP-Opt): per beam the max row sum of (w_c - w_{c+1})_+."""
    w = np.asarray(w, dtype=np.float64)
    order = np.lexsort((inf.col, inf.row, inf.beam))
    b, r, c, ws = inf.beam[order], inf.row[order], inf.col[order], w[order]
    nxt = np.zeros_like(ws)
    same = (b[1:] == b[:-1]) & (r[1:] == r[:-1]) & (c[1:] == c[:-1] + 1)
    nxt[:-1][same] = ws[1:][same]
    pos = np.maximum(ws - nxt, 0.0)
    row_start = np.concatenate(([True], (b[1:] != b[:-1]) | (r[1:] != r[:-1])))
    row_id = np.cumsum(row_start) - 1
    row_sum = np.bincount(row_id, weights=pos)
    row_beam = b[row_start]
    per_beam = np.zeros(int(inf.beam.max()) + 1 if inf.beam.size else 0)
    np.maximum.at(per_beam, row_beam, row_sum)
    return float(per_beam.sum())


def _as_slice(loc: np.ndarray) -> np.ndarray | slice:
    """A run of consecutive rows as a slice (External's rows, most often): a view, not a copy."""
    if loc.size and int(loc[-1]) - int(loc[0]) == loc.size - 1:
        return slice(int(loc[0]), int(loc[-1]) + 1)
    return loc


class Problem:
    """The assembled objective on one case: rows each term reads, the smoothness operator."""

    def __init__(self, case: Case, terms: list[Term], config: SolverConfig, watch: np.ndarray | None = None):
        if not terms:
            raise ValueError("an objective needs at least one term")
        self.case, self.terms, self.cfg = case, terms, config
        inf = case.influence
        self.inf = inf
        rows_list, self.term_rows, self.unwatched = [], [], []
        own = case.in_structure()
        for t in terms:
            if not case.patient.has(t.structure):
                raise ValueError(f"structure {t.structure!r} is not in case {case.id}")
            rows, outside = case.rows(t.structure, merge=False)
            n_all = rows.size + outside
            if t.term == "max_dose" and not own[rows].all():
                # rows beyond every structure (External's rest) below the level add nothing:
                # only the watched ones are read; `solve` watches every one that comes near it
                keep = own[rows] | (in_sorted(rows, watch) if watch is not None else False)
                if not keep.all():
                    self.unwatched.append((t, rows[~keep]))
                rows = rows[keep]
            rows_list.append(rows)
            self.term_rows.append((rows, n_all, outside))
        used = np.unique(np.concatenate(rows_list))
        self.used = used
        self.rows = RowDose(inf, used)  # the structures' node rows only, never the rest of External
        self.local = [_as_slice(np.searchsorted(used, r)) for r, _n, _o in self.term_rows]
        pairs = neighbour_pairs(inf)
        n = inf.n_beamlets
        if config.smoothness > 0 and pairs.size:
            k = pairs.shape[0]
            self.Lop = sparse.csr_matrix((np.r_[np.ones(k), -np.ones(k)], (np.r_[np.arange(k), np.arange(k)],
                                          np.r_[pairs[:, 0], pairs[:, 1]])), shape=(k, n))
            self.LtL = (self.Lop.T @ self.Lop).tocsr()
        else:
            self.Lop = self.LtL = None

    def forward(self, w: np.ndarray) -> np.ndarray:
        """Doses of the rows the terms read."""
        return self.rows.forward(w)

    def value_grad_dose(self, d: np.ndarray, need_grad: bool = True) -> tuple[float, np.ndarray | None]:
        f = 0.0
        g = np.zeros_like(d) if need_grad else None
        for t, loc, (_rows, n, outside) in zip(self.terms, self.local, self.term_rows):
            if t.priority == 0 or n == 0:
                continue
            part, grad = term_penalty(t, d[loc], n, outside, need_grad)
            f += part
            if g is not None and grad is not None:
                g[loc] += grad
        return f, g

    def smooth(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        if self.Lop is None:
            return 0.0, np.zeros_like(w)
        hw = self.LtL @ w  # |L w|^2 = w . (L^T L) w: one product for value and gradient
        return self.cfg.smoothness * float(w @ hw), 2.0 * self.cfg.smoothness * hw

    def adjoint(self, g_rows: np.ndarray) -> np.ndarray:
        return self.rows.adjoint(g_rows)


NEAR_VOXELS = 2
WATCH_SHARE = 0.95  # an unread row is watched once its dose reaches this share of its term's level
# halfway through an L-BFGS-B solve, rows at this share are watched: hot spots still grow after it
# (on pt_252 and pt_278 every row over its level at the end had reached 80 % by then)
HALFWAY_SHARE = 0.8
MAX_ROUNDS = 3


def near_targets(case: Case) -> np.ndarray:
    """Rows beyond every structure within ``NEAR_VOXELS`` voxels of a target: where a plan's hot spots
    outside the structures lie (watched from the start, so a second round is rare)."""
    p = case.patient
    if not p.targets:
        return np.zeros(0, dtype=np.int64)
    vol = np.zeros(GRID_SHAPE, dtype=bool)
    vol.flat[np.concatenate([p.mask(t) for t in p.targets])] = True
    near = np.flatnonzero(ndimage.binary_dilation(vol, iterations=NEAR_VOXELS).ravel()[p.external])
    return near[~case.in_structure()[near]]


def hot_rows(pb: Problem, dose: np.ndarray, share: float = WATCH_SHARE) -> tuple[np.ndarray, bool]:
    """Unread rows of max_dose terms whose dose (every External voxel) reaches ``share`` of the
    term's level, and whether any is above it (then the objective missed a nonzero part)."""
    hot = [r[dose[r] >= share * t.level] for t, r in pb.unwatched if r.size]
    over = any(bool((dose[r] > t.level).any()) for t, r in pb.unwatched if r.size)
    return (np.unique(np.concatenate(hot)) if hot else np.zeros(0, dtype=np.int64)), over


def solve(case: Case, terms: list[Term], w0: np.ndarray | None = None, config: SolverConfig | None = None) -> SolveResult:
    """Minimise the objective from ``w0`` (zeros when None) with the configured descent method.

    A max_dose term reads its structure's own-node rows and the interpolated rows near its level
    (the watched ones); a row below its level adds nothing, so when the solution leaves every
    unread row below it, it is the solution of the full objective. Otherwise the rows that came
    near are watched too and the solve goes on from there (at most ``MAX_ROUNDS`` rounds). One BLAS
    thread: the scatter blur's small products took 1.7 times as long threaded (pt_283: 7.3 s, 4.3 s)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _solve(case, terms, w0, config or SolverConfig())


def _solve(case: Case, terms: list[Term], w0: np.ndarray | None, cfg: SolverConfig) -> SolveResult:
    t_start = time.perf_counter()
    inf = case.influence
    watch = near_targets(case)
    pb = Problem(case, terms, cfg, watch)
    if w0 is not None and pb.unwatched:
        hot, _over = hot_rows(pb, inf.dose(np.clip(np.asarray(w0, dtype=np.float64), 0.0, cfg.w_max)))
        if hot.size:
            watch = np.union1d(watch, hot)
            pb = Problem(case, terms, cfg, watch)
    # L-BFGS-B looks for new hot rows halfway as well, so they rarely cost a round of their own
    first = cfg.max_iter // 2 if cfg.method == "lbfgsb" and pb.unwatched and cfg.max_iter > 1 else cfg.max_iter
    res = _descend(pb, w0, replace(cfg, max_iter=first))
    if first < cfg.max_iter and not res.converged:
        hot, _over = hot_rows(pb, res.dose, HALFWAY_SHARE)
        if hot.size:
            watch = np.union1d(watch, hot)
            pb = Problem(case, terms, cfg, watch)
        res = _go_on(pb, res, replace(cfg, max_iter=cfg.max_iter - res.iterations))
    for _ in range(MAX_ROUNDS - 1):
        hot, over = hot_rows(pb, res.dose)
        if not over:
            break
        watch = np.union1d(watch, hot)
        pb = Problem(case, terms, cfg, watch)
        res = _go_on(pb, res, replace(cfg, max_iter=max(cfg.max_iter - res.iterations, cfg.max_iter // 5)))
    res.warm_start, res.wall_s = w0 is not None, time.perf_counter() - t_start
    return res


def _go_on(pb: Problem, res: SolveResult, cfg: SolverConfig) -> SolveResult:
    """Continue from ``res``'s plan on a problem that reads more rows; counts and history add up."""
    more = _descend(pb, res.w, cfg)
    more.iterations += res.iterations
    more.history = res.history + more.history
    return more


def _descend(pb: Problem, w0: np.ndarray | None, cfg: SolverConfig) -> SolveResult:
    """The configured descent method on one assembled problem, from ``w0`` (zeros when None)."""
    t_start = time.perf_counter()
    case = pb.case
    n = case.influence.n_beamlets
    x = np.zeros(n) if w0 is None else np.clip(np.asarray(w0, dtype=np.float64), 0.0, cfg.w_max)
    if x.shape != (n,):
        raise ValueError(f"warm start must have {n} weights")
    run = descent.lbfgsb if cfg.method == "lbfgsb" else descent.fista
    out = run(pb, x, cfg.max_iter, cfg.rel_tol, cfg.patience, cfg.w_max)
    return SolveResult(w=out.w, dose=case.influence.dose(out.w), objective=out.objective, iterations=out.steps,
                       converged=out.converged, wall_s=time.perf_counter() - t_start, spg=spg(case.influence, out.w),
                       warm_start=w0 is not None, history=out.history, method=cfg.method)
