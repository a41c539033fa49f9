"""A 6 MV pencil-beam dose model on External-as-water (see docs/planning-dose-model.md).

Dose to a point from beamlet (a, b) of a beam, per unit beamlet weight:

    D = K * TPR(d) * (SAD / t)^2 * P(U - U_a; w, s) * P(V - V_b; w, s)

with d the radiological depth (External = water), t the distance from the source along the
beam axis, (U, V) the point's divergent projection onto the isocentre plane, w the 5 mm beamlet
width there, P the width-w aperture convolved with a Gaussian of sigma s (the lateral penumbra,
growing with depth, projected onto the isocentre plane). Dose is computed at every voxel of every
structure (full resolution: what goals, objectives and metrics read) and, for the other External
voxels, on a coarse node grid (every ``node_step`` voxels) interpolated trilinearly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numpy as np
from scipy import sparse
from scipy.special import erf

from physbench.suites.planning import geometry as geo
from physbench.suites.planning.openkbp import GRID_SHAPE, Patient, in_sorted, sorted_unique

MODEL_VERSION = "pencil-6mv-2"  # 2: structure voxels are their own dose nodes
BEAM_MODEL_VERSION = "blurred-fluence-1"  # scatter_model.py: its format and formulas


@dataclass(frozen=True)
class ModelConstants:
    """Every number of the model; the content hash of a dose-influence matrix includes them all."""

    gantry_deg: tuple[float, ...] = geo.GANTRY_DEG  # OpenKBP-Opt: nine coplanar equispaced beams
    sad_mm: float = geo.SAD_MM
    beamlet_mm: float = 5.0  # OpenKBP-Opt: 5 x 5 mm beamlets at the isocentre plane
    margin_mm: float = 5.0  # beamlets cover the targets' beam's-eye projection grown by this
    # TPR(d) = (1 - exp(-d / buildup)) exp(-mu d), scaled to 1 at its maximum (d_max = 15 mm).
    mu_per_mm: float = 0.0050  # narrow-beam effective attenuation of 6 MV in water (0.050 /cm)
    buildup_mm: float = 3.76  # puts the maximum at 15 mm, the 6 MV d_max in water
    # Gaussian penumbra sigma of the primary: 2.0 mm at the surface, + 0.015 per mm of depth (80-20 %
    # width 3.4 mm at the surface, 5.9 mm at 10 cm); with the scatter below a 10 x 10 cm field then has
    # an 80-20 % penumbra of about 7 mm at 10 cm, inside the 5-8 mm of published 6 MV data (beam_data.py).
    sigma0_mm: float = 2.0
    sigma_slope: float = 0.015
    dose_gy: float = 2.0  # Gy per unit weight at d_max on the axis of a broad, uniform beam
    lateral_cutoff: float = 0.005  # a beamlet's 1-D profile is cut where it falls below this
    entry_cutoff: float = 1e-4  # matrix entries below this fraction of dose_gy are dropped
    node_step: tuple[int, int, int] = (2, 2, 2)  # coarse dose grid: every 2nd voxel on each axis
    # Beam component (scatter_model.py; 0 switches it off): phantom scatter and leaf transmission,
    # each driven by the beam's mean beamlet weight.
    scatter_amp: float = 0.0  # scatter TPR per unit of the depth curve below, for a filled field
    scatter_depth_mm: float = 100.0  # build-up length of the scatter depth curve
    scatter_mu_per_mm: float = 0.0020  # attenuation of the scatter depth curve
    scatter_sigma_mm: float = 37.0  # lateral spread of scatter around the field, at the isocentre plane
    scatter_mid_sigma_mm: float = 10.0  # a medium-range part (the beamlets' tails), at the isocentre plane
    scatter_mid_fraction: float = 0.0  # its share of the scatter
    # fraction of the open fluence under closed leaves: 0.017 in SCATTER (LoSasso et al., Med Phys 25:1919,
    # 1998: 1.7-2.0 % at 6 MV; Arnfield et al., Med Phys 27:2231, 2000: 1.68 % leakage of a 10 x 10 cm field)
    leaf_transmission: float = 0.0
    leaf_mu_ratio: float = 2.0  # a leaf pair's beam-on time over the beam's mean beamlet weight

    @property
    def beam_component(self) -> bool:
        return self.scatter_amp > 0 or self.leaf_transmission > 0

    def digest(self) -> str:
        fields = {**asdict(self), "beam_model": BEAM_MODEL_VERSION}
        return hashlib.sha256(json.dumps({"version": MODEL_VERSION, **fields}, sort_keys=True).encode()).hexdigest()


# Primary pencil beams only (named option `primary`): no scatter tail, no leaf transmission.
PRIMARY = ModelConstants()
# The default: scatter and leaf transmission switched on (scatter_model.py). Constants: a broad
# 10 x 10 cm field then has TPR(10) and TPR20/10 in the published 6 MV range (BJR Supplement 25)
# and about 2-4 % dose 3 cm outside the field edge (AAPM TG-158, Kry et al. 2017; made of phantom
# scatter and transmission as Fraass and van de Geijn, Med Phys 10:809, 1983, separate them); leaf
# transmission 1.7 % (LoSasso et al. 1998; Arnfield et al. 2000).
SCATTER = ModelConstants(scatter_amp=0.36, scatter_sigma_mm=45.0, scatter_mid_sigma_mm=10.0, scatter_mid_fraction=0.4,
                         scatter_mu_per_mm=0.0025, leaf_transmission=0.017)
DEFAULT = SCATTER


def tpr(depth_mm: np.ndarray, c: ModelConstants = DEFAULT) -> np.ndarray:
    """Build-up times exponential attenuation, 1 at d_max; zero at zero depth (no surface dose)."""
    d = np.maximum(np.asarray(depth_mm, dtype=np.float64), 0.0)
    mu, b = c.mu_per_mm, c.buildup_mm
    d_max = b * np.log1p(1.0 / (b * mu))  # where the derivative of the unscaled curve vanishes
    peak = (1.0 - np.exp(-d_max / b)) * np.exp(-mu * d_max)
    return (1.0 - np.exp(-d / b)) * np.exp(-mu * d) / peak


def d_max_mm(c: ModelConstants = DEFAULT) -> float:
    return float(c.buildup_mm * np.log1p(1.0 / (c.buildup_mm * c.mu_per_mm)))


def profile(x_mm: np.ndarray, width_mm: float, sigma_mm: np.ndarray) -> np.ndarray:
    """A width-w aperture convolved with a unit Gaussian of sigma s, at offset x from its centre."""
    r = np.sqrt(2.0) * sigma_mm
    return 0.5 * (erf((x_mm + 0.5 * width_mm) / r) - erf((x_mm - 0.5 * width_mm) / r))


def sigma_mm(depth_mm: np.ndarray, c: ModelConstants = DEFAULT) -> np.ndarray:
    return c.sigma0_mm + c.sigma_slope * np.maximum(depth_mm, 0.0)


@dataclass
class NodeGrid:
    """Dose nodes and the map from External voxels to them: a graded voxel is its own node (an
    identity row); every other External voxel is trilinear in the coarse nodes around it."""

    ijk: np.ndarray  # (n_nodes, 3) grid coordinates of the nodes (may reach one step past the grid)
    interp: sparse.csr_matrix  # (n_external, n_nodes): voxel dose = interp @ node dose


def node_grid(external: np.ndarray, step: tuple[int, int, int], fine: np.ndarray | None = None) -> NodeGrid:
    """Nodes for External: each voxel of ``fine`` (sorted flat indices, e.g. every structure) at
    full resolution, and the nodes at multiples of ``step`` that the other voxels interpolate from.
    A coarse node on a fine voxel is that voxel's node (the same point, the same dose)."""
    ijk = geo.grid_ijk(external)
    n = ijk.shape[0]
    is_fine = in_sorted(external, fine) if fine is not None and fine.size else np.zeros(n, dtype=bool)
    st = np.asarray(step, dtype=np.int64)
    ext = tuple(np.asarray(GRID_SHAPE) + st)  # an extended grid: one step past the last voxel on each axis
    rows, keys, weights = [np.flatnonzero(is_fine)], [], [np.ones(int(is_fine.sum()))]
    keys.append(np.ravel_multi_index(ijk[is_fine].T, ext))
    coarse = np.flatnonzero(~is_fine)
    lo = (ijk[coarse] // st) * st
    frac = (ijk[coarse] - lo) / st
    for ci in range(8):
        bits = np.array([(ci >> 2) & 1, (ci >> 1) & 1, ci & 1])
        w = np.prod(np.where(bits, frac, 1.0 - frac), axis=1)
        keep = w > 0
        rows.append(coarse[keep])
        keys.append(np.ravel_multi_index((lo[keep] + bits * st).T, ext))
        weights.append(w[keep])
    uniq, col = np.unique(np.concatenate(keys), return_inverse=True)
    nodes = np.stack(np.unravel_index(uniq, ext), axis=1)
    interp = sparse.csr_matrix((np.concatenate(weights), (np.concatenate(rows), col)), shape=(n, uniq.size))
    return NodeGrid(nodes, interp)


def graded_voxels(patient: Patient) -> np.ndarray:
    """Sorted flat indices of every structure's voxels inside External: where goals, objectives and
    metrics read dose, computed there at full resolution."""
    parts = [patient.structures[n] for n in patient.structures]
    if not parts:
        return np.zeros(0, dtype=np.int64)
    every = sorted_unique(np.concatenate(parts))
    return every[in_sorted(every, patient.external)]


@dataclass
class BeamletTable:
    """One entry per matrix column: beam index, fluence-map row (across leaves) and column."""

    beam: np.ndarray
    row: np.ndarray
    col: np.ndarray


def build_node_matrix(patient: Patient, grid: NodeGrid, c: ModelConstants = DEFAULT) -> tuple[sparse.csr_matrix, BeamletTable, dict]:
    """(nodes x beamlets) dose per unit weight, the beamlet table, and geometry facts."""
    targets = np.concatenate([patient.mask(t) for t in patient.targets])
    iso = geo.isocentre(targets, patient.voxel_mm)
    tpts = geo.positions_mm(geo.grid_ijk(targets), patient.voxel_mm)
    npts = geo.positions_mm(grid.ijk, patient.voxel_mm)
    inside = np.zeros(GRID_SHAPE, dtype=bool)
    inside.flat[patient.external] = True
    slices = np.minimum(grid.ijk[:, 2], GRID_SHAPE[2] - 1)
    data, rows, cols = [], [], []
    tb, tr, tc = [], [], []
    offset = 0
    w = c.beamlet_mm
    for bi, g in enumerate(c.gantry_deg):
        beam = geo.Beam(g, iso)
        cells = geo.beamlet_cells(beam, tpts, w, c.margin_mm)
        a0, b0 = cells.min(axis=0)
        lut = -np.ones(tuple(cells.max(axis=0) - (a0, b0) + 1), dtype=np.int64)
        lut[cells[:, 0] - a0, cells[:, 1] - b0] = np.arange(len(cells))
        t, u, v = beam.project(npts)
        # nodes whose projection can reach a cell at all
        reach = 0.5 * w + 3.0 * sigma_mm(400.0, c) * c.sad_mm / np.maximum(t, 1.0)
        near = ((u > a0 * w - reach) & (u < (cells[:, 0].max() + 1) * w + reach)
                & (v > b0 * w - reach) & (v < (cells[:, 1].max() + 1) * w + reach) & (t > 0))
        idx = np.nonzero(near)[0]
        depth = geo.radiological_depth(beam, inside, patient.voxel_mm, npts[idx], slices[idx])
        scale = c.sad_mm / t[idx]
        amp = c.dose_gy * tpr(depth, c) * scale**2
        sig = sigma_mm(depth, c) * scale  # penumbra projected onto the isocentre plane
        half = 0.5 * w + sig * _cut_sigmas(c.lateral_cutoff)
        ua, va = u[idx], v[idx]
        alo = np.floor((ua - half) / w).astype(np.int64)
        blo = np.floor((va - half) / w).astype(np.int64)
        span = int(np.ceil((2 * half.max()) / w)) + 1
        for oa in range(span):
            a = alo + oa
            px = profile(ua - (a + 0.5) * w, w, sig)
            for ob in range(span):
                b = blo + ob
                ok = (a >= a0) & (a < a0 + lut.shape[0]) & (b >= b0) & (b < b0 + lut.shape[1])
                col = np.full(idx.size, -1, dtype=np.int64)
                col[ok] = lut[a[ok] - a0, b[ok] - b0]
                val = amp * px * profile(va - (b + 0.5) * w, w, sig)
                keep = (col >= 0) & (val >= c.entry_cutoff * c.dose_gy)
                data.append(val[keep].astype(np.float32))
                rows.append(idx[keep])
                cols.append(col[keep] + offset)
        tb.append(np.full(len(cells), bi))
        tc.append(cells[:, 0] + 32)  # OpenKBP-Opt's 64 x 64 fluence map puts the axis at 32
        tr.append(cells[:, 1] + 32)
        offset += len(cells)
    mat = sparse.csr_matrix((np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))),
                            shape=(grid.ijk.shape[0], offset), dtype=np.float32)
    mat.sum_duplicates()
    table = BeamletTable(np.concatenate(tb).astype(np.int32), np.concatenate(tr).astype(np.int32),
                         np.concatenate(tc).astype(np.int32))
    return mat, table, {"isocentre_mm": [round(x, 3) for x in iso]}


def _cut_sigmas(cutoff: float) -> float:
    """Distance beyond the aperture edge, in sigmas, where a 1-D profile falls to ``cutoff``."""
    from scipy.special import erfcinv

    return float(np.sqrt(2.0) * erfcinv(2.0 * cutoff))
