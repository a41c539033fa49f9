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
    rows = [{"id": p.id, "file": p.file, "steps": 1 + len(p.checkpoints),
             "ungraded_steps": [s.id for s in (p.challenge, *p.checkpoints) if not s.graded],
             "limits_capped": [{"step": s.id, "asked": list(s.asked_limits), "used": [s.wall_s, s.memory_mb]}
                               for s in (p.challenge, *p.checkpoints) if s.asked_limits]} for p in problems]
    if as_json:
        typer.echo(json.dumps({"ok": True, "problems": rows}))
    else:
        for r in rows:
            unknown = f", {len(r['ungraded_steps'])} with unknown answers" if r["ungraded_steps"] else ""
            capped = "".join(f"; {c['step']} asked {c['asked'][0]:g} s / {c['asked'][1]} MB, capped to "
                             f"{c['used'][0]:g} s / {c['used'][1]} MB" for c in r["limits_capped"])
            typer.echo(f"{r['file']}: {r['id']} ok ({r['steps']} steps{unknown}){capped}")


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


def _find(problem: str, folder: Optional[str]):
    from pathlib import Path

    from physbench.core.errors import UserError
    from physbench.suites.research.problem import load_problem, load_set

    if problem.endswith(".json") or Path(problem).is_file():
        return load_problem(problem)
    for p in load_set(folder):
        if p.id == problem:
            return p
    raise UserError(f"no research problem {problem!r} (see `physbench research list`)")


@research_app.command("show")
def show(problem: str = typer.Argument(..., help="a problem id or file"),
         problems: Optional[str] = typer.Option(None, "--problems", help="problem folder"),
         as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """A problem's setup, steps and expected answers."""
    from physbench.suites.research.oracle import expected_text

    p = _find(problem, problems)
    steps = [{"id": s.id, "question": s.question, "type": s.answer.type if s.answer else "unknown",
              "expected": expected_text(s)}
             for s in (p.challenge, *p.checkpoints)]
    if as_json:
        typer.echo(json.dumps({"id": p.id, "title": p.title, "areas": list(p.areas), "setup": p.setup, "steps": steps}))
        return
    typer.echo(f"{p.id}: {p.title}\n\n{p.setup}\n")
    for s in steps:
        typer.echo(f"[{s['id']}] ({s['type']}) {s['question']}\n  {s['expected']}\n")


@research_app.command("check")
def check(problem_file: str = typer.Argument(..., help="a problem JSON file"),
          as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Validate a problem file and grade the oracle reply of every step in the sandbox (all must pass)."""
    from physbench.core.errors import UserError
    from physbench.suites.research.grader import grade_steps
    from physbench.suites.research.oracle import oracle_code
    from physbench.suites.research.problem import load_problem

    p = load_problem(problem_file)
    steps = [s for s in (p.challenge, *p.checkpoints) if s.graded]
    grades = grade_steps(steps, [oracle_code(s) for s in steps], workers=min(2, max(1, len(steps))))
    rows = [{"step": s.id, **g.to_dict()} for s, g in zip(steps, grades)]
    if as_json:
        typer.echo(json.dumps({"id": p.id, "ok": all(g.correct for g in grades), "steps": rows}))
    else:
        for r in rows:
            typer.echo(f"{p.id} {r['step']}: {r['outcome']}")
    bad = [r for r in rows if not r["correct"]]
    if bad:
        raise UserError(f"{p.file}: {bad[0]['step']}: the stored answer does not grade as correct ({bad[0]['outcome']})")


@research_app.command("grade")
def grade(problem_file: str = typer.Argument(..., help="a problem JSON file"),
          step: str = typer.Option("challenge", "--step", help="challenge or checkpoint-N"),
          responses: str = typer.Option(..., "--responses", help='JSONL: {"id": ..., "response": "..."} per line'),
          as_json: bool = typer.Option(False, "--json", help="print JSON lines")) -> None:
    """Regrade stored formatting replies in one process; one JSON object per line."""
    from pathlib import Path

    from physbench.core.errors import UserError
    from physbench.suites.research.grader import grade_steps
    from physbench.suites.research.problem import load_problem

    s = load_problem(problem_file).step(step)
    rows = []
    try:
        lines = Path(responses).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{responses}: cannot read: {exc}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise UserError(f"{responses}: line {n}: not JSON") from None
        if not isinstance(row, dict) or "response" not in row or not isinstance(row["response"], str):
            raise UserError(f"{responses}: line {n}: needs a string field \"response\"")
        rows.append(row)
    grades = grade_steps([s] * len(rows), [r["response"] for r in rows], workers=min(2, max(1, len(rows))))
    for r, g in zip(rows, grades):
        out = {"id": r.get("id"), "correct": g.correct, "outcome": g.outcome}
        typer.echo(json.dumps(out) if as_json else f"{out['id']}: {g.outcome}")
