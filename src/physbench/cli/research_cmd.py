"""Mounts `physbench research ...` (the commands live with the suite)."""

import typer


def register(app: typer.Typer) -> None:
    import physbench.suites.research.cli_official  # noqa: F401  (adds import / submission / submit)
    from physbench.suites.research.cli import research_app

    app.add_typer(research_app, name="research")
