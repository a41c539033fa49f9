"""The beam component of the dose model: phantom scatter and leaf transmission (issue 34 item 1).

Both are broad, so neither is stored per beamlet (that would multiply the matrix many times). Dose
to a node from beam b:

    scatter       K (SAD/t)^2 A (1 - exp(-d/lambda)) exp(-mu_s d) (G_sigma * W_b)(U, V)
    transmission  K (SAD/t)^2 T k TPR(d) P(U; jaw_u, s) P(V; jaw_v, s) F_b

W_b is the beam's fluence map (beamlet weights on the 5 mm cells of the isocentre plane), G_sigma a
Gaussian of sigma_s there (or a mixture with a medium-range one, the beamlets' tails), so scatter
follows the modulation; F_b is the beam's mean beamlet weight, T the leaf transmission, k a leaf
pair's beam-on time over F_b, the jaws the bounding box of the beamlet region, P the primary's
penumbra profile. The blur is applied to the weights (``Blur``, a separable Gaussian per beam as two
small dense matrix products), then
sampled bilinearly at each node (``sample``: nodes x cells, four entries per node and beam).
Limits: at most two Gaussian ranges, fixed over depth; no tongue-and-groove; transmission ignores the open fraction of each
cell (T w_j, under 2 %)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

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


@dataclass
class Blur:
    """Per beam, weights -> the fluence map blurred by G_sigma (and its adjoint, the same filter):
    ``grid`` rows (beam, a0, b0, na, nb, offset), ``cell`` the flat cell of each beamlet."""

    grid: np.ndarray  # (n_beams, 6) int64
    cell: np.ndarray  # (n_beamlets,) int64 index into the concatenated maps
    sigma_cells: float
    mid_sigma_cells: float = 0.0  # a second, medium-range Gaussian (0: none)
    mid_fraction: float = 0.0  # its share of the scatter
    _mats: Any = field(default=None, repr=False, compare=False)  # the stack and filters, made on first use

    @property
    def n_cells(self) -> int:
        return int((self.grid[:, 3] * self.grid[:, 4]).sum())

    def _stack(self) -> tuple[np.ndarray, np.ndarray, slice, slice, list[tuple[float, np.ndarray, np.ndarray]]]:
        """Where each flat cell sits in a (beams, A, B) stack of the maps (zero-padded to the largest),
        where each beamlet sits in the block of the stack that holds every beamlet (slices sa, sb), and
        per range (share, G_a, G_b): the Gaussian filters as dense matrices on that stack."""
        if self._mats is None:
            big_a, big_b = int(self.grid[:, 3].max()), int(self.grid[:, 4].max())
            pos = np.empty(self.n_cells, dtype=np.int64)
            for i, (_b, _a0, _b0, na, nb, off) in enumerate(self.grid):
                ia, ib = np.divmod(np.arange(na * nb), nb)
                pos[off: off + na * nb] = (i * big_a + ia) * big_b + ib
            beam_i, a, b = np.unravel_index(pos[self.cell], (len(self.grid), big_a, big_b))
            sa, sb = slice(int(a.min()), int(a.max()) + 1), slice(int(b.min()), int(b.max()) + 1)
            inner = (beam_i * (sa.stop - sa.start) + a - sa.start) * (sb.stop - sb.start) + b - sb.start
            parts = [(1.0 - self.mid_fraction, self.sigma_cells)]
            if self.mid_fraction > 0:
                parts.append((self.mid_fraction, self.mid_sigma_cells))
            mats = [(share, gauss_matrix(big_a, sig), gauss_matrix(big_b, sig)) for share, sig in parts]
            self._mats = (pos, inner, sa, sb, mats)
        return self._mats

    def forward(self, w: np.ndarray) -> np.ndarray:
        """Each beam's map M -> sum over ranges of share G_a M G_b^T at every cell (separable; zero
        outside the map, which the zero padding keeps). M is zero outside the beamlet block, so only
        the filters' columns over that block are multiplied."""
        pos, inner, sa, sb, mats = self._stack()
        m = np.zeros((len(self.grid), sa.stop - sa.start, sb.stop - sb.start), dtype=w.dtype)
        m.flat[inner] = w
        out = sum(share * np.matmul(np.matmul(ga[:, sa], m), gb[:, sb].T) for share, ga, gb in mats)
        return np.asarray(out, dtype=w.dtype).reshape(-1)[pos]

    def adjoint(self, v: np.ndarray) -> np.ndarray:
        """The transpose of ``forward``: the same symmetric filter, read at the beamlets only (so only
        the filters' rows over the beamlet block are multiplied)."""
        pos, inner, sa, sb, mats = self._stack()
        v = np.asarray(v)
        big_a, big_b = mats[0][1].shape[0], mats[0][2].shape[0]
        stack = np.zeros(len(self.grid) * big_a * big_b, dtype=v.dtype)
        stack[pos] = v
        m = stack.reshape(len(self.grid), big_a, big_b)
        out = sum(share * np.matmul(np.matmul(ga[sa, :], m), gb[sb, :].T) for share, ga, gb in mats)
        return np.asarray(out, dtype=v.dtype).reshape(-1)[inner]


def gauss_matrix(n: int, sigma_cells: float, truncate: float = 4.0) -> np.ndarray:
    """(n x n) float32: a unit-sum Gaussian of ``sigma_cells`` cut at ``truncate`` sigma, zero past the ends
    (the filter of scipy.ndimage.gaussian_filter1d with mode="constant", as a matrix)."""
    r = int(truncate * sigma_cells + 0.5)
    x = np.arange(-r, r + 1)
    k = np.exp(-0.5 * (x / sigma_cells) ** 2)
    k /= k.sum()
    d = np.arange(n)[None, :] - np.arange(n)[:, None]
    return np.where(np.abs(d) <= r, k[np.clip(d + r, 0, 2 * r)], 0.0).astype(np.float32)


