"""OpenKBP patients: the sparse CSV format, TG-263 names, and the compact form shipped in the package.

OpenKBP (Babier et al., Med Phys 48:5549, 2021) stores one CSV per structure: a header ``,data``
and one line per voxel, the first column a C-order raveled index into a 128 x 128 x 128 grid
(an empty data column marks a mask). ``possible_dose_mask.csv`` is the set of voxels that may
receive dose (this suite's External) and ``voxel_dimensions.csv`` holds three spacings in mm.
The package ships 40 test-set patients as one ``tar.xz`` per patient holding the original CSV
bytes, so the shipped form and a user's CSV folder go through the same parser.
"""

from __future__ import annotations

import hashlib
import io
import re
import tarfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np

from physbench.core.errors import UserError

GRID_SHAPE: tuple[int, int, int] = (128, 128, 128)
N_GRID = GRID_SHAPE[0] * GRID_SHAPE[1] * GRID_SHAPE[2]
MASK_FILE = "possible_dose_mask.csv"
VOXEL_FILE = "voxel_dimensions.csv"

# OpenKBP file stem -> TG-263 name (AAPM Task Group 263, 2018: Parotid_L, Bone_Mandible, PTV_7000 ...)
TG263: dict[str, str] = {
    "Brainstem": "Brainstem",
    "SpinalCord": "SpinalCord",
    "RightParotid": "Parotid_R",
    "LeftParotid": "Parotid_L",
    "Esophagus": "Esophagus",
    "Larynx": "Larynx",
    "Mandible": "Bone_Mandible",
    "PTV56": "PTV_5600",
    "PTV63": "PTV_6300",
    "PTV70": "PTV_7000",
}
PRESCRIPTION_GY: dict[str, float] = {"PTV_7000": 70.0, "PTV_6300": 63.0, "PTV_5600": 56.0}
EXTERNAL = "External"
# files an OpenKBP folder may hold that this suite does not read (no CT is used; see docs)
IGNORED_FILES = ("ct.csv", "dose.csv", "dij.npz", "beamlet_indices.csv")
MAX_FILE_BYTES = 64 * 2**20  # one structure CSV; the largest OpenKBP mask is a few MB

_PATIENT_ID = re.compile(r"^pt_\d{1,6}$")
_SHIPPED = "data/openkbp"


class PatientDataError(UserError):
    """A patient folder or archive that is not in the OpenKBP format."""


@dataclass(frozen=True, eq=False)
class Patient:
    """One OpenKBP patient: voxel spacing, External, and structures as sorted flat grid indices."""

    id: str
    voxel_mm: tuple[float, float, float]
    external: np.ndarray  # possible-dose mask, int64 flat indices into GRID_SHAPE
    structures: Mapping[str, np.ndarray]  # TG-263 name -> int64 flat indices (External excluded)
    raw_names: Mapping[str, str] = field(default_factory=dict)  # TG-263 name -> file stem
    source: str = ""
    notes: tuple[str, ...] = ()

    @property
    def voxel_cc(self) -> float:
        return float(np.prod(self.voxel_mm)) / 1000.0

    @property
    def targets(self) -> dict[str, float]:
        """Targets present with their prescriptions (Gy), highest first."""
        rx = {n: PRESCRIPTION_GY[n] for n in self.structures if n in PRESCRIPTION_GY}
        return dict(sorted(rx.items(), key=lambda kv: -kv[1]))

    def has(self, name: str) -> bool:
        return name == EXTERNAL or name in self.structures

    def mask(self, name: str) -> np.ndarray:
        """Flat indices of a structure (``External`` is the possible-dose mask)."""
        if name == EXTERNAL:
            return self.external
        try:
            return self.structures[name]
        except KeyError:
            raise KeyError(f"{self.id} has no structure {name!r}") from None

    def content_hash(self) -> str:
        """SHA-256 of the anatomy: voxel sizes, External and every structure's indices."""
        h = hashlib.sha256()
        h.update(np.asarray(self.voxel_mm, dtype="<f8").tobytes())
        h.update(np.ascontiguousarray(self.external, dtype="<i8").tobytes())
        for name in sorted(self.structures):
            h.update(name.encode())
            h.update(np.ascontiguousarray(self.structures[name], dtype="<i8").tobytes())
        return h.hexdigest()


_MASK_BODY = re.compile(rb"(?:\d{1,7},\n)+")
_VALUE_BODY = re.compile(rb"(?:\d{1,7},[-+0-9.eE]{1,40}\n)+")


