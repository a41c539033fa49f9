"""The pencil-beam model, its sparse cache keyed by content hash, and the OpenKBP-Opt dij path."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from scipy.special import erf

from physbench.suites.planning import dose_model as dm
from physbench.suites.planning import geometry as geo
from physbench.suites.planning import influence as infl
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.openkbp import Patient, PatientDataError, load_shipped


def slab_patient() -> Patient:
    """A water box (External) 88 x 88 x 48 voxels of 4 x 4 x 2.5 mm with an 8-voxel cube target."""
    ijk = np.stack(np.meshgrid(np.arange(20, 108), np.arange(20, 108), np.arange(40, 88), indexing="ij"), -1).reshape(-1, 3)
    t = np.stack(np.meshgrid(np.arange(60, 68), np.arange(60, 68), np.arange(60, 68), indexing="ij"), -1).reshape(-1, 3)
    return Patient("pt_1", (4.0, 4.0, 2.5), np.sort(np.ravel_multi_index(ijk.T, (128,) * 3)),
                   {"PTV_7000": np.sort(np.ravel_multi_index(t.T, (128,) * 3))})


def test_depth_dose_peaks_at_15_mm_and_falls_with_the_narrow_beam_attenuation():
    """TPR(d) = (1 - e^(-d/3.76)) e^(-0.005 d) scaled to 1 at d_max: d_max = 15.0 mm, TPR(100) = 0.666."""
    assert dm.d_max_mm() == pytest.approx(15.0, abs=0.05)
    assert dm.tpr(np.array([15.0]))[0] == pytest.approx(1.0, abs=1e-4)
    assert dm.tpr(np.array([100.0]))[0] == pytest.approx(0.666, abs=0.002)
    assert dm.tpr(np.array([0.0]))[0] == 0.0


def test_the_lateral_profile_is_half_at_the_beamlet_edge_and_integrates_to_its_width():
    """Aperture (5 mm) convolved with a Gaussian: 0.5 at +-2.5 mm; the integral over x equals 5 mm."""
    s = np.array(3.0)
    assert dm.profile(np.array([2.5]), 5.0, s)[0] == pytest.approx(0.5 * erf(5.0 / (np.sqrt(2.0) * 3.0)), abs=1e-12)
    assert dm.profile(np.array([2.5]), 5.0, np.array(0.01))[0] == pytest.approx(0.5, abs=1e-6)
    x = np.linspace(-40, 40, 8001)
    assert np.trapezoid(dm.profile(x, 5.0, s), x) == pytest.approx(5.0, rel=1e-4)


def test_one_beam_through_water_follows_depth_dose_and_inverse_square():
    """Single gantry-0 beam on the slab: along the central axis the dose ratio between two depths is
    TPR ratio x inverse-square ratio (SAD 1000 mm), on the exact node grid (step 1)."""
    p = slab_patient()
    c = dm.ModelConstants(gantry_deg=(0.0,), node_step=(1, 1, 1))
    grid = dm.node_grid(p.external, c.node_step)
    mat, table, info = dm.build_node_matrix(p, grid, c)
    dose = grid.interp @ (mat @ np.ones(mat.shape[1], dtype=np.float32))
    vol = np.zeros(128 ** 3)
    vol[p.external] = dose
    vol = vol.reshape(128, 128, 128)
    iso = np.array(info["isocentre_mm"])
    j, k = int(round(iso[1] / 4.0)), int(round(iso[2] / 2.5))
    i1, i2 = 40, 80
    d1 = (i1 - 20 + 0.5) * 4.0  # depth from the box surface (voxel 20 holds the first half voxel)
    d2 = (i2 - 20 + 0.5) * 4.0
    t1, t2 = 1000.0 + (i1 * 4.0 - iso[0]), 1000.0 + (i2 * 4.0 - iso[0])
    expect = (dm.tpr(np.array([d1]))[0] / dm.tpr(np.array([d2]))[0]) * (t2 / t1) ** 2
    assert vol[i1, j, k] / vol[i2, j, k] == pytest.approx(expect, rel=0.02)
    assert vol[10, j, k] == 0.0 and table.beam.max() == 0


def test_structure_voxels_are_dose_nodes_of_their_own():
    """Where goals read dose it is the kernel at the voxel itself: every structure voxel's row is an
    identity row, and its dose equals the full-resolution grid's (node step 1) to float32 rounding,
    while the rest of External is interpolated from the coarse nodes (and differs from it)."""
    p = slab_patient()
    c = dm.ModelConstants(gantry_deg=(0.0,))
    graded = dm.graded_voxels(p)
    grid = dm.node_grid(p.external, c.node_step, graded)
    rows = np.searchsorted(p.external, graded)
    sub = grid.interp[rows]
    assert np.all(np.diff(sub.indptr) == 1) and np.all(sub.data == 1.0)
    fine = dm.node_grid(p.external, (1, 1, 1))
    w = np.ones(len(geo.beamlet_cells(geo.Beam(0.0, geo.isocentre(p.mask("PTV_7000"), p.voxel_mm)),
                                      geo.positions_mm(geo.grid_ijk(p.mask("PTV_7000")), p.voxel_mm), 5.0, 5.0)),
                dtype=np.float32)
    mat, _t, _i = dm.build_node_matrix(p, grid, c)
    ref, _t, _i = dm.build_node_matrix(p, fine, c)
    dose, exact = grid.interp @ (mat @ w), fine.interp @ (ref @ w)
    assert np.allclose(dose[rows], exact[rows], rtol=1e-6, atol=0)
    edge = np.flatnonzero((exact > 0.2 * exact.max()) & (exact < 0.8 * exact.max()))
    assert np.abs(dose[edge] - exact[edge]).max() > 1e-3 * exact.max()  # the coarse part is interpolated
    assert grid.ijk.shape[0] < fine.ijk.shape[0] / 4


def test_beamlets_cover_the_targets_projection_plus_the_margin():
    p = slab_patient()
    beam = geo.Beam(0.0, geo.isocentre(p.mask("PTV_7000"), p.voxel_mm))
    cells = geo.beamlet_cells(beam, geo.positions_mm(geo.grid_ijk(p.mask("PTV_7000")), p.voxel_mm), 5.0, 5.0)
    # the cube spans 32 mm laterally and 20 mm between slices at about 1 m: 7-8 by 4-5 cells, plus a ring
    na, nb = np.ptp(cells[:, 0]) + 1, np.ptp(cells[:, 1]) + 1
    assert 8 <= na <= 11 and 6 <= nb <= 8 and len(cells) == len({tuple(c) for c in cells})


def test_the_matrix_is_cached_under_its_content_hash(tmp_path, monkeypatch):
    p = load_shipped("pt_278")
    monkeypatch.setenv(infl.CACHE_ENV, str(tmp_path))
    a = infl.influence_for(p)
    files = list(tmp_path.glob("pt_278-*.npz"))
    assert len(files) == 1 and a.content_hash[:24] in files[0].name and not a.info.get("cached")
    b = infl.influence_for(p)
    assert b.info.get("cached") and b.content_hash == a.content_hash
    w = np.linspace(0.0, 3.0, a.n_beamlets)
    assert np.array_equal(a.dose(w), b.dose(w))
    other = dm.ModelConstants(sigma0_mm=3.0)
    assert infl.model_hash(p, other) != a.content_hash
    assert len(a.beam) == a.n_beamlets and set(np.unique(a.beam)) == set(range(9))


def test_a_corrupt_cache_file_is_rebuilt(tmp_path):
    p = load_shipped("pt_278")
    key = infl.model_hash(p)
    (tmp_path / f"pt_278-{key[:24]}.npz").write_bytes(b"garbage")
    inf = infl.influence_for(p, cache=tmp_path)
    assert not inf.info.get("cached") and inf.nodes.nnz > 0
    assert infl.load(tmp_path / f"pt_278-{key[:24]}.npz", key) is not None


def _write_openkbp_opt(folder, inf, with_index_col=True):
    """A dij.npz and beamlet_indices.csv in OpenKBP-Opt's layout, from a modelled matrix."""
    dij = sparse.csr_matrix((128 ** 3, inf.n_beamlets), dtype=np.float64)
    full = (inf.interp @ inf.nodes).astype(np.float64).tocoo()
    dij = sparse.csr_matrix((full.data, (inf.voxels[full.row], full.col)), shape=(128 ** 3, inf.n_beamlets))
    folder.mkdir()
    sparse.save_npz(folder / "dij.npz", dij)
    head = ",row,column,angle" if with_index_col else "row,column,angle"
    lines = [head] + [(f"{j}," if with_index_col else "") + f"{r},{c},{b + 1}" for j, (r, c, b) in enumerate(zip(inf.row, inf.col, inf.beam))]
    (folder / "beamlet_indices.csv").write_text("\n".join(lines) + "\n")


