"""Beam geometry on the OpenKBP grid: voxel positions, nine coplanar beams, beam's-eye projection, depths.

Grid axes (0, 1, 2) carry spacings ``voxel_mm``; axes 0 and 1 span the axial plane and axis 2
runs between slices, so a coplanar gantry rotates about axis 2. Gantry 0 sends the beam along
+axis 0 (from the row-0 side, anterior in the usual image orientation; no CT orientation is
shipped, so the handedness of the rotation is a convention, not a verified patient direction).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from physbench.suites.planning.openkbp import GRID_SHAPE

SAD_MM = 1000.0  # source-axis distance of a C-arm linac (OpenKBP-Opt: isocentric 6 MV IMRT)
GANTRY_DEG: tuple[float, ...] = tuple(float(a) for a in range(0, 360, 40))  # 0..320 in 40-degree steps


def grid_ijk(flat: np.ndarray) -> np.ndarray:
    """(n, 3) integer grid coordinates of C-order raveled indices into 128^3."""
    return np.stack(np.unravel_index(np.asarray(flat, dtype=np.int64), GRID_SHAPE), axis=1)


def positions_mm(ijk: np.ndarray, voxel_mm: tuple[float, float, float]) -> np.ndarray:
    """Voxel-centre positions (mm) of grid coordinates (may be fractional or beyond the grid)."""
    return np.asarray(ijk, dtype=np.float64) * np.asarray(voxel_mm, dtype=np.float64)


@dataclass(frozen=True)
class Beam:
    """One coplanar beam: unit direction (source to isocentre) and the two beam's-eye axes."""

    gantry_deg: float
    iso_mm: tuple[float, float, float]

    @property
    def direction(self) -> np.ndarray:
        a = np.deg2rad(self.gantry_deg)
        return np.array([np.cos(a), np.sin(a), 0.0])

    @property
    def u_axis(self) -> np.ndarray:
        """Lateral axis in the axial plane (the leaf-travel direction: fluence-map columns)."""
        a = np.deg2rad(self.gantry_deg)
        return np.array([-np.sin(a), np.cos(a), 0.0])

    @property
    def v_axis(self) -> np.ndarray:
        """Axis between slices (across leaf pairs: fluence-map rows)."""
        return np.array([0.0, 0.0, 1.0])

    def project(self, pts_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(t, U, V): distance from the source along the axis, and the point's divergent
        projection onto the isocentre plane (mm), for each row of ``pts_mm``."""
        rel = np.asarray(pts_mm, dtype=np.float64) - np.asarray(self.iso_mm)
        t = SAD_MM + rel @ self.direction
        scale = SAD_MM / t
        return t, (rel @ self.u_axis) * scale, (rel @ self.v_axis) * scale


def isocentre(target_flat: np.ndarray, voxel_mm: tuple[float, float, float]) -> tuple[float, float, float]:
    """Centroid of the union of the targets (mm): the single isocentre of all nine beams."""
    c = positions_mm(grid_ijk(target_flat), voxel_mm).mean(axis=0)
    return float(c[0]), float(c[1]), float(c[2])


def beamlet_cells(beam: Beam, target_pts_mm: np.ndarray, size_mm: float, margin_mm: float) -> np.ndarray:
    """(n, 2) integer cells (column a, row b) of the iso-plane grid of ``size_mm`` squares that the
    targets project onto, grown by ``margin_mm``; cell (a, b) spans [a, a+1) x [b, b+1) x size."""
    _t, u, v = beam.project(target_pts_mm)
    a = np.floor(u / size_mm).astype(np.int64)
    b = np.floor(v / size_mm).astype(np.int64)
    a0, b0 = a.min(), b.min()
    grow = int(np.ceil(margin_mm / size_mm))
    grid = np.zeros((a.max() - a0 + 1 + 2 * grow, b.max() - b0 + 1 + 2 * grow), dtype=bool)
    grid[a - a0 + grow, b - b0 + grow] = True
    grid = ndimage.binary_closing(grid, structure=np.ones((3, 3)), border_value=0)  # fill sampling gaps
    if grow:
        grid = ndimage.binary_dilation(grid, structure=np.ones((3, 3)), iterations=grow)
    ia, ib = np.nonzero(grid)
    cells = np.stack([ia + a0 - grow, ib + b0 - grow], axis=1)
    order = np.lexsort((cells[:, 0], cells[:, 1]))  # row-major: by row b, then column a
    return cells[order]


def radiological_depth(beam: Beam, inside: np.ndarray, voxel_mm: tuple[float, float, float],
                       pts_mm: np.ndarray, slices: np.ndarray) -> np.ndarray:
    """Water-equivalent depth (mm) of each point along the beam, External taken as water.

    ``inside`` is the External mask as a boolean 128^3 volume; ``slices`` the (integer) slice
    index of each point. Depth is the path length inside External from the entrance to the
    point along a ray parallel to the beam axis (divergence is neglected here only: rays at the
    field edge are under 10 degrees off axis, a path-length error under 1.5 percent).
    Computed per slice on a rotated grid: sample the mask, accumulate along the beam, read back.
    """
    h = float(min(voxel_mm[0], voxel_mm[1]))
    d, e = beam.direction[:2], beam.u_axis[:2]
    iso = np.asarray(beam.iso_mm[:2])
    ks = np.unique(slices)
    ii, jj, kk = np.nonzero(inside[:, :, ks] if ks.size else inside[:, :, :0])
    if ii.size == 0:
        return np.zeros(len(pts_mm))
    body = np.stack([ii * voxel_mm[0], jj * voxel_mm[1]], axis=1) - iso
    s_body, u_body = body @ d, body @ e
    pad = 2.0 * h
    s0, s1 = s_body.min() - pad, s_body.max() + pad
    u0, u1 = u_body.min() - pad, u_body.max() + pad
    ns, nu = int(np.ceil((s1 - s0) / h)) + 1, int(np.ceil((u1 - u0) / h)) + 1
    sg, ug = np.meshgrid(s0 + h * np.arange(ns), u0 + h * np.arange(nu), indexing="ij")
    xi = (iso[0] + sg * d[0] + ug * e[0]) / voxel_mm[0]
    xj = (iso[1] + sg * d[1] + ug * e[1]) / voxel_mm[1]
    vol = inside[:, :, ks].astype(np.float32)
    depth = np.empty((ns, nu, ks.size), dtype=np.float32)
    for n in range(ks.size):
        m = ndimage.map_coordinates(vol[:, :, n], [xi, xj], order=1, mode="constant", cval=0.0)
        # midpoint rule: the depth of a sample is the mask accumulated before it plus half its own
        depth[:, :, n] = h * (np.cumsum(m, axis=0) - 0.5 * m)
    rel = np.asarray(pts_mm[:, :2]) - iso
    ps = (rel @ d - s0) / h
    pu = (rel @ e - u0) / h
    pk = np.searchsorted(ks, slices).astype(np.float64)
    out = ndimage.map_coordinates(depth, [ps, pu, pk], order=1, mode="nearest")
    return np.maximum(out.astype(np.float64), 0.0)
