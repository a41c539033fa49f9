"""Dose influence: the sparse map from beamlet weights to the dose of every External voxel.

Two sources give the same object: this suite's pencil-beam model (``build``; a node matrix
with a node at every structure voxel, and a trilinear interpolation from coarse nodes for the
rest of External) and a user's OpenKBP-Opt ``dij.npz`` with its
``beamlet_indices.csv`` (``load_openkbp_opt``; the matrix rows are the voxels, so the
interpolation is the identity). Built matrices are cached on disk under their content hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from physbench.suites.planning import dose_model as dm
from physbench.suites.planning.openkbp import N_GRID, Patient, PatientDataError, in_sorted

CACHE_ENV = "PHYSBENCH_PLANNING_CACHE"
FORMAT_VERSION = 1
MAX_OUTSIDE_SHARE = 0.02  # rows with dose outside the possible-dose mask a user's matrix may have
MIN_TARGET_REACHED = 0.5  # share of each target's voxels a user's matrix must give dose to


def cache_dir() -> Path:
    """``$PHYSBENCH_PLANNING_CACHE`` or ``~/.cache/physbench/planning``."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path.home() / ".cache" / "physbench" / "planning"


def node_dose(nodes: sparse.csr_matrix, beams: sparse.csr_matrix | None, agg: sparse.csr_matrix | None,
              scatter: sparse.csr_matrix | None, blur: Any, w32: np.ndarray) -> np.ndarray:
    """Node doses of float32 weights: beamlets, then leaf transmission and scatter where present
    (shared by the whole matrix and by a row subset of it, so both sum in the same order)."""
    out = nodes @ w32
    if beams is not None and agg is not None:
        out = out + beams @ (agg @ w32)
    if scatter is not None and blur is not None:
        out = out + scatter @ blur.forward(w32)
    return out


@dataclass
class DoseInfluence:
    """voxel dose (Gy) = interp @ (nodes @ w); rows of ``interp`` follow ``voxels`` (sorted)."""

    patient_id: str
    content_hash: str
    source: str
    voxels: np.ndarray  # sorted flat grid indices of the External voxels (rows)
    nodes: sparse.csr_matrix  # (n_nodes, n_beamlets) float32, Gy per unit weight
    interp: sparse.csr_matrix  # (n_voxels, n_nodes)
    beam: np.ndarray  # per beamlet: beam index 0..8
    row: np.ndarray  # per beamlet: fluence-map row (across leaf pairs)
    col: np.ndarray  # per beamlet: fluence-map column (along leaf travel)
    info: dict[str, Any] = field(default_factory=dict)
    beams: sparse.csr_matrix | None = None  # (n_nodes, n_beams): leaf transmission (scatter_model.py)
    agg: sparse.csr_matrix | None = None  # (n_beams, n_beamlets): each beam's mean beamlet weight
    scatter: sparse.csr_matrix | None = None  # (n_nodes, n_cells): scatter from the blurred fluence maps
    blur: Any = None  # scatter_model.Blur: weights -> blurred fluence maps
    _nodes_t: sparse.csr_matrix | None = field(default=None, repr=False)

    @property
    def n_beamlets(self) -> int:
        return int(self.nodes.shape[1])

    @property
    def nodes_t(self) -> sparse.csr_matrix:
        if self._nodes_t is None:
            self._nodes_t = self.nodes.T.tocsr()
        return self._nodes_t

    def forward(self, w32: np.ndarray) -> np.ndarray:
        """Node doses (float32) of float32 weights: the beamlet matrix plus the beam component."""
        return node_dose(self.nodes, self.beams, self.agg, self.scatter, self.blur, w32)

    def adjoint(self, v32: np.ndarray) -> np.ndarray:
        """The transpose of ``forward`` applied to float32 node values."""
        out = self.nodes_t @ v32
        if self.beams is not None and self.agg is not None:
            out = out + self.agg.T @ (self.beams.T @ v32)
        if self.scatter is not None and self.blur is not None:
            out = out + self.blur.adjoint(self.scatter.T @ v32)
        return out

    def node_dose(self, w: np.ndarray) -> np.ndarray:
        return np.asarray(self.forward(np.asarray(w, dtype=np.float32)), dtype=np.float64)

    def dose(self, w: np.ndarray) -> np.ndarray:
        """Dose of every External voxel (same order as ``voxels``) for beamlet weights ``w``."""
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (self.n_beamlets,) or not np.all(np.isfinite(w)):
            raise ValueError(f"weights must be {self.n_beamlets} finite numbers")
        return np.asarray(self.interp @ self.node_dose(w), dtype=np.float64)

    def rows_of(self, flat: np.ndarray) -> tuple[np.ndarray, int]:
        """Row numbers of the flat indices that lie in External, and how many do not."""
        ok = in_sorted(flat, self.voxels)
        return np.searchsorted(self.voxels, flat[ok]), int((~ok).sum())

    def nbytes(self) -> int:
        mats = [m for m in (self.nodes, self.interp, self.beams, self.agg, self.scatter) if m is not None]
        return sum(m.data.nbytes + m.indices.nbytes + m.indptr.nbytes for m in mats)


