"""Mounts `physbench medphys ...` (the commands live with the suite)."""

import typer


def register(app: typer.Typer) -> None:
    from physbench.suites.medphys.cli import medphys_app

    app.add_typer(medphys_app, name="medphys")
