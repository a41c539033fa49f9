"""The `physbench` command line: NOUN VERB commands, `--json` on every result, exit 2 on bad input.

Each command module under this package defines `register(app)`; heavy imports stay inside
the command functions so that `physbench --help` starts fast.
"""

from __future__ import annotations

import re
import sys
from importlib import import_module
from typing import Sequence

import typer
import typer.main as _typer_main

from physbench.core.errors import UserError

# typer >= 0.29 vendors click as typer._click; older releases use the click package
click = getattr(_typer_main, "_click", None) or getattr(_typer_main, "click")
_EXIT = tuple({typer.Exit, getattr(click.exceptions, "Exit", typer.Exit)})
_ABORT = tuple({typer.Abort, getattr(click.exceptions, "Abort", typer.Abort)})

# one module per noun; each owns its commands
COMMAND_MODULES = ("grade", "eval_cmd", "report_cmd", "view_cmd", "medphys_cmd", "sandbox_cmd", "planning_cmd",
                   "research_cmd", "demo_cmd", "export_cmd", "clincalc_cmd", "mock_cmd")

app = typer.Typer(
    name="physbench",
    help="Judge-free benchmarks of quantitative physics and clinical work by language models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version_callback(value: bool) -> None:
    if value:
        from physbench import __version__

        typer.echo(f"physbench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """physbench command line."""


for _name in COMMAND_MODULES:
    import_module(f"physbench.cli.{_name}").register(app)


_INTERRUPT_SAID: list[bool] = []  # a command that printed its own lines on Ctrl-C says so here


def interrupted() -> "typer.Exit":
    """The exit (130) of a command that has printed what a Ctrl-C left and how to resume."""
    _INTERRUPT_SAID.append(True)
    return typer.Exit(code=130)


def fail(message: str) -> "typer.Exit":
    """Print one error line on stderr and return an Exit(2) to raise."""
    typer.echo(f"physbench: error: {message}", err=True)
    return typer.Exit(code=2)


def _no_such_option(exc: "click.exceptions.NoSuchOption") -> str:
    """Click's message, or for a negative number (read as an option name) one that says so."""
    name = exc.option_name or ""
    if re.fullmatch(r"-\d[\d.eE+-]*", name):
        return f"{name} was read as an option: a negative number is not accepted here (seeds and counts are >= 0)"
    return " ".join(exc.format_message().split())


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: every user error ends as one line on stderr and exit code 2."""
    command = typer.main.get_command(app)
    from physbench.cli.help_text import tidy

    tidy(command)  # examples, plain metavars, whole summaries (cli/help_text.py)
    try:
        rv = command.main(args=list(argv) if argv is not None else None, prog_name="physbench",
                          standalone_mode=False)
    except _EXIT as exc:
        sys.exit(exc.exit_code)
    except _ABORT:
        print("physbench: interrupted; re-run the same command to resume", file=sys.stderr)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as exc:
        print(exc.format_message(), file=sys.stderr)
        sys.exit(2)
    except click.exceptions.NoSuchOption as exc:
        print(f"physbench: error: {_no_such_option(exc)}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.ClickException as exc:
        msg = " ".join(exc.format_message().split())
        print(f"physbench: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except UserError as exc:
        print(f"physbench: error: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("physbench: interrupted; re-run the same command to resume", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # e.g. `physbench ... | head`
        sys.exit(0)
    except OSError as exc:  # a file the user named cannot be read or written: their input, one line
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"physbench: error: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        sys.exit(2)
    if rv == 130 and not _INTERRUPT_SAID:  # typer turns a KeyboardInterrupt into exit 130, silently
        print("physbench: interrupted; re-run the same command to resume", file=sys.stderr)
    sys.exit(rv if isinstance(rv, int) else 0)
