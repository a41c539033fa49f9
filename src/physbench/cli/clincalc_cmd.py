"""Mounts `physbench clincalc ...` (the commands live with the suite)."""

import typer


def register(app: typer.Typer) -> None:
    from physbench.suites.clincalc.cli import clincalc_app

    app.add_typer(clincalc_app, name="clincalc")