def model_hash(patient: Patient, constants: dm.ModelConstants = dm.DEFAULT) -> str:
    """Content hash of a modelled matrix: the anatomy, every model constant, the format."""
    h = hashlib.sha256()
    for part in (patient.content_hash(), constants.digest(), str(FORMAT_VERSION)):
        h.update(part.encode())
    return h.hexdigest()


def build(patient: Patient, constants: dm.ModelConstants = dm.DEFAULT) -> DoseInfluence:
    """The pencil-beam matrix of ``patient`` (no cache)."""
    t0 = time.perf_counter()
    grid = dm.node_grid(patient.external, constants.node_step, dm.graded_voxels(patient))
    mat, table, info = dm.build_node_matrix(patient, grid, constants)
    beams = agg = scatter = blur = None
    if constants.beam_component:
        from physbench.suites.planning import scatter_model as sm

        blur = sm.blur_for(table.beam, table.row, table.col, constants)
        scatter, beams = sm.build_beam_matrices(patient, grid, blur, constants)
        agg = sm.aggregation(table.beam.astype(np.int64), len(constants.gantry_deg))
    info.update({"build_s": round(time.perf_counter() - t0, 3), "n_nodes": int(mat.shape[0]),
                 "nnz": int(mat.nnz), "node_step": list(constants.node_step), "model": dm.MODEL_VERSION,
                 "beam_component": constants.beam_component})
    return DoseInfluence(patient.id, model_hash(patient, constants), f"model:{dm.MODEL_VERSION}",
                         patient.external, mat, grid.interp.astype(np.float32).tocsr(),
                         table.beam, table.row, table.col, info, beams, agg, scatter, blur)


def _pack(m: sparse.csr_matrix, prefix: str) -> dict[str, np.ndarray]:
    return {f"{prefix}_data": m.data, f"{prefix}_indices": m.indices, f"{prefix}_indptr": m.indptr,
            f"{prefix}_shape": np.asarray(m.shape, dtype=np.int64)}


def _unpack(z: Any, prefix: str) -> sparse.csr_matrix:
    return sparse.csr_matrix((z[f"{prefix}_data"], z[f"{prefix}_indices"], z[f"{prefix}_indptr"]),
                             shape=tuple(int(x) for x in z[f"{prefix}_shape"]))


