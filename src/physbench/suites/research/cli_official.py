"""`physbench research import | submission | submit`: CritPt's official release in, its grading server out."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer

from physbench.suites.research.cli import research_app


@research_app.command("import")
def import_release(path: str = typer.Argument(..., help="the official release: a folder (data/ of the CritPt "
                                                        "repository), a notebook, a JSON file or a parquet file"),
                   out: str = typer.Option(..., "--out", help="folder for the physbench problem files"),
                   as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """One problem file per official challenge; one line on stderr per file that cannot be read
    (exit 2 then, after writing the readable ones)."""
    from physbench.suites.research.importer import import_release as run_import
    from physbench.suites.research.problem import load_problem

    written, errors = run_import(Path(path), Path(out))
    for line in errors:
        typer.echo(line, err=True)
    problems = [load_problem(p) for p in written]
    steps = sum(1 + len(p.checkpoints) for p in problems)
    known = sum(s.graded for p in problems for s in (p.challenge, *p.checkpoints))
    if as_json:
        typer.echo(json.dumps({"out": out, "problems": len(problems), "steps": steps, "steps_with_answers": known,
                               "unreadable": errors}))
    else:
        typer.echo(f"{len(problems)} problem files in {out}: {steps} steps, {known} with a public answer "
                   f"(the other {steps - known} are asked and stored, graded 'ungraded')")
    if errors:
        raise typer.Exit(code=2)


@research_app.command("submission")
def submission(run: str = typer.Argument(..., help="a research run directory"),
               out: str = typer.Option(..., "--out", help="the submission file to write (JSON)"),
               as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Write the official grading server's batch for a run: complete, or refused with what is missing."""
    from physbench.suites.research.submission import write_submission

    n = write_submission(Path(run), Path(out))
    typer.echo(json.dumps({"out": out, "submissions": n}) if as_json else f"{n} submissions written to {out}")


@research_app.command("submit")
def submit(run: str = typer.Argument(..., help="a research run directory"),
           api_key_env: str = typer.Option(..., "--api-key-env", help="the variable holding the server's API key"),
           url: Optional[str] = typer.Option(None, "--url", help="grading server (default: the official one)"),
           as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Post a run's complete batch to CritPt's grading server; its metrics are kept beside the run."""
    from physbench.core.errors import UserError
    from physbench.suites.research.submission import OFFICIAL_URL, RESULTS_FILE, submit as post

    key = os.environ.get(api_key_env, "")
    if not key.strip():
        raise UserError(f"--api-key-env {api_key_env}: the variable is not set or empty")
    record = post(Path(run), url or OFFICIAL_URL, key.strip())
    if as_json:
        typer.echo(json.dumps(record))
        return
    metrics = record["metrics"]
    acc = metrics.get("accuracy")
    typer.echo(f"{record['n_submissions']} submissions graded by {record['url']}: accuracy "
               f"{acc if not isinstance(acc, (int, float)) else f'{100 * acc:.1f} %'}; metrics kept in "
               f"{Path(run) / RESULTS_FILE}")
