"""The dose model's beam data, measured the way a physicist commissions a beam (issue 34 item 1).

A water box on a 128^3 grid, one beam (gantry 0), a uniform 10 x 10 cm field at the isocentre (10
cm deep, SSD 90 cm): the matrix is built by the suite's own code (dose_model.build_node_matrix),
the measured lines (the central axis, the two profiles at 10 cm) being graded voxels, computed at
full resolution as every structure voxel of a patient is. From the central axis: the depth of
maximum dose, the relative depth dose (SSD 90 cm),
TPR(10) and TPR20/10 (the depth dose with the inverse square removed: exact for a kernel whose
lateral sum does not depend on depth) and from them the PDD(10) at SSD 100 cm. Across the field at
10 cm: the 80-20 % penumbra, both as computed (primary and scatter) and of the primary kernel alone,
and the dose 3 cm outside the 50 % edge."""

from __future__ import annotations

from typing import Any

import numpy as np

from physbench.suites.planning import dose_model as dm
from physbench.suites.planning.openkbp import GRID_SHAPE, Patient

ISO_DEPTH_MM = 100.0
FIELD_MM = 100.0  # the field at the isocentre plane: a 90 mm target grown by the 5 mm beamlet margin
# 2.5 mm along the beam, 1.5 mm across it: the measured lines are graded voxels (the kernel itself,
# no interpolation), sampled finely enough that a linear reading of the 80 and 20 % crossings is
# about 0.1 mm wider than the continuous profile's
VOXEL_MM = (2.5, 1.5, 1.5)
SURFACE_I = 8  # grid index of the phantom's entry surface along axis 0 (the beam axis at gantry 0)

# Published 6 MV values the numbers are set beside (ranges over common linacs, 10 x 10 cm field):
# d_max 1.5 cm and PDD(10) at SSD 100 cm about 67 % (BJR Supplement 25, 1996, table for 6 MV);
# TPR20/10 0.66-0.68 (IAEA TRS-398, 2000, beam-quality index of 6 MV beams); TPR(10) of a broad
# field (TMR normalised at d_max) about 0.74-0.79 (BJR Supplement 25); 80-20 % penumbra at 10 cm
# 5-8 mm (vendor commissioning data, e.g. Varian TrueBeam 6 MV representative beam data; a narrow
# 1 x 20 cm strip has 3.7 mm at 10 cm, JACMP 12(3):3475, 2011, Table 2, the lower bound of a
# broad field's); dose 3 cm beyond the field edge at 10 cm about 2-4 % of the central axis (AAPM
# TG-158, Kry et al. 2017; phantom scatter plus collimator and leaf transmission, the two parts of
# Fraass and van de Geijn, Med Phys 10:809, 1983).
PUBLISHED = {"d_max_mm": [13.0, 17.0], "pdd10_pct": [65.0, 68.5], "tpr_10": [0.74, 0.79],
             "tpr20_10": [0.66, 0.68], "penumbra_80_20_mm": [5.0, 8.0], "out_of_field_3cm_pct": [2.0, 4.0]}


