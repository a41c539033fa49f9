"""`physbench sandbox run FILE` and `physbench sandbox layers`: the restricted executor by hand.

Exit 0 whatever the program did (the status is the answer); exit 2 for a bad invocation.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import typer

from physbench.core.errors import UserError

sandbox_app = typer.Typer(help="Run model-written Python in the restricted executor.", no_args_is_help=True)

_MAX_FILE_BYTES = 1_000_000


def _read_source(file: str) -> str:
    try:
        data = sys.stdin.buffer.read(_MAX_FILE_BYTES + 1) if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {file}: {exc.strerror or exc}") from None
    if len(data) > _MAX_FILE_BYTES:
        raise UserError(f"{file} is larger than {_MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{file} is not UTF-8 text") from None


def _parse_args(text: str | None) -> tuple:
    if text is None:
        return ()
    try:
        value = json.loads(text)
    except ValueError:
        raise UserError("--args must be a JSON list, e.g. '[1, 2.5, \"2024-01-31\"]'") from None
    if not isinstance(value, list):
        raise UserError("--args must be a JSON list")
    return tuple(value)


@sandbox_app.command("run")
def run_cmd(
    file: str = typer.Argument(..., help="Python source file ('-' for standard input)."),
    policy: str = typer.Option("strict", "--policy", help="strict (math, datetime, time, calendar) or "
                                                          "scientific (adds numpy, scipy, sympy)."),
    call: str = typer.Option("solve", "--call", help="Function to call after the module runs."),
    args: str = typer.Option(None, "--args", help="JSON list of arguments for the call."),
    no_call: bool = typer.Option(False, "--no-call", help="Only run the module; call nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
) -> None:
    """Run FILE in the sandbox and print its status, value, error and resource use."""
    from physbench.executor import POLICIES, Executor

    if policy not in POLICIES:
        raise UserError(f"unknown policy {policy!r}; choose strict or scientific")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", call):
        raise UserError(f"--call {call!r} must be a plain identifier not starting with '_'")
    source = _read_source(file)
    call_args = _parse_args(args)
    with Executor(policy, workers=1) as ex:
        result = ex.run(source, call=None if no_call else call, args=call_args)
    out = result.to_dict()
    if json_out:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"status: {out['status']}")
    if out["status"] == "ok":
        typer.echo(f"value: {json.dumps(out['value'])}")
    if out["error"]:
        typer.echo(f"error: {out['error']}")
    if out["output"]:
        typer.echo("output:")
        typer.echo(out["output"].rstrip("\n"))
    typer.echo(f"wall {out['wall_s']:.3f} s, cpu {out['cpu_s']:.3f} s, peak memory {out['max_rss_mb']:.1f} MB")


@sandbox_app.command("layers")
def layers_cmd(
    policy: str = typer.Option("strict", "--policy", help="strict or scientific."),
    json_out: bool = typer.Option(False, "--json", help="Print the layers as one JSON object."),
) -> None:
    """Show which isolation layers are active on this host (each kernel layer is probed)."""
    from physbench.executor import POLICIES, Executor

    if policy not in POLICIES:
        raise UserError(f"unknown policy {policy!r}; choose strict or scientific")
    with Executor(policy, workers=1) as ex:
        layers = ex.layers
    if json_out:
        typer.echo(json.dumps(layers))
        return
    for name, info in layers.items():
        mark = "on " if info.get("active") else "off"
        blocks = f" (stops: {', '.join(info['blocks'])})" if info.get("blocks") else ""
        typer.echo(f"{mark} {name}: {info.get('detail', '')}{blocks}")


def register(app: typer.Typer) -> None:
    """Add `physbench sandbox ...` to the root app."""
    app.add_typer(sandbox_app, name="sandbox")