def parse_sparse_csv(raw: bytes, name: str) -> tuple[np.ndarray, np.ndarray | None]:
    """(indices, values) of one OpenKBP sparse CSV; values is None for a mask file.

    Every line after the ``,data`` header is ``index,`` (a mask) or ``index,value``; an index
    must be an integer inside the 128^3 grid. Anything else is a PatientDataError naming the file.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise PatientDataError(f"{name}: {len(raw)} bytes, more than the {MAX_FILE_BYTES} allowed")
    text = raw.replace(b"\r\n", b"\n")
    head, _, body = text.partition(b"\n")
    if head.strip() != b",data":
        raise PatientDataError(f"{name}: the header must be ',data'")
    if body and not body.endswith(b"\n"):
        body += b"\n"
    if not body:
        return np.zeros(0, dtype=np.int64), None
    n_lines = body.count(b"\n")
    if _MASK_BODY.fullmatch(body):
        idx = np.fromstring(body.replace(b",", b" ").decode("ascii"), dtype=np.int64, sep=" ")
        vals = None
    elif _VALUE_BODY.fullmatch(body):
        pairs = np.fromstring(body.replace(b",", b" ").decode("ascii"), dtype=np.float64, sep=" ")
        if pairs.size != 2 * n_lines or not np.all(np.isfinite(pairs)):
            raise PatientDataError(f"{name}: a value is not a finite number")
        idx, vals = pairs[0::2].astype(np.int64), pairs[1::2].copy()
    else:
        raise PatientDataError(f"{name}: every line must be 'index,' or 'index,value'")
    if idx.size != n_lines:
        raise PatientDataError(f"{name}: could not read every line")
    if idx.size and idx.max() >= N_GRID:
        raise PatientDataError(f"{name}: voxel indices must lie in the 128^3 grid, [0, {N_GRID})")
    return idx, vals


def parse_voxel_dimensions(raw: bytes, name: str = VOXEL_FILE) -> tuple[float, float, float]:
    """Three positive finite spacings in mm, one per line (OpenKBP's voxel_dimensions.csv)."""
    try:
        vals = [float(x) for x in raw.decode("ascii").split()]
    except (UnicodeDecodeError, ValueError):
        raise PatientDataError(f"{name}: expected three numbers") from None
    if len(vals) != 3 or not all(np.isfinite(v) and 0.1 <= v <= 50.0 for v in vals):
        raise PatientDataError(f"{name}: expected three spacings between 0.1 and 50 mm")
    return vals[0], vals[1], vals[2]


def sorted_unique(idx: np.ndarray) -> np.ndarray:
    """Sorted distinct values (faster than np.unique's hash path for these sizes)."""
    out = np.sort(np.asarray(idx, dtype=np.int64))
    if out.size > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def in_sorted(values: np.ndarray, sorted_ref: np.ndarray) -> np.ndarray:
    """Boolean mask: which of ``values`` occur in the sorted array ``sorted_ref``."""
    if sorted_ref.size == 0:
        return np.zeros(values.shape, dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_ref, values), sorted_ref.size - 1)
    return sorted_ref[pos] == values


def patient_from_files(pid: str, files: Mapping[str, bytes], source: str = "") -> Patient:
    """Build a Patient from {file name: bytes}: the one path for folders and shipped archives."""
    if not _PATIENT_ID.match(pid):
        raise PatientDataError(f"patient id {pid!r} is not of the form pt_<number>")
    for required in (MASK_FILE, VOXEL_FILE):
        if required not in files:
            raise PatientDataError(f"{pid}: missing {required}")
    voxel = parse_voxel_dimensions(files[VOXEL_FILE])
    external, _ = parse_sparse_csv(files[MASK_FILE], f"{pid}/{MASK_FILE}")
    if external.size == 0:
        raise PatientDataError(f"{pid}: the possible-dose mask is empty")
    structures: dict[str, np.ndarray] = {}
    raw_names: dict[str, str] = {}
    notes: list[str] = []
    for fname in sorted(files):
        stem = fname[:-4] if fname.endswith(".csv") else fname
        if fname in (MASK_FILE, VOXEL_FILE):
            continue
        if stem not in TG263:
            notes.append(f"ignored {fname}" + ("" if fname in IGNORED_FILES else " (not an OpenKBP structure)"))
            continue
        idx, _vals = parse_sparse_csv(files[fname], f"{pid}/{fname}")
        uniq = sorted_unique(idx)
        if uniq.size != idx.size:
            notes.append(f"{fname}: {idx.size - uniq.size} repeated indices merged")
        if uniq.size:
            structures[TG263[stem]] = uniq
            raw_names[TG263[stem]] = stem
    if not any(n in PRESCRIPTION_GY for n in structures):
        raise PatientDataError(f"{pid}: no target (PTV56, PTV63 or PTV70)")
    ext = sorted_unique(external)
    for name, idx in structures.items():
        outside = int(idx.size - in_sorted(idx, ext).sum())
        if outside:
            notes.append(f"{name}: {outside} voxels outside the possible-dose mask (zero dose)")
    return Patient(pid, voxel, ext, structures, raw_names, source, tuple(notes))


