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


FILE_KINDS = {".md": "md", ".html": "html", ".htm": "html", ".json": "json"}


def out_kind(out: str) -> str:
    """What `--out OUT` writes: "md", "html" or "json" (one file), or "dir" (all of them and figures).

    A directory is a name without a suffix, one ending in "/", or one that exists as a folder; any
    other suffix is a UserError rather than a folder named like a file.
    """
    from physbench.core.errors import UserError

    target = Path(out)
    if out.endswith(("/", "\\")) or target.is_dir() or not target.suffix:
        return "dir"
    from physbench.cli.outputs import out_format

    try:
        return out_format(out, FILE_KINDS)
    except UserError as exc:
        raise UserError(f"{exc}, or a folder (no suffix, or end it with /)") from None


def _outputs(target: Path, report: Any, kind: str) -> dict[Path, str | bytes]:
    """Every file of `--out TARGET`, rendered in memory before any is written."""
    from physbench.report.document import json_safe
    from physbench.report.html import render_html
    from physbench.report.markdown import render_document

    if kind == "md":
        return {target: render_document(report.sections, captions=report.captions)}
    if kind == "html":
        return {target: render_html(report.sections, report.figures, report.doc["models"], report.captions)}
    as_json = json.dumps(json_safe(report.doc), indent=2, allow_nan=False) + "\n"
    if kind == "json":
        return {target: as_json}
    from physbench.core.errors import UserError

    if target.exists() and not target.is_dir():
        raise UserError(f"--out {str(target)!r} exists and is not a directory")
    files: dict[Path, str | bytes] = {}
    figure_files = {}
    for key, png in report.figures.items():
        files[target / FIGURE_DIR / f"{key}.png"] = png
        figure_files[key] = f"{FIGURE_DIR}/{key}.png"
    files[target / "report.json"] = as_json
    files[target / "report.md"] = render_document(report.sections, figure_files, report.captions)
    files[target / "report.html"] = render_html(report.sections, report.figures, report.doc["models"], report.captions)
    return files


def write_report(out: Path, report: Any, kind: str | None = None) -> list[Path]:
    """Render every file of `--out` in memory, then write each atomically; the paths written."""
    written = []
    for path, data in _outputs(out, report, kind or out_kind(str(out))).items():
        _write_atomic(path, data)
        written.append(path)
    return written


def register(app: typer.Typer) -> None:
    """Add `physbench report`."""

    @app.command("report")
    def report_command(
        run_dirs: List[str] = typer.Argument(..., help="One or more run directories."),
        out: Optional[str] = typer.Option(
            None, "--out", help="A .md, .html or .json file, or a directory (no suffix) that gets report.md, "
                                "report.html (self-contained), report.json and figures/."),
        as_json: bool = typer.Option(False, "--json", help="Print the report's data as JSON."),
    ) -> None:
        """Report on stored runs: accuracy with exact intervals, pairwise tests with letters, checking, detection
        and false alarms, J, attribution of wrong answers, repeated runs; tables and figures."""
        from physbench.report.document import json_safe, report_for

        kind = out_kind(out) if out else None
        report = report_for(run_dirs, figures=kind in ("html", "dir"))
        written = write_report(Path(out), report, kind) if out else []
        if as_json:
            typer.echo(json.dumps(json_safe(report.doc), indent=2, allow_nan=False))
        elif out:
            typer.echo("wrote " + ", ".join(str(p) for p in written))
        else:
            from physbench.report.markdown import render_document

            typer.echo(render_document(report.sections, captions=report.captions), nl=False)
