"""Mounts `physbench planning ...` (the commands live with the suite)."""

import typer


def register(app: typer.Typer) -> None:
    from physbench.suites.planning.cli import planning_app

    app.add_typer(planning_app, name="planning")
