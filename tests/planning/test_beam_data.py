"""`physbench planning beam-data`: the dose model's 6 MV numbers measured through the suite's own
matrix builder on a water phantom, set beside published ranges (issue 34 item 1)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from physbench.suites.planning import dose_model as dm


@pytest.fixture(scope="module")
def measured():
    from physbench.suites.planning.beam_data import measure

    return measure()


@pytest.fixture(scope="module")
def primary():
    from physbench.suites.planning.beam_data import measure

    return measure(c=dm.PRIMARY)


def test_central_axis_numbers_follow_the_models_own_tpr(primary):
    # the matrix path (the primary pencil beams alone) reproduces the analytic TPR within 2 %
    measured = primary
    assert measured["tpr_10"] == pytest.approx(float(dm.tpr(np.array(100.0))), rel=0.02)
    assert measured["tpr20_10"] == pytest.approx(float(dm.tpr(np.array(200.0)) / dm.tpr(np.array(100.0))), rel=0.02)
    assert 10.0 <= measured["d_max_mm"] <= 25.0
    assert list(measured["depth_dose_pct"].values()) == sorted(measured["depth_dose_pct"].values(), reverse=True)


def test_penumbra_and_edge_are_measured_not_assumed(measured, primary):
    pen = measured["penumbra_80_20_mm"]
    # the kernel's own width follows from sigma at 10 cm; scatter can only widen it
    sig = float(dm.sigma_mm(np.array(100.0)))
    assert pen["kernel"] == pytest.approx(2 * 0.8416 * sig, rel=0.05)
    assert pen["leaf_travel"] >= pen["kernel"] - 0.2 and pen["across_leaves"] >= pen["kernel"] - 0.2
    # graded voxels hold the kernel itself: the primary's profile is its own width, no grid blur
    for side in ("leaf_travel", "across_leaves"):
        assert primary["penumbra_80_20_mm"][side] == pytest.approx(pen["kernel"], abs=0.3)
    assert measured["edge_50_mm"]["leaf_travel"] == pytest.approx(50.0, abs=3.0)
    assert measured["out_of_field_3cm_pct"]["leaf_travel"] >= 0.0


def test_beam_data_cli_prints_json_with_the_published_ranges(cli, measured, monkeypatch):
    from physbench.suites.planning import beam_data

    monkeypatch.setattr(beam_data, "measure", lambda c=None: measured)  # measured once for the module
    r = cli("planning", "beam-data", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data["published_6mv"]) >= {"tpr_10", "tpr20_10", "penumbra_80_20_mm", "out_of_field_3cm_pct"}
    text = cli("planning", "beam-data")
    assert "TPR20/10" in text.stdout and "penumbra" in text.stdout


def test_the_default_model_lands_in_the_published_6mv_ranges(measured, primary):
    """Scatter and leaf transmission (the default model): every number inside the published ranges
    the documentation states, the penumbra included (graded voxels carry no interpolation); the
    primary pencil beams alone miss the broad-field TPRs and the out-of-field dose."""
    from physbench.suites.planning.beam_data import PUBLISHED

    inside = lambda k, v: PUBLISHED[k][0] <= v <= PUBLISHED[k][1]  # noqa: E731
    m = measured
    assert m["beam_component"] and inside("d_max_mm", m["d_max_mm"])
    assert inside("tpr_10", m["tpr_10"]) and inside("tpr20_10", m["tpr20_10"]) and inside("pdd10_pct", m["pdd10_pct"])
    assert all(inside("out_of_field_3cm_pct", v) for v in m["out_of_field_3cm_pct"].values())
    assert all(inside("penumbra_80_20_mm", m["penumbra_80_20_mm"][k]) for k in ("leaf_travel", "across_leaves"))
    assert not inside("tpr_10", primary["tpr_10"]) and primary["out_of_field_3cm_pct"]["leaf_travel"] == 0.0


def test_the_default_model_is_the_shipped_witnesses_model():
    from physbench.suites.planning import influence as infl
    from physbench.suites.planning.openkbp import load_shipped
    from physbench.suites.planning.tasks import load_witnesses

    assert dm.DEFAULT.beam_component and dm.DEFAULT.digest() != dm.PRIMARY.digest()
    shipped = load_witnesses()
    assert shipped and all(r["model"] == dm.MODEL_VERSION for r in shipped.values())
    assert shipped["pt_278"]["influence_hash"] == infl.model_hash(load_shipped("pt_278"), dm.DEFAULT)


def test_the_beam_components_adjoint_is_the_transpose_of_its_forward(case_for):
    """<A w, v> = <w, A^T v> for the full operator with scatter and transmission (the optimizer's
    gradient is only right if this holds)."""
    from physbench.suites.planning import influence as infl

    p = case_for("pt_278").patient
    inf = infl.build(p, dm.SCATTER)
    assert inf.scatter is not None and inf.scatter.nnz > 0 and inf.beams is not None
    rng = np.random.default_rng(0)
    w = rng.uniform(0, 1, inf.n_beamlets).astype(np.float32)
    v = rng.uniform(0, 1, inf.nodes.shape[0]).astype(np.float32)
    lhs, rhs = float(inf.forward(w).astype(np.float64) @ v), float(w.astype(np.float64) @ inf.adjoint(v))
    assert lhs == pytest.approx(rhs, rel=1e-4)
    # the beam component adds a share of the dose, most where the primary is lowest
    primary, full = inf.nodes @ w, inf.forward(w)
    share = float((full - primary).sum() / full.sum())
    low = primary < np.quantile(primary, 0.1)
    assert 0.05 < share < 0.4 and float(((full - primary) / full)[low].mean()) > share
