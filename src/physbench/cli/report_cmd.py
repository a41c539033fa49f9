"""`physbench report RUN_DIR...`: accuracy with exact intervals, per kind and group, for stored runs."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import List, Optional

import typer


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a reader never sees half a report."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def register(app: typer.Typer) -> None:
    """Add `physbench report`."""

    @app.command("report")
    def report_command(
        run_dirs: List[str] = typer.Argument(..., help="One or more run directories."),
        out: Optional[str] = typer.Option(None, "--out",
                                          help="A .md file, or a directory that gets report.md and report.json."),
        as_json: bool = typer.Option(False, "--json", help="Print the summaries as JSON."),
    ) -> None:
        """Summarise stored runs: accuracy (exact 95% CI) overall, by kind and by group; outcomes; tokens."""
        from physbench.core.errors import UserError
        from physbench.report import render_markdown, summarise
        from physbench.runner.store import open_run

        summaries = []
        for run_dir in run_dirs:
            with open_run(run_dir) as reader:
                summaries.append(summarise(reader))
        doc = {"runs": summaries}
        markdown = render_markdown(summaries)
        if out:
            target = Path(out)
            if target.suffix.lower() == ".md":
                _write_atomic(target, markdown)
                written = [target]
            else:
                if target.exists() and not target.is_dir():
                    raise UserError(f"--out {out!r} exists and is not a directory")
                _write_atomic(target / "report.json", json.dumps(doc, indent=2) + "\n")
                _write_atomic(target / "report.md", markdown)
                written = [target / "report.md", target / "report.json"]
        if as_json:
            typer.echo(json.dumps(doc, indent=2))
        elif out:
            typer.echo("wrote " + ", ".join(str(p) for p in written))
        else:
            typer.echo(markdown, nl=False)