def save(inf: DoseInfluence, path: Path) -> None:
    """Write atomically (a temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"patient_id": inf.patient_id, "content_hash": inf.content_hash, "source": inf.source,
            "info": inf.info, "format": FORMAT_VERSION}
    extra = {}
    if inf.beams is not None and inf.agg is not None and inf.scatter is not None and inf.blur is not None:
        extra = {**_pack(inf.beams, "beams"), **_pack(inf.agg, "agg"), **_pack(inf.scatter, "scatter"),
                 "blur_grid": inf.blur.grid, "blur_cell": inf.blur.cell,
                 "blur_sigma": np.asarray([inf.blur.sigma_cells, inf.blur.mid_sigma_cells, inf.blur.mid_fraction])}
    arrays = {**_pack(inf.nodes, "nodes"), **_pack(inf.interp, "interp"), **extra, "voxels": inf.voxels,
              "beam": inf.beam, "row": inf.row, "col": inf.col, "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)}
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, expect_hash: str | None = None) -> DoseInfluence | None:
    """A cached matrix, or None when the file is missing, unreadable or for other content."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            if meta.get("format") != FORMAT_VERSION or (expect_hash and meta["content_hash"] != expect_hash):
                return None
            beams = agg = scatter = blur = None
            if "blur_grid" in z.files:
                from physbench.suites.planning.scatter_model import Blur

                beams, agg, scatter = _unpack(z, "beams"), _unpack(z, "agg"), _unpack(z, "scatter")
                blur = Blur(z["blur_grid"], z["blur_cell"], *(float(x) for x in z["blur_sigma"][:3]))
            return DoseInfluence(meta["patient_id"], meta["content_hash"], meta["source"], z["voxels"],
                                 _unpack(z, "nodes"), _unpack(z, "interp"), z["beam"], z["row"], z["col"], meta["info"],
                                 beams, agg, scatter, blur)
    except (OSError, ValueError, KeyError, json.JSONDecodeError):
        return None


def influence_for(patient: Patient, constants: dm.ModelConstants = dm.DEFAULT, cache: Path | None = None,
                  use_cache: bool = True) -> DoseInfluence:
    """The modelled matrix from the cache, building and caching it on a miss."""
    key = model_hash(patient, constants)
    path = (cache or cache_dir()) / f"{patient.id}-{key[:24]}.npz"
    if use_cache:
        hit = load(path, key)
        if hit is not None:
            hit.info["cached"] = True
            return hit
    inf = build(patient, constants)
    if use_cache:
        try:
            save(inf, path)
        except OSError:
            inf.info["cache_error"] = f"could not write {path}"
    return inf


def dij_folder(root: str | Path, patient_id: str) -> Path:
    """A patient's OpenKBP-Opt folder under ``root``: ``root/<patient>/`` when it holds a dij.npz,
    else ``root`` itself (one patient's folder)."""
    root = Path(root)
    own = root / patient_id
    return own if (own / "dij.npz").is_file() else root


def dij_patients(root: str | Path, ids: list[str]) -> list[str]:
    """The patients of ``ids`` that ``root`` has a matrix for (all of them for a one-patient folder)."""
    root = Path(root)
    if not root.is_dir():
        raise PatientDataError(f"--dij: no folder {str(root)!r}")
    if (root / "dij.npz").is_file():
        return list(ids)
    return [i for i in ids if (root / i / "dij.npz").is_file()]


def dij_hash(patient: Patient, folder: str | Path) -> str:
    """Content hash of a user's matrix for ``patient``: the anatomy and both files' bytes."""
    folder = Path(folder)
    h = hashlib.sha256(patient.content_hash().encode())
    for name in ("dij.npz", "beamlet_indices.csv"):
        try:
            h.update((folder / name).read_bytes())
        except OSError as exc:
            raise PatientDataError(f"{folder}: cannot read {name} ({exc.strerror})") from None
    return h.hexdigest()


