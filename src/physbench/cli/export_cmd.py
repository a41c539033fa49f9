"""`physbench export SUITE` (the items) and `physbench export-results RUN` (per-attempt outcomes)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


FORMATS = {".jsonl": "jsonl", ".parquet": "parquet"}


def _format(fmt: Optional[str], out: str) -> str:
    from physbench.cli.outputs import out_format

    if fmt is not None and fmt not in FORMATS.values():
        from physbench.core.errors import UserError

        raise UserError(f"unknown export format {fmt!r}; choose jsonl or parquet")
    return out_format(out, FORMATS, fmt)


def register(app: typer.Typer) -> None:
    """Add `physbench export` and `physbench export-results`."""

    @app.command("export")
    def export_command(
        suite: str = typer.Argument(..., help="Suite name, e.g. medphys."),
        out: str = typer.Option(..., "--out", help="File to write (.jsonl or .parquet)."),
        split: str = typer.Option("dev", "--split", help="dev, or a keyed split with --key-file."),
        fmt: Optional[str] = typer.Option(None, "--format", help="jsonl or parquet (default: from --out)."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only N items."),
        key_file: Optional[str] = typer.Option(None, "--key-file", help="Secret key of the test split."),
        option: Optional[list[str]] = typer.Option(None, "--option", help="A suite's item option NAME=VALUE."),
        include_reference: bool = typer.Option(False, "--include-reference",
                                               help="Keep the reference answers of a keyed split (dev always has them)."),
    ) -> None:
        """Write a suite's items, one row each (id, suite, kind, messages, reference, meta, canary)."""
        from physbench.cli.eval_cmd import key_for, parse_item_options
        from physbench.export.rows import item_row, write_rows
        from physbench.runner.evaluate import EvalConfig, load_items

        chosen = _format(fmt, out)  # an unknown suffix is refused before any item is made
        config = EvalConfig(suite=suite, split=split, limit=limit, key=key_for(split, key_file),
                            item_options=parse_item_options(option))
        items = load_items(config)
        keyed = config.key is not None
        n = write_rows((item_row(i, split=split, with_reference=include_reference or not keyed) for i in items),
                       Path(out), chosen)
        typer.echo(f"wrote {n} items of {suite} ({split}) to {out}")

    @app.command("export-results")
    def export_results_command(
        run_dir: str = typer.Argument(..., help="A run directory."),
        out: str = typer.Option(..., "--out", help="File to write (.jsonl or .parquet)."),
        fmt: Optional[str] = typer.Option(None, "--format", help="jsonl or parquet (default: from --out)."),
    ) -> None:
        """Write every graded attempt of a run, one row each (item id, repeat, outcome, score, response, cost)."""
        from physbench.export.rows import result_row, write_rows
        from physbench.runner.store import open_run

        chosen = _format(fmt, out)
        with open_run(Path(run_dir)) as reader:
            m = reader.manifest
            n = write_rows((result_row(r, m.run_id, m.model_spec) for r in reader.results()), Path(out), chosen)
        typer.echo(f"wrote {n} attempts of run {m.run_id} to {out}")