def blur_for(beam: np.ndarray, row: np.ndarray, col: np.ndarray, c: dm.ModelConstants) -> Blur:
    """The Blur of a beamlet table (fluence-map column a + 32, row b + 32), padded by 4 sigma."""
    pad = int(np.ceil(4.0 * c.scatter_sigma_mm / c.beamlet_mm)) + 1
    a, b = col.astype(np.int64) - 32, row.astype(np.int64) - 32
    grid, cell, off = [], np.zeros(beam.size, dtype=np.int64), 0
    for bi in range(len(c.gantry_deg)):
        mine = np.nonzero(beam == bi)[0]
        if mine.size == 0:
            continue
        a0, b0 = a[mine].min() - pad, b[mine].min() - pad
        na, nb = a[mine].max() + pad - a0 + 1, b[mine].max() + pad - b0 + 1
        cell[mine] = off + (a[mine] - a0) * nb + (b[mine] - b0)
        grid.append((bi, a0, b0, na, nb, off))
        off += na * nb
    return Blur(np.asarray(grid, dtype=np.int64).reshape(-1, 6), cell, c.scatter_sigma_mm / c.beamlet_mm,
                c.scatter_mid_sigma_mm / c.beamlet_mm, c.scatter_mid_fraction)


def build_beam_matrices(patient: Patient, grid: dm.NodeGrid, blur: Blur, c: dm.ModelConstants
                        ) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
    """(nodes x cells) scatter sampling with its depth amplitude, and (nodes x beams) transmission
    per unit mean beamlet weight."""
    targets = np.concatenate([patient.mask(t) for t in patient.targets])
    iso = geo.isocentre(targets, patient.voxel_mm)
    npts = geo.positions_mm(grid.ijk, patient.voxel_mm)
    inside = np.zeros(GRID_SHAPE, dtype=bool)
    inside.flat[patient.external] = True
    slices = np.minimum(grid.ijk[:, 2], GRID_SHAPE[2] - 1)
    w = c.beamlet_mm
    s_rows, s_cols, s_vals, t_rows, t_cols, t_vals = [], [], [], [], [], []
    for bi, a0, b0, na, nb, off in blur.grid:
        beam = geo.Beam(c.gantry_deg[int(bi)], iso)
        t, u, v = beam.project(npts)
        near = (t > 0) & (u > a0 * w) & (u < (a0 + na) * w) & (v > b0 * w) & (v < (b0 + nb) * w)
        idx = np.nonzero(near)[0]
        if idx.size == 0:
            continue
        depth = geo.radiological_depth(beam, inside, patient.voxel_mm, npts[idx], slices[idx])
        scale = c.sad_mm / t[idx]
        base = c.dose_gy * scale**2 * (depth > 0)
        amp = base * c.scatter_amp * scatter_depth(depth, c)
        fa, fb = u[idx] / w - 0.5 - a0, v[idx] / w - 0.5 - b0  # fractional cell coordinates
        ia, ib = np.floor(fa).astype(np.int64), np.floor(fb).astype(np.int64)
        for da in (0, 1):
            for db in (0, 1):
                ka, kb = ia + da, ib + db
                wt = (1 - np.abs(fa - ka)) * (1 - np.abs(fb - kb))
                ok = (ka >= 0) & (ka < na) & (kb >= 0) & (kb < nb) & (wt > 0) & (amp > 0)
                s_rows.append(idx[ok])
                s_cols.append(off + ka[ok] * nb + kb[ok])
                s_vals.append((amp * wt)[ok].astype(np.float32))
        if c.leaf_transmission > 0:
            own = blur.cell[(blur.cell >= off) & (blur.cell < off + na * nb)] - off  # this beam's open cells
            ca, cb = own // nb + a0, own % nb + b0
            ja0, ja1, jb0, jb1 = ca.min(), ca.max() + 1, cb.min(), cb.max() + 1
            sig = dm.sigma_mm(depth, c) * scale
            jaw = dm.profile(u[idx] - 0.5 * (ja0 + ja1) * w, (ja1 - ja0) * w, sig) * \
                dm.profile(v[idx] - 0.5 * (jb0 + jb1) * w, (jb1 - jb0) * w, sig)
            val = base * c.leaf_transmission * c.leaf_mu_ratio * dm.tpr(depth, c) * jaw
            keep = val >= c.entry_cutoff * c.dose_gy
            t_rows.append(idx[keep])
            t_cols.append(np.full(int(keep.sum()), int(bi)))
            t_vals.append(val[keep].astype(np.float32))
    n = grid.ijk.shape[0]
    cat = (lambda xs, dt: np.concatenate(xs).astype(dt) if xs else np.zeros(0, dt))  # noqa: E731
    scatter = sparse.csr_matrix((cat(s_vals, np.float32), (cat(s_rows, np.int64), cat(s_cols, np.int64))),
                                shape=(n, blur.n_cells), dtype=np.float32)
    trans = sparse.csr_matrix((cat(t_vals, np.float32), (cat(t_rows, np.int64), cat(t_cols, np.int64))),
                              shape=(n, len(c.gantry_deg)), dtype=np.float32)
    scatter.sum_duplicates()
    trans.sum_duplicates()
    return scatter, trans
