"""`physbench report RUN_DIR...`: the full report of stored runs as Markdown, self-contained HTML and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Optional

import typer

FIGURE_DIR = "figures"


def _write_atomic(path: Path, data: str | bytes) -> None:
    """Write a report file whole, so a reader never sees half a report."""
    from physbench.core.files import write_atomic

    write_atomic(path, lambda fh: fh.write(data.encode("utf-8") if isinstance(data, str) else data))


def _outputs(target: Path, report: Any) -> dict[Path, str | bytes]:
    """Every file of `--out TARGET`, rendered in memory before any is written."""
    from physbench.report.document import json_safe
    from physbench.report.html import render_html
    from physbench.report.markdown import render_document

    suffix = target.suffix.lower()
    if suffix == ".md":
        return {target: render_document(report.sections, captions=report.captions)}
    if suffix in (".html", ".htm"):
        return {target: render_html(report.sections, report.figures, report.doc["models"], report.captions)}
    from physbench.core.errors import UserError

    if target.exists() and not target.is_dir():
        raise UserError(f"--out {str(target)!r} exists and is not a directory")
    files: dict[Path, str | bytes] = {}
    figure_files = {}
    for key, png in report.figures.items():
        files[target / FIGURE_DIR / f"{key}.png"] = png
        figure_files[key] = f"{FIGURE_DIR}/{key}.png"
    files[target / "report.json"] = json.dumps(json_safe(report.doc), indent=2, allow_nan=False) + "\n"
    files[target / "report.md"] = render_document(report.sections, figure_files, report.captions)
    files[target / "report.html"] = render_html(report.sections, report.figures, report.doc["models"], report.captions)
    return files


def write_report(out: Path, report: Any) -> list[Path]:
    """Render every file of `--out` in memory, then write each atomically; the paths written."""
    written = []
    for path, data in _outputs(out, report).items():
        _write_atomic(path, data)
        written.append(path)
    return written


def register(app: typer.Typer) -> None:
    """Add `physbench report`."""

    @app.command("report")
    def report_command(
        run_dirs: List[str] = typer.Argument(..., help="One or more run directories."),
        out: Optional[str] = typer.Option(
            None, "--out", help="A .md or .html file, or a directory that gets report.md, report.html (self-contained), "
                                "report.json and figures/."),
        as_json: bool = typer.Option(False, "--json", help="Print the report's data as JSON."),
    ) -> None:
        """Report on stored runs: accuracy with exact intervals, pairwise tests with letters, checking, detection
        and false alarms, J, attribution of wrong answers, repeated runs; tables and figures."""
        from physbench.report.document import json_safe, report_for

        needs_figures = bool(out) and Path(out).suffix.lower() != ".md"
        report = report_for(run_dirs, figures=needs_figures)
        written = write_report(Path(out), report) if out else []
        if as_json:
            typer.echo(json.dumps(json_safe(report.doc), indent=2, allow_nan=False))
        elif out:
            typer.echo("wrote " + ", ".join(str(p) for p in written))
        else:
            from physbench.report.markdown import render_document

            typer.echo(render_document(report.sections, captions=report.captions), nl=False)