def test_an_openkbp_opt_dij_goes_through_the_same_dose_and_metric_path(tmp_path, case_for, cache):
    # a dij file holds one matrix: the primary pencil beams (no beam component) written out as one
    p = case_for("pt_278").patient
    case = Case(p, infl.influence_for(p, dm.PRIMARY, cache=cache))
    _write_openkbp_opt(tmp_path / "pt_278", case.influence)
    loaded = infl.load_openkbp_opt(tmp_path / "pt_278", case.patient)
    assert loaded.source.startswith("openkbp-opt:") and loaded.n_beamlets == case.influence.n_beamlets
    assert np.array_equal(loaded.beam, case.influence.beam) and np.array_equal(loaded.row, case.influence.row)
    w = np.random.default_rng(0).uniform(0, 5, loaded.n_beamlets)
    other = Case(case.patient, loaded)
    for s, m in (("PTV_7000", "D99"), ("SpinalCord", "D0.1cc"), ("External", "Dmax")):
        assert other.metric(loaded.dose(w), s, m) == pytest.approx(case.metric(case.influence.dose(w), s, m), rel=1e-4)


def test_a_bad_dij_folder_is_a_patient_data_error(tmp_path, case_for):
    case = case_for("pt_278")
    with pytest.raises(PatientDataError, match="missing dij.npz"):
        infl.load_openkbp_opt(tmp_path, case.patient)
    (tmp_path / "dij.npz").write_bytes(b"nope")
    (tmp_path / "beamlet_indices.csv").write_text("row,column,angle\n1,2,1\n")
    with pytest.raises(PatientDataError, match="sparse npz"):
        infl.load_openkbp_opt(tmp_path, case.patient)
    sparse.save_npz(tmp_path / "dij.npz", sparse.csr_matrix((10, 1)))
    with pytest.raises(PatientDataError, match="128"):
        infl.load_openkbp_opt(tmp_path, case.patient)
    sparse.save_npz(tmp_path / "dij.npz", sparse.csr_matrix((128 ** 3, 2)))
    with pytest.raises(PatientDataError, match="beamlets"):
        infl.load_openkbp_opt(tmp_path, case.patient)
