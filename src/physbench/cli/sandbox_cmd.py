"""`physbench sandbox run FILE` and `physbench sandbox layers`: the restricted executor by hand.

Exit 0 whatever the program did (the status is the answer); exit 2 for a bad invocation or when
the sandbox refuses to start (a required kernel layer is missing). `--json` is strict JSON
(non-finite floats are written as the strings "NaN", "Infinity", "-Infinity"); text mode shows
control characters from program output as escapes, so nothing reaches the terminal raw.
"""

from __future__ import annotations

import json
import math
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


_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _printable(text: str) -> str:
    """`text` with terminal controls (escape sequences, C1 codes, bidi overrides) made visible."""
    return _UNSAFE.sub(lambda m: ascii(m.group())[1:-1], text)


def _strict(value: object) -> object:
    """Plain JSON with non-finite floats as strings (json.dumps would write NaN/Infinity)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strict(v) for v in value]
    return value


def _executor(policy: str, insecure: bool):  # type: ignore[no-untyped-def]
    from physbench.executor import Executor, ExecutorError

    try:
        return Executor(policy, workers=1, allow_missing_layers=insecure)
    except ExecutorError as exc:
        raise UserError(str(exc)) from None


_INSECURE_HELP = ("Run even when a kernel isolation layer the policy relies on is missing. Unsafe for "
                  "untrusted code.")


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
    policy: str = typer.Option("strict", "--policy", help="strict (math, datetime, time, calendar), "
                                                          "scientific (adds numpy, scipy, sympy) or symbolic "
                                                          "(adds sympy and cmath only; starts faster)."),
    call: str = typer.Option("solve", "--call", help="Function to call after the module runs."),
    args: str = typer.Option(None, "--args", help="JSON list of arguments for the call."),
    no_call: bool = typer.Option(False, "--no-call", help="Only run the module; call nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    insecure: bool = typer.Option(False, "--insecure-allow-missing-layers", help=_INSECURE_HELP),
) -> None:
    """Run FILE in the sandbox and print its status, value, error and resource use."""
    from physbench.executor import POLICIES, ExecutorError

    if policy not in POLICIES:
        raise UserError(f"unknown policy {policy!r}; choose {', '.join(POLICIES)}")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", call):
        raise UserError(f"--call {call!r} must be a plain identifier not starting with '_'")
    source = _read_source(file)
    call_args = _parse_args(args)
    try:
        with _executor(policy, insecure) as ex:
            result = ex.run(source, call=None if no_call else call, args=call_args)
    except ExecutorError as exc:
        raise UserError(f"sandbox failed: {exc}") from None
    out = _strict(result.to_dict())
    if json_out:
        typer.echo(json.dumps(out, allow_nan=False))
        return
    typer.echo(f"status: {out['status']}")
    if out["status"] == "ok":
        typer.echo(f"value: {json.dumps(out['value'], allow_nan=False)}")
    if out["error"]:
        typer.echo(f"error: {_printable(out['error'])}")
    if out["output"]:
        typer.echo("output:")
        typer.echo(_printable(out["output"].rstrip("\n")))
    typer.echo(f"wall {out['wall_s']:.3f} s, cpu {out['cpu_s']:.3f} s, peak memory {out['max_rss_mb']:.1f} MB")


@sandbox_app.command("layers")
def layers_cmd(
    policy: str = typer.Option("strict", "--policy", help="strict, scientific or symbolic."),
    json_out: bool = typer.Option(False, "--json", help="Print the layers as one JSON object."),
) -> None:
    """Show which isolation layers are active on this host (each kernel layer is probed); exit 0
    even when a required one is missing (this command runs no program)."""
    from physbench.executor import POLICIES
    from physbench.executor.layers import REQUIRED

    if policy not in POLICIES:
        raise UserError(f"unknown policy {policy!r}; choose {', '.join(POLICIES)}")
    with _executor(policy, True) as ex:
        layers = ex.layers
    for name in REQUIRED[policy]:
        layers[name] = dict(layers[name], required=True)
    if json_out:
        typer.echo(json.dumps(layers))
        return
    for name, info in layers.items():
        mark = "on " if info.get("active") else "off"
        blocks = f" (stops: {', '.join(info['blocks'])})" if info.get("blocks") else ""
        need = " [required]" if info.get("required") else ""
        typer.echo(_printable(f"{mark} {name}{need}: {info.get('detail', '')}{blocks}"))


def register(app: typer.Typer) -> None:
    """Add `physbench sandbox ...` to the root app."""
    app.add_typer(sandbox_app, name="sandbox")
