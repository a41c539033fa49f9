"""Official MedCalc-Bench output files (one JSON object a line: Row Number, Calculator ID, LLM Answer,
LLM Explanation, Ground Truth Answer, Result, ...) turned into a `replay:` file of physbench, so a run
scored upstream can be re-scored here, both ways, beside the leaderboard."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from physbench.core.errors import UserError
from physbench.suites.clincalc.dataset import item_id

MAX_BYTES = 1 << 30
NEEDED = ("Row Number", "Calculator ID", "LLM Answer")


@dataclass(frozen=True)
class Converted:
    rows: int
    official_correct: int      # rows the file itself marks Correct
    reproduced: int            # rows where official_scoring gives the file's own Result (when it has one)


def reply_text(answer: str, explanation: str) -> str:
    """A reply the official extraction reads back as `answer` (its own JSON answer field)."""
    return json.dumps({"step_by_step_thinking": explanation, "answer": answer}, ensure_ascii=False)


def _rows(path: Path) -> list[dict]:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise UserError(f"{path}: an official output file is at most 1 GiB")
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {getattr(exc, 'strerror', None) or type(exc).__name__}") from None
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise UserError(f"{path} line {number}: not valid JSON") from None
        if not isinstance(row, dict) or any(k not in row for k in NEEDED):
            raise UserError(f"{path} line {number}: needs {', '.join(NEEDED)}")
        try:
            int(row["Row Number"]), int(row["Calculator ID"])
        except (TypeError, ValueError):
            raise UserError(f"{path} line {number}: Row Number and Calculator ID must be integers") from None
        out.append(row)
    if not out:
        raise UserError(f"{path}: no rows")
    return out


def convert(source: str | Path, out: str | Path) -> Converted:
    """Write the replay file; refuse a repeated row; never half-write `out`."""
    from physbench.suites.clincalc.official_scoring import verdict

    rows, seen, lines = _rows(Path(source)), set(), []
    correct = reproduced = 0
    for row in rows:
        n = int(row["Row Number"])
        if n in seen:
            raise UserError(f"{source}: Row Number {n} appears twice")
        seen.add(n)
        text = reply_text(str(row["LLM Answer"]), str(row.get("LLM Explanation", "")))
        lines.append(json.dumps({"id": item_id(n), "response": text}, ensure_ascii=False))
        said = str(row.get("Result", "")).strip()
        correct += said == "Correct"
        if said and "Ground Truth Answer" in row:
            mine = verdict(text, int(row["Calculator ID"]), str(row["Ground Truth Answer"]),
                           str(row.get("Lower Limit", "")), str(row.get("Upper Limit", "")))
            reproduced += mine == (said == "Correct")
    target = Path(out)
    if target.is_dir():
        raise UserError(f"cannot write {target}: is a directory")
    fd, tmp = tempfile.mkstemp(dir=str(target.parent or "."), prefix=".replay-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Converted(len(rows), correct, reproduced)
