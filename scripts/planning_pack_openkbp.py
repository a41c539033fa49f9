"""Pack the OpenKBP patient folders into the compact form the planning suite ships.

One deterministic ``pt_<n>.tar.xz`` per patient holding the original CSV bytes (lossless by
construction: the loader parses the archive members with the same code as a folder), plus the
MIT licence of the OpenKBP data. Usage:

    python scripts/planning_pack_openkbp.py [SRC] [DEST]

SRC defaults to ../shared/data/openkbp, DEST to src/physbench/suites/planning/data/openkbp.
Running it twice gives byte-identical archives (fixed mtimes, owners and member order).
"""

from __future__ import annotations

import io
import lzma
import shutil
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SRC = Path("/work/shared/data/openkbp")
DEFAULT_DEST = ROOT / "src/physbench/suites/planning/data/openkbp"


def pack_patient(folder: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for f in sorted(folder.iterdir()):
            if not (f.is_file() and f.suffix == ".csv"):
                continue
            data = f.read_bytes()
            info = tarfile.TarInfo(f"{folder.name}/{f.name}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return lzma.compress(buf.getvalue(), format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else DEFAULT_SRC
    dest = Path(argv[1]) if len(argv) > 1 else DEFAULT_DEST
    folders = sorted((d for d in src.iterdir() if d.is_dir() and d.name.startswith("pt_")),
                     key=lambda d: int(d.name[3:]))
    if not folders:
        print(f"no pt_* folders in {src}", file=sys.stderr)
        return 2
    dest.mkdir(parents=True, exist_ok=True)
    total = 0
    for d in folders:
        raw = pack_patient(d)
        (dest / f"{d.name}.tar.xz").write_bytes(raw)
        total += len(raw)
    shutil.copyfile(src / "LICENSE", dest / "LICENSE")
    print(f"{len(folders)} patients, {total / 2**20:.2f} MiB in {dest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
