"""`physbench research ...`: validate and list research problem sets."""

from __future__ import annotations

import json
from typing import Optional

import typer

research_app = typer.Typer(help="Research challenges with checkpoints (CritPt-style, judge-free).",
                           no_args_is_help=True, add_completion=False)


@research_app.command("validate")
def validate(folder: str = typer.Argument(..., help="a folder of problem JSON files, or one file"),
             as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Check every problem file; the first fault is one line naming the file and the field."""
    from pathlib import Path

    from physbench.suites.research.problem import load_problem, load_set

    path = Path(folder)
    problems = [load_problem(path)] if path.is_file() else load_set(path)
    rows = [{"id": p.id, "file": p.file, "steps": 1 + len(p.checkpoints)} for p in problems]
    if as_json:
        typer.echo(json.dumps({"ok": True, "problems": rows}))
    else:
        for r in rows:
            typer.echo(f"{r['file']}: {r['id']} ok ({r['steps']} steps)")


@research_app.command("list")
def list_problems(problems: Optional[str] = typer.Option(None, "--problems", help="problem folder"),
                  as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """The problems of a set (the shipped one by default)."""
    from physbench.suites.research.problem import load_set

    rows = [{"id": p.id, "title": p.title, "areas": list(p.areas), "checkpoints": len(p.checkpoints)}
            for p in load_set(problems)]
    if as_json:
        typer.echo(json.dumps(rows))
    else:
        for r in rows:
            typer.echo(f"{r['id']}  {r['title']}  [{', '.join(r['areas'])}]  {r['checkpoints']} checkpoints")
