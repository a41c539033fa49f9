"""The descent methods on [0, 15], warm starts, the rows read, and OpenKBP-Opt's sum of positive gradients."""

from __future__ import annotations

import numpy as np
import pytest

from physbench.suites.planning import optimizer as O
from physbench.suites.planning.goals import evaluate, goals_for
from physbench.suites.planning.influence import DoseInfluence
from physbench.suites.planning.templates import goal_terms


def _table(beam, row, col) -> DoseInfluence:
    n = len(beam)
    import scipy.sparse as sp
    return DoseInfluence("pt_0", "", "", np.arange(1), sp.csr_matrix((1, n), dtype=np.float32), sp.identity(1, format="csr"),
                         np.asarray(beam), np.asarray(row), np.asarray(col))


def test_spg_is_the_sum_over_beams_of_the_largest_row_sum_of_positive_gradients():
    """OpenKBP-Opt add_spg_constraint: row 0 of beam 0 holds weights 1, 3, 2 at columns 4, 5, 6:
    (1-3)+ + (3-2)+ + (2-0)+ = 3; row 1 holds 5 at column 4 alone: 5; beam 0's SPG is max(3, 5) = 5.
    Beam 1 holds 2, 2 at columns 0 and 2 (not neighbours): 2 + 2 = 4. Plan SPG 5 + 4 = 9."""
    inf = _table([0, 0, 0, 0, 1, 1], [0, 0, 0, 1, 0, 0], [4, 5, 6, 4, 0, 2])
    assert O.spg(inf, np.array([1.0, 3.0, 2.0, 5.0, 2.0, 2.0])) == pytest.approx(9.0)
    assert O.spg(inf, np.zeros(6)) == 0.0


def test_terms_refuse_levels_and_priorities_out_of_range():
    with pytest.raises(ValueError):
        O.Term("PTV_7000", "min_dose", -1.0, 1.0)
    with pytest.raises(ValueError):
        O.Term("PTV_7000", "max_dose", 70.0, 5000.0)
    with pytest.raises(ValueError):
        O.Term("PTV_7000", "uniform", 70.0, 1.0)


def test_a_plan_meets_the_hard_goals_of_a_small_patient_within_the_weight_bound(case_for):
    case = case_for("pt_278")
    goals = goals_for(case.patient)
    res = O.solve(case, goal_terms(goals, case.patient.targets))
    assert res.w.min() >= 0.0 and res.w.max() <= O.W_MAX
    assert res.history[-1] < 0.01 * res.history[0]
    rows = evaluate(case, res.dose, goals)
    met = [r["met"] for r in rows if r["kind"] == "hard"]
    assert sum(met) >= len(met) - 1, rows
    assert res.spg > 0 and res.spg == pytest.approx(O.spg(case.influence, res.w))


def test_a_warm_start_continues_from_the_previous_plan(case_for):
    """Twenty warm-started iterations end below two hundred cold ones; twenty cold ones do not."""
    case = case_for("pt_278")
    terms = goal_terms(goals_for(case.patient), case.patient.targets)
    cold = O.solve(case, terms, config=O.SolverConfig(max_iter=200))
    warm = O.solve(case, terms, w0=cold.w, config=O.SolverConfig(max_iter=20))
    short = O.solve(case, terms, config=O.SolverConfig(max_iter=20))
    assert warm.warm_start and not cold.warm_start
    assert warm.history[0] == pytest.approx(cold.objective, rel=1e-6)
    assert warm.objective <= cold.objective < short.objective


def test_an_objective_on_an_absent_structure_is_refused(case_for):
    with pytest.raises(ValueError, match="not in case"):
        O.solve(case_for("pt_278"), [O.Term("OpticNrv_L", "max_dose", 54.0, 1.0)])