def phantom(voxel_mm: tuple[float, float, float]) -> Patient:
    """A water box under the beam and a 90 x 90 mm target slab centred 10 cm deep."""
    nx, ny, nz = GRID_SHAPE
    # 11 cm each side (room for the edge plus 3 cm and more), within the grid
    half_u = min(int(round(110.0 / voxel_mm[1])), ny // 2 - 1)
    half_v = min(int(round(110.0 / voxel_mm[2])), nz // 2 - 1)
    cj, ck = ny // 2, nz // 2
    i, j, k = np.meshgrid(np.arange(SURFACE_I, nx), np.arange(cj - half_u, cj + half_u + 1),
                          np.arange(ck - half_v, ck + half_v + 1), indexing="ij")
    ext = np.ravel_multi_index((i.ravel(), j.ravel(), k.ravel()), GRID_SHAPE)
    ci = SURFACE_I + int(round(ISO_DEPTH_MM / voxel_mm[0]))
    tu, tv = int(round(45.0 / voxel_mm[1])), int(round(45.0 / voxel_mm[2]))
    ti, tj, tk = np.meshgrid([ci], np.arange(cj - tu, cj + tu), np.arange(ck - tv, ck + tv), indexing="ij")
    target = np.ravel_multi_index((ti.ravel(), tj.ravel(), tk.ravel()), GRID_SHAPE)
    return Patient("water", voxel_mm, np.sort(ext), {"PTV_7000": np.sort(target)}, source="phantom")


def measured_voxels(voxel_mm: tuple[float, float, float]) -> np.ndarray:
    """Sorted flat indices of the central axis and of the two lateral profiles 10 cm deep."""
    nx, ny, nz = GRID_SHAPE
    cj, ck = ny // 2, nz // 2
    ci = SURFACE_I + int(round(ISO_DEPTH_MM / voxel_mm[0]))
    axis = np.ravel_multi_index((np.arange(SURFACE_I, nx), np.full(nx - SURFACE_I, cj), np.full(nx - SURFACE_I, ck)), GRID_SHAPE)
    along = np.ravel_multi_index((np.full(ny, ci), np.arange(ny), np.full(ny, ck)), GRID_SHAPE)
    across = np.ravel_multi_index((np.full(nz, ci), np.full(nz, cj), np.arange(nz)), GRID_SHAPE)
    return np.unique(np.concatenate([axis, along, across]))


def _crossing(x: np.ndarray, y: np.ndarray, level: float) -> float:
    """Where a profile falling with x first crosses ``level`` (linear between samples)."""
    k = int(np.nonzero(y < level)[0][0])
    return float(x[k - 1] + (y[k - 1] - level) * (x[k] - x[k - 1]) / (y[k - 1] - y[k]))


def _edge(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """80-20 % penumbra, 50 % edge and the dose 3 cm beyond it, on the profile's falling side."""
    keep = x >= 0
    x, y = x[keep], y[keep] / y[keep][0]
    x80, x50, x20 = (_crossing(x, y, lv) for lv in (0.8, 0.5, 0.2))
    out = float(np.interp(x50 + 30.0, x, y)) if x50 + 30.0 <= x[-1] else float("nan")
    return {"penumbra_80_20_mm": round(x20 - x80, 2), "edge_50_mm": round(x50, 2), "out_of_field_3cm_pct": round(100 * out, 2)}


def kernel_penumbra(c: dm.ModelConstants = dm.DEFAULT, depth_mm: float = 100.0) -> float:
    """The 80-20 % width of the kernel itself (uniform field, no grid) at ``depth_mm``, SAD setup."""
    t = 1000.0 - ISO_DEPTH_MM + depth_mm
    sig = float(dm.sigma_mm(np.array(depth_mm), c)) * 1000.0 / t  # projected onto the isocentre plane
    x = np.linspace(0.0, 0.5 * FIELD_MM + 40.0, 4001)
    y = dm.profile(x, FIELD_MM, np.full_like(x, sig))
    return round((_crossing(x, y / y[0], 0.2) - _crossing(x, y / y[0], 0.8)) * t / 1000.0, 2)


def measure(voxel_mm: tuple[float, float, float] = VOXEL_MM, c: dm.ModelConstants = dm.DEFAULT) -> dict[str, Any]:
    """Every number of `physbench planning beam-data`, with the published ranges beside them."""
    from dataclasses import replace

    p = phantom(voxel_mm)
    one = replace(c, gantry_deg=(0.0,))
    grid = dm.node_grid(p.external, c.node_step, measured_voxels(voxel_mm))
    mat, table, _info = dm.build_node_matrix(p, grid, one)
    w = np.ones(mat.shape[1], dtype=np.float32)  # a uniform field
    node = mat @ w
    if one.beam_component:
        from physbench.suites.planning import scatter_model as sm

        blur = sm.blur_for(table.beam, table.row, table.col, one)
        scatter, trans = sm.build_beam_matrices(p, grid, blur, one)
        node = node + scatter @ blur.forward(w) + trans @ (sm.aggregation(table.beam.astype(np.int64), 1) @ w)
    dose = np.asarray(grid.interp @ node, dtype=np.float64)
    vol = np.zeros(GRID_SHAPE)
    vol.flat[p.external] = dose
    cj, ck = GRID_SHAPE[1] // 2, GRID_SHAPE[2] // 2
    ci = SURFACE_I + int(round(ISO_DEPTH_MM / voxel_mm[0]))
    # voxel centres sit half a voxel below the entry surface of the phantom's first voxel
    depth = (np.arange(SURFACE_I, GRID_SHAPE[0]) - SURFACE_I + 0.5) * voxel_mm[0]
    axis = vol[SURFACE_I:, cj, ck]
    fine = np.linspace(depth[0], depth[-1], 4000)
    cax = np.interp(fine, depth, axis)
    d_max = float(fine[int(np.argmax(cax))])
    ssd = 1000.0 - ISO_DEPTH_MM
    pdd = lambda d: float(np.interp(d, depth, axis)) / float(cax.max())  # noqa: E731
    tpr = lambda d: pdd(d) * ((ssd + d) / (ssd + d_max)) ** 2  # noqa: E731
    lat_u = (np.arange(GRID_SHAPE[1]) - cj) * voxel_mm[1]
    lat_v = (np.arange(GRID_SHAPE[2]) - ck) * voxel_mm[2]
    u_edge = _edge(lat_u, vol[ci, :, ck])
    v_edge = _edge(lat_v, vol[ci, cj, :])
    return {"model": dm.MODEL_VERSION, "beam_component": one.beam_component, "voxel_mm": list(voxel_mm), "node_step": list(c.node_step),
            "setup": {"ssd_mm": ssd, "field_mm_at_isocentre": FIELD_MM, "iso_depth_mm": ISO_DEPTH_MM},
            "d_max_mm": round(d_max, 1),
            "depth_dose_pct": {f"{d:g}": round(100 * pdd(d), 1) for d in (15, 50, 100, 150, 200, 250)},
            # at SSD 100 cm from the TPR (no field-size change with depth in this model's kernel)
            "pdd10_pct": round(100 * tpr(100.0) * ((1000.0 + d_max) / 1100.0) ** 2, 1), "tpr_10": round(tpr(100.0), 3),
            "tpr20_10": round(tpr(200.0) / tpr(100.0), 3),
            "penumbra_80_20_mm": {"leaf_travel": u_edge["penumbra_80_20_mm"], "across_leaves": v_edge["penumbra_80_20_mm"],
                                  "kernel": kernel_penumbra(c)},
            "edge_50_mm": {"leaf_travel": u_edge["edge_50_mm"], "across_leaves": v_edge["edge_50_mm"]},
            "out_of_field_3cm_pct": {"leaf_travel": u_edge["out_of_field_3cm_pct"],
                                     "across_leaves": v_edge["out_of_field_3cm_pct"]},
            "published_6mv": PUBLISHED}