def _check_belongs(nodes: sparse.csr_matrix, patient: Patient, outside: int, filled: int, where: Path) -> None:
    """Refuse a matrix that is not this patient's: dose rows outside the mask, or a target unreached."""
    if filled and outside / filled > MAX_OUTSIDE_SHARE:
        raise PatientDataError(f"{where}: {outside / filled:.1%} of the rows with dose lie outside {patient.id}'s "
                               f"possible-dose mask (at most {MAX_OUTSIDE_SHARE:.0%}): not this patient's matrix")
    has_dose = np.diff(nodes.indptr) > 0
    for t in patient.targets:
        rows = np.searchsorted(patient.external, patient.mask(t))
        rows = rows[rows < patient.external.size]
        reached = float(has_dose[rows].mean()) if rows.size else 0.0
        if reached < MIN_TARGET_REACHED:
            raise PatientDataError(f"{where}: {t} gets dose in {reached:.0%} of its voxels (at least "
                                   f"{MIN_TARGET_REACHED:.0%} needed): not this patient's matrix")


def load_openkbp_opt(folder: str | Path, patient: Patient) -> DoseInfluence:
    """An OpenKBP-Opt ``dij.npz`` (scipy sparse, 128^3 rows x beamlets, Gy per unit intensity)
    with ``beamlet_indices.csv`` (columns row, column, angle; angle 1..9): rows outside the
    possible-dose mask are dropped, as OpenKBP-Opt's evaluation ignores them; a matrix with more
    than a small share of them, or one that leaves a target without dose, is refused."""
    folder = Path(folder)
    dij_path, idx_path = folder / "dij.npz", folder / "beamlet_indices.csv"
    for f in (dij_path, idx_path):
        if not f.is_file():
            raise PatientDataError(f"{folder}: missing {f.name}")
    try:
        dij = sparse.load_npz(dij_path).tocsr()
    except (OSError, ValueError) as exc:
        raise PatientDataError(f"{dij_path}: not a scipy sparse npz file ({exc})") from None
    if dij.shape[0] != N_GRID:
        raise PatientDataError(f"{dij_path}: {dij.shape[0]} rows, expected {N_GRID} (128^3)")
    beam, row, col = _read_beamlet_indices(idx_path)
    if beam.size != dij.shape[1]:
        raise PatientDataError(f"{idx_path}: {beam.size} beamlets but dij has {dij.shape[1]} columns")
    if dij.nnz and (not np.all(np.isfinite(dij.data)) or dij.data.min() < 0):
        raise PatientDataError(f"{dij_path}: entries must be finite and non-negative")
    vox = patient.external
    nodes = dij[vox].astype(np.float32).tocsr()
    eye = sparse.identity(vox.size, dtype=np.float32, format="csr")
    filled = np.flatnonzero(np.diff(dij.indptr))
    outside = int(filled.size - in_sorted(filled, vox).sum())
    _check_belongs(nodes, patient, outside, int(filled.size), dij_path)
    info = {"n_nodes": int(vox.size), "nnz": int(nodes.nnz), "dropped_rows_outside_mask": outside}
    return DoseInfluence(patient.id, dij_hash(patient, folder), f"openkbp-opt:{dij_path}", vox, nodes, eye, beam, row,
                         col, info)


def _read_beamlet_indices(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    text = path.read_text(encoding="ascii", errors="replace").replace("\r\n", "\n").strip().split("\n")
    head = [h.strip() for h in text[0].split(",")]
    names = [h for h in head if h]
    if names != ["row", "column", "angle"]:
        raise PatientDataError(f"{path}: header must name row, column, angle")
    skip = 1 if head[0] == "" else 0  # a pandas index column before the three named ones
    try:
        vals = np.array([[int(float(x)) for x in ln.split(",")[skip:]] for ln in text[1:] if ln.strip()], dtype=np.int64)
    except ValueError:
        raise PatientDataError(f"{path}: every entry must be an integer") from None
    if vals.ndim != 2 or vals.shape[1] != 3:
        raise PatientDataError(f"{path}: every line must hold row, column, angle")
    if vals[:, 2].min() < 1:
        raise PatientDataError(f"{path}: angle indices start at 1")
    return (vals[:, 2] - 1).astype(np.int32), vals[:, 0].astype(np.int32), vals[:, 1].astype(np.int32)
