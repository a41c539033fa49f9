"""`physbench medphys release`: the public release folder of a benchmark version."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from physbench.suites.medphys.cli import emit, medphys_app, version_option


@medphys_app.command("release")
def release(
    key_file: str = typer.Option(..., "--key-file", help="The 32-byte secret key of the test split."),
    out: Path = typer.Option(..., "--out", help="Release folder to create (must not exist, or be empty)."),
    run: Optional[List[str]] = typer.Option(None, "--run", help="A run directory whose per-item outcomes to "
                                                                "export under hashed ids (repeatable)."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Write commitments.json (test-split commitment, code hash), the dev items and per-run outcome exports."""
    from physbench.suites.medphys.release import write_release
    from physbench.suites.medphys.splits import read_key

    summary = write_release(read_key(key_file), out, run or (), benchmark_version)
    runs = ", ".join(f"{k} ({v} outcomes)" for k, v in summary["outcomes"].items()) or "no runs"
    emit(summary, as_json, f"{summary['benchmark_version']} release in {summary['out']}: commitment "
                           f"{summary['commitment']} over {summary['test_items']} test items; code "
                           f"{summary['code_hash']}; {summary['dev_items']} dev items; {runs}")