def load_patient_dir(path: str | Path) -> Patient:
    """A patient from an OpenKBP folder ``pt_<n>/`` of CSV files."""
    p = Path(path)
    if not p.is_dir():
        raise PatientDataError(f"{p} is not a folder")
    files: dict[str, bytes] = {}
    for f in sorted(p.iterdir()):
        if f.is_file() and f.suffix == ".csv" and not f.name.startswith("."):
            if f.stat().st_size > MAX_FILE_BYTES and f.name not in IGNORED_FILES:
                raise PatientDataError(f"{f}: larger than {MAX_FILE_BYTES} bytes")
            files[f.name] = b"" if f.name in IGNORED_FILES else f.read_bytes()
    return patient_from_files(p.name, files, source=str(p))


def read_archive(raw: bytes, name: str) -> dict[str, bytes]:
    """{file name: bytes} from a shipped patient archive (tar.xz of the original CSVs)."""
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:xz") as tar:
            for member in tar.getmembers():
                base = member.name.rsplit("/", 1)[-1]
                if not member.isfile() or not base.endswith(".csv"):
                    continue
                if member.size > MAX_FILE_BYTES:
                    raise PatientDataError(f"{name}: member {base} is too large")
                handle = tar.extractfile(member)
                out[base] = handle.read() if handle is not None else b""
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise PatientDataError(f"{name}: not a readable tar.xz archive ({exc})") from None
    return out


def shipped_ids() -> list[str]:
    """Ids of the patients shipped in the package, in numeric order."""
    root = resources.files("physbench.suites.planning").joinpath(_SHIPPED)
    ids = [f.name[: -len(".tar.xz")] for f in root.iterdir() if f.name.endswith(".tar.xz")]
    return sorted(ids, key=lambda s: int(s[3:]))


def load_shipped(pid: str) -> Patient:
    """A shipped patient, decoded from its archive with the same parser as a CSV folder."""
    if pid not in shipped_ids():
        raise PatientDataError(f"unknown patient {pid!r}; shipped: {', '.join(shipped_ids())}")
    raw = resources.files("physbench.suites.planning").joinpath(f"{_SHIPPED}/{pid}.tar.xz").read_bytes()
    return patient_from_files(pid, read_archive(raw, f"{pid}.tar.xz"), source=f"shipped:{pid}")


def patient_ids(data: str | Path | None = None) -> list[str]:
    """Patient ids in ``data`` (a folder of pt_* folders), or the shipped ones when None."""
    if data is None:
        return shipped_ids()
    root = Path(data)
    if not root.is_dir():
        raise PatientDataError(f"{root} is not a folder")
    ids = [d.name for d in root.iterdir() if d.is_dir() and _PATIENT_ID.match(d.name)]
    if not ids:
        raise PatientDataError(f"{root} holds no pt_<n> folders")
    return sorted(ids, key=lambda s: int(s[3:]))


def load_patient(pid: str, data: str | Path | None = None) -> Patient:
    """One patient from ``data`` (a folder of OpenKBP pt_* folders) or from the shipped set."""
    if data is None:
        return load_shipped(pid)
    if not _PATIENT_ID.match(pid):
        raise PatientDataError(f"patient id {pid!r} is not of the form pt_<number>")
    folder = Path(data) / pid
    if not folder.is_dir():
        raise PatientDataError(f"no folder {pid} in {data}")
    return load_patient_dir(folder)


def load_patients(ids: Iterable[str] | None = None, data: str | Path | None = None) -> list[Patient]:
    return [load_patient(pid, data) for pid in (patient_ids(data) if ids is None else ids)]
