"""Placeholder: the commands of this module are not built yet."""

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app (none yet)."""
