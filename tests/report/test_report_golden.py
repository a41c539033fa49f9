"""The medphys report of a fixed scripted run is the stored one: moving the report code must not change it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from golden_report import GOLDEN, rendered  # noqa: E402


def test_the_medphys_report_of_fixed_scripted_runs_matches_the_stored_report(tmp_path: Path):
    md, doc = rendered(tmp_path)
    assert md == (GOLDEN / "medphys_report.md").read_text(encoding="utf-8")
    assert doc == (GOLDEN / "medphys_report.json").read_text(encoding="utf-8")
