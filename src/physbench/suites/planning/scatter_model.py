"""The beam component of the dose model: phantom scatter and leaf transmission (issue 34 item 1).

Both are broad, so they are not stored per beamlet (that would multiply the matrix many times)
but per beam, driven by the beam's mean beamlet weight F_b (the matrix ``agg``: beams x
beamlets, 1/n_b on the beam's beamlets). Dose to a node from beam b, per unit F_b:

    scatter       K (SAD/t)^2 A (1 - exp(-d/lambda)) exp(-mu_s d) L_b(U, V)
    transmission  K (SAD/t)^2 T k TPR(d) P(U; jaw_u, s) P(V; jaw_v, s)

L_b is the beam's open-cell map (the beamlet region) blurred by a Gaussian of sigma_s on the
isocentre plane; the jaws are the bounding box of the beamlet region; T is the leaf transmission,
k a leaf pair's beam-on time over the mean beamlet weight, P the primary's penumbra profile.
First-order limits: scatter follows the beam's mean fluence, not its modulation; transmission
ignores the open fraction of each cell (T w_j, under 2 % of the primary) and tongue-and-groove.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage, sparse

from physbench.suites.planning import dose_model as dm
from physbench.suites.planning import geometry as geo
from physbench.suites.planning.openkbp import GRID_SHAPE, Patient


def scatter_depth(depth_mm: np.ndarray, c: dm.ModelConstants) -> np.ndarray:
    d = np.maximum(np.asarray(depth_mm, dtype=np.float64), 0.0)
    return (1.0 - np.exp(-d / c.scatter_depth_mm)) * np.exp(-c.scatter_mu_per_mm * d)


def aggregation(beam_of_beamlet: np.ndarray, n_beams: int) -> sparse.csr_matrix:
    """(beams x beamlets): row b averages the weights of beam b's beamlets."""
    counts = np.bincount(beam_of_beamlet, minlength=n_beams).astype(np.float64)
    cols = np.arange(beam_of_beamlet.size)
    vals = 1.0 / counts[beam_of_beamlet]
    return sparse.csr_matrix((vals.astype(np.float32), (beam_of_beamlet, cols)), shape=(n_beams, beam_of_beamlet.size))


def build_beam_matrix(patient: Patient, grid: dm.NodeGrid, c: dm.ModelConstants) -> sparse.csr_matrix:
    """(nodes x beams) dose per unit mean beamlet weight of each beam: scatter plus transmission."""
    targets = np.concatenate([patient.mask(t) for t in patient.targets])
    iso = geo.isocentre(targets, patient.voxel_mm)
    tpts = geo.positions_mm(geo.grid_ijk(targets), patient.voxel_mm)
    npts = geo.positions_mm(grid.ijk, patient.voxel_mm)
    inside = np.zeros(GRID_SHAPE, dtype=bool)
    inside.flat[patient.external] = True
    slices = np.minimum(grid.ijk[:, 2], GRID_SHAPE[2] - 1)
    w = c.beamlet_mm
    rows, cols, data = [], [], []
    for bi, g in enumerate(c.gantry_deg):
        beam = geo.Beam(g, iso)
        cells = geo.beamlet_cells(beam, tpts, w, c.margin_mm)
        pad = int(np.ceil(4.0 * c.scatter_sigma_mm / w)) + 1
        a0, b0 = cells.min(axis=0) - pad
        a1, b1 = cells.max(axis=0) + pad
        open_map = np.zeros((a1 - a0 + 1, b1 - b0 + 1))
        open_map[cells[:, 0] - a0, cells[:, 1] - b0] = 1.0
        spread = ndimage.gaussian_filter(open_map, c.scatter_sigma_mm / w, mode="constant", truncate=4.0)
        t, u, v = beam.project(npts)
        near = (t > 0) & (u > a0 * w) & (u < (a1 + 1) * w) & (v > b0 * w) & (v < (b1 + 1) * w)
        idx = np.nonzero(near)[0]
        if idx.size == 0:
            continue
        depth = geo.radiological_depth(beam, inside, patient.voxel_mm, npts[idx], slices[idx])
        scale = c.sad_mm / t[idx]
        ua, va = u[idx], v[idx]
        lat = ndimage.map_coordinates(spread, [ua / w - 0.5 - a0, va / w - 0.5 - b0], order=1, mode="constant")
        val = c.scatter_amp * scatter_depth(depth, c) * lat
        if c.leaf_transmission > 0:
            (ja0, jb0), (ja1, jb1) = cells.min(axis=0), cells.max(axis=0) + 1
            sig = dm.sigma_mm(depth, c) * scale
            jaw = dm.profile(ua - 0.5 * (ja0 + ja1) * w, (ja1 - ja0) * w, sig) * \
                dm.profile(va - 0.5 * (jb0 + jb1) * w, (jb1 - jb0) * w, sig)
            val = val + c.leaf_transmission * c.leaf_mu_ratio * dm.tpr(depth, c) * jaw
        val = c.dose_gy * scale**2 * val * (depth > 0)
        keep = val >= c.entry_cutoff * c.dose_gy
        rows.append(idx[keep])
        cols.append(np.full(int(keep.sum()), bi))
        data.append(val[keep].astype(np.float32))
    mat = sparse.csr_matrix((np.concatenate(data) if data else np.zeros(0, np.float32),
                             (np.concatenate(rows) if rows else np.zeros(0, np.int64),
                              np.concatenate(cols) if cols else np.zeros(0, np.int64))),
                            shape=(grid.ijk.shape[0], len(c.gantry_deg)), dtype=np.float32)
    mat.sum_duplicates()
    return mat
