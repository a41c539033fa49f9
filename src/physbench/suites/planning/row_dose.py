"""The dose of a few rows of a dose influence, and its adjoint, touching only the nodes they read.

An objective reads structure voxels only; with the model's graded voxels as their own nodes those
rows are a gather of their nodes (no interpolation), so the optimizer multiplies the node rows of
the structures and never the rest of External. Each product sums the same nonzero terms in the
same order as the product over every node (a row slice keeps its entries; the adjoint's skipped
rows hold exact zeros), so a plan does not depend on which path computed it.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from physbench.suites.planning.influence import DoseInfluence, node_dose


class RowDose:
    """``rows``' dose = interp[rows] @ forward(w), computed over the nodes those rows read."""

    def __init__(self, inf: DoseInfluence, rows: np.ndarray):
        p = inf.interp[rows].tocsr()
        cols = np.unique(p.indices)
        self.n_rows, self.n_nodes = int(p.shape[0]), int(cols.size)
        # the adjoint reads these same arrays through .T (no transposed copy): each output sums over
        # the nodes in the same order as a transposed CSR would, and one matrix is read a step, not
        # two (a forward and adjoint pair on pt_252: 16.4 ms with the copy, 8.0 ms without)
        self.nodes = inf.nodes[cols].tocsr()
        self.beams = inf.beams[cols].tocsr() if inf.beams is not None else None
        self.scatter = inf.scatter[cols].tocsr() if inf.scatter is not None else None
        self.agg, self.blur = inf.agg, inf.blur
        local = sparse.csr_matrix((p.data, np.searchsorted(cols, p.indices), p.indptr), shape=(p.shape[0], cols.size))
        # a gather when every row is one node with weight 1 (graded voxels; an OpenKBP-Opt matrix)
        one = bool(np.all(np.diff(local.indptr) == 1) and np.all(local.data == 1))
        self.gather = local.indices.astype(np.int64) if one else None
        self.P = None if one else local
        self.PT64 = None if one else local.T.tocsr().astype(np.float64)

    def node_forward(self, w32: np.ndarray) -> np.ndarray:
        return node_dose(self.nodes, self.beams, self.agg, self.scatter, self.blur, w32)

    def forward(self, w: np.ndarray) -> np.ndarray:
        """float64 doses of the rows for weights ``w`` (computed in float32, as the matrix is)."""
        nd = self.node_forward(np.asarray(w, dtype=np.float32))
        return np.asarray(nd[self.gather] if self.gather is not None else self.P @ nd, dtype=np.float64)

    def adjoint(self, g_rows: np.ndarray) -> np.ndarray:
        """The transpose of ``forward`` applied to float64 row values (node sums in float64, then float32)."""
        if self.gather is not None:
            node_g = np.bincount(self.gather, weights=g_rows, minlength=self.n_nodes).astype(np.float32)
        else:
            node_g = (self.PT64 @ g_rows).astype(np.float32)
        nz = np.flatnonzero(node_g)
        if nz.size * 4 > node_g.size:  # dense enough: the full product costs no more
            out = self.nodes.T @ node_g
        else:  # most voxels meet their terms: only the nodes with a gradient
            out = np.asarray(self.nodes[nz].T @ node_g[nz])
        if self.beams is not None and self.agg is not None:
            out = out + self.agg.T @ (self.beams.T @ node_g)
        if self.scatter is not None and self.blur is not None:
            out = out + self.blur.adjoint(self.scatter.T @ node_g)
        return np.asarray(out, dtype=np.float64)
