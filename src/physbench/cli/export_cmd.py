"""`physbench export SUITE` (the items) and `physbench export-results RUN` (per-attempt outcomes).

A keyed split is exported sealed unless the user asks for references with its key in hand: item
rows hold the prompts only, result rows hold the replies without their grades (export/rows.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

if TYPE_CHECKING:
    from physbench.runner.manifest import Manifest


FORMATS = {".jsonl": "jsonl", ".parquet": "parquet"}


def _format(fmt: Optional[str], out: str) -> str:
    from physbench.cli.outputs import out_format

    if fmt is not None and fmt not in FORMATS.values():
        from physbench.core.errors import UserError

        raise UserError(f"unknown export format {fmt!r}; choose jsonl or parquet")
    return out_format(out, FORMATS, fmt)


def check_run_key(m: "Manifest", key: bytes) -> None:
    """The key must rebuild the run's own items (same ids and params): a UserError otherwise."""
    from physbench.core.errors import UserError
    from physbench.core.hashing import item_set_hash
    from physbench.runner.evaluate import EvalConfig, load_items

    options = m.options.get("item_options") or {}
    limit = m.options.get("limit")
    config = EvalConfig(suite=m.suite, split=m.split, protocol=m.protocol, key=key,
                        limit=limit if isinstance(limit, int) else None,
                        item_options=tuple((str(k), str(v)) for k, v in dict(options).items()))
    items = load_items(config)
    if item_set_hash((i.id, i.params_hash) for i in items) != m.item_set_hash:
        raise UserError("--key-file does not rebuild this run's items: it is not the key the run was made with")


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
        include_reference: bool = typer.Option(
            False, "--include-reference", help="Keep references and metadata of a keyed split (dev always has them)."),
    ) -> None:
        """Write a suite's items, one row each (id, suite, kind, messages, reference, meta, canary);
        a keyed split's rows hold only the prompts unless --include-reference."""
        from physbench.cli.eval_cmd import key_for, parse_item_options
        from physbench.export.rows import item_row, sealed_order, write_rows
        from physbench.runner.evaluate import EvalConfig, load_items

        chosen = _format(fmt, out)  # an unknown suffix is refused before any item is made
        config = EvalConfig(suite=suite, split=split, limit=limit, key=key_for(split, key_file),
                            item_options=parse_item_options(option))
        items = load_items(config)
        sealed = config.key is not None and not include_reference
        rows = [item_row(i, split=split, with_reference=not sealed) for i in items]
        n = write_rows(sealed_order(rows, "id") if sealed else rows, Path(out), chosen)
        typer.echo(f"wrote {n} items of {suite} ({split}{', sealed' if sealed else ''}) to {out}")

    @app.command("export-results")
    def export_results_command(
        run_dir: str = typer.Argument(..., help="A run directory."),
        out: str = typer.Option(..., "--out", help="File to write (.jsonl or .parquet)."),
        fmt: Optional[str] = typer.Option(None, "--format", help="jsonl or parquet (default: from --out)."),
        key_file: Optional[str] = typer.Option(None, "--key-file", help="The key a keyed run was made with."),
        include_reference: bool = typer.Option(False, "--include-reference",
                                               help="Keep grades and grader detail of a keyed run (needs --key-file)."),
    ) -> None:
        """Write every attempt of a run, one row each (item id, repeat, outcome, score, response, cost);
        an attempt that never got a reply is a row with outcome `failed`. A keyed run's rows carry no
        grade unless --include-reference with its --key-file."""
        from physbench.core.errors import UserError
        from physbench.export.rows import result_row, sealed_order, write_rows
        from physbench.runner.results import keyed_run
        from physbench.runner.store import open_run

        chosen = _format(fmt, out)
        with open_run(Path(run_dir)) as reader:
            m = reader.manifest
            keyed = keyed_run(m)
            if include_reference and keyed:
                if key_file is None:
                    raise UserError("--include-reference of a keyed run needs its --key-file")
                from physbench.cli.eval_cmd import key_for

                key = key_for(m.split, key_file)
                assert key is not None
                check_run_key(m, key)
            elif key_file is not None and not include_reference:
                raise UserError("--key-file is only used with --include-reference")
            sealed = keyed and not include_reference
            rows = [result_row(r, m.run_id, m.model_spec, sealed=sealed) for r in reader.attempts()]
        n = write_rows(sealed_order(rows, "item_id", "repeat") if sealed else rows, Path(out), chosen)
        typer.echo(f"wrote {n} attempts of run {m.run_id} to {out}{' (sealed: no grades)' if sealed else ''}")