def test_the_structure_rows_are_the_full_products_bit_for_bit(case_for):
    """The optimizer multiplies only the structures' node rows: its doses and its adjoint must be
    the full operator's (every node, then the rows), bit for bit, with scatter and transmission on."""
    case = case_for("pt_278")
    inf = case.influence
    pb = O.Problem(case, goal_terms(goals_for(case.patient), case.patient.targets), O.SolverConfig())
    rows = pb.rows
    assert rows.gather is not None and rows.n_nodes < inf.nodes.shape[0] and inf.scatter is not None
    rng = np.random.default_rng(7)
    w = rng.uniform(0, 3, inf.n_beamlets)
    P = inf.interp[pb.used].tocsr()
    assert np.array_equal(pb.forward(w), np.asarray(P @ inf.forward(w.astype(np.float32)), dtype=np.float64))
    full = lambda g: np.asarray(inf.adjoint((P.T.astype(np.float64) @ g).astype(np.float32)), dtype=np.float64)  # noqa: E731
    for share in (0.001, 0.02, 0.2, 0.9):
        g = np.where(rng.random(pb.used.size) < share, rng.normal(0, 1e-3, pb.used.size), 0.0)
        g[rng.integers(0, g.size, 50)] = -0.0  # signed zeros, as min_dose terms leave them
        assert np.array_equal(pb.adjoint(g), full(g)) and pb.adjoint(g).dtype == np.float64


def test_unread_rows_below_their_level_leave_the_objective_unchanged(case_for):
    """External's rows beyond the structures are read by its max_dose term only where they come near
    the level; at the solution every unread row is below it, so the full objective (every row read)
    has the same value there, and a level low enough to heat unread rows makes `solve` read them."""
    case = case_for("pt_278")
    terms = goal_terms(goals_for(case.patient), case.patient.targets)
    res = O.solve(case, terms, config=O.SolverConfig(max_iter=60))
    pb = O.Problem(case, terms, O.SolverConfig())
    assert pb.unwatched and pb.rows.n_rows < case.patient.external.size
    every = O.Problem(case, terms, O.SolverConfig(), watch=np.arange(case.patient.external.size))
    assert not every.unwatched
    read = O.Problem(case, terms, O.SolverConfig(), watch=np.union1d(O.near_targets(case), O.hot_rows(pb, res.dose)[0]))
    assert O.hot_rows(read, res.dose)[1] is False and read.rows.n_rows < case.patient.external.size
    assert read.value_grad_dose(read.forward(res.w), False)[0] == pytest.approx(
        every.value_grad_dose(every.forward(res.w), False)[0], rel=1e-9)
    cold = [O.Term("PTV_7000", "min_dose", 70.0, 100.0), O.Term("External", "max_dose", 20.0, 100.0)]
    cfg = O.SolverConfig(max_iter=40)
    first = O.Problem(case, cold, cfg, watch=O.near_targets(case))
    one_round = O._descend(first, None, cfg)
    assert O.hot_rows(first, one_round.dose)[1]  # unread rows above 20 Gy: the first round's objective missed them
    hot = O.solve(case, cold, config=cfg)
    full = O.Problem(case, cold, cfg, watch=np.arange(case.patient.external.size))
    f_full = [full.value_grad_dose(full.forward(r.w), False)[0] + full.smooth(r.w)[0] for r in (one_round, hot)]
    assert one_round.objective < 0.99 * f_full[0]  # the one round reported less than the full objective
    assert hot.objective == pytest.approx(f_full[1], rel=1e-6)  # solve's objective is the full one
    assert f_full[1] < f_full[0]


def test_lbfgsb_ends_lower_than_fista_on_the_same_number_of_products(case_for):
    """Each L-BFGS-B evaluation costs one dose and one adjoint product, as a FISTA iteration does at
    least: on the same budget the default method must reach the lower objective (the reason it is
    the default), and FISTA stays available by name."""
    case = case_for("pt_278")
    terms = goal_terms(goals_for(case.patient), case.patient.targets)
    lb = O.solve(case, terms, config=O.SolverConfig(max_iter=80))
    fi = O.solve(case, terms, config=O.SolverConfig(max_iter=80, method="fista"))
    assert (lb.method, fi.method) == ("lbfgsb", "fista")
    assert lb.iterations <= 80 + 80 // 5 and lb.objective < fi.objective
    assert lb.w.min() >= 0.0 and lb.w.max() <= O.W_MAX
    with pytest.raises(ValueError):
        O.SolverConfig(method="newton")
