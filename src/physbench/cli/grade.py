"""`physbench grade`: grade one response (a file or stdin) against a reference, as the benchmark would."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from physbench.core.errors import UserError

MAX_INPUT_BYTES = 8 << 20
KINDS = ("calculation", "result_check", "worksheet_check")


def parse_band(text: str) -> float:
    """"0.5%" -> 0.005; "0.005" -> 0.005. A bare number of 1 or more is refused as ambiguous."""
    s = text.strip()
    m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,3})?\s*(%?)", s)
    if m is None:
        raise UserError(f"--band {text!r}: give a fraction such as 0.005 or a percentage such as 0.5%")
    value = float(s.rstrip("%").strip())
    if m.group(2):
        value /= 100.0
    elif value >= 1.0:
        raise UserError(f"--band {text!r}: a fraction must be below 1; write a percentage as {s}%")
    if not math.isfinite(value):
        raise UserError(f"--band {text!r} is not a finite number")
    if not 0.0 < value < 1.0:
        raise UserError(f"--band {text!r}: the tolerance must be above 0 and below 100%")
    return value


def _read_response(source: str) -> str:
    """The response text from a file or stdin ("-"), at most MAX_INPUT_BYTES."""
    if source == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        path = Path(source)
        if path.is_dir():
            raise UserError(f"{source} is a directory; give the response file inside it")
        if not path.is_file():
            raise UserError(f"response file not found: {source}")
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise UserError(f"cannot read {source}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UserError(f"response is larger than {MAX_INPUT_BYTES >> 20} MB")
    # a binary file or an empty reply is a mistake in the command, not a response to grade
    if b"\x00" in data:
        raise UserError(f"{source}: the response is binary (it holds NUL bytes); give a text file")
    if not data.strip():
        raise UserError(f"{source}: the response is empty")
    return data.decode("utf-8", errors="replace")


def _reference(text: str, kind: str, planted: Optional[bool], step: Optional[int]) -> Any:
    from physbench.grading import CheckKey, parse_quantity

    number = re.match(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", text)
    if number and not math.isfinite(float(number.group(1))):
        raise UserError(f"--reference {text!r}: the value {number.group(1)} is too large to be a number "
                        "(it overflows a double)")
    q = parse_quantity(text)
    if q is None:
        raise UserError(f"--reference {text!r}: expected 'VALUE UNIT' with a unit this grader knows, "
                        "e.g. '1.018 cGy/MU' (a bare number for a pure number)")
    if kind == "calculation":
        if planted is not None or step is not None:
            raise UserError("--planted and --first-error-step apply to checks only")
        return q
    if planted is None:
        raise UserError(f"--kind {kind} needs --planted or --no-planted")
    if planted and kind == "worksheet_check" and step is None:
        raise UserError("a planted worksheet check needs --first-error-step N")
    return CheckKey(value=q[0], unit=q[1], planted=planted, first_error_step=step if planted else None)


def _summary(grade: Any) -> str:
    parts = [grade.outcome]
    if grade.verdict is not None or grade.detail.get("kind"):
        parts.append(f"verdict={grade.verdict or 'none'}")
        if grade.first_error_step is not None:
            parts.append(f"first_error_step={grade.first_error_step}")
        if grade.corrected_value is not None:
            parts.append(f"corrected={grade.corrected_value:g} {grade.corrected_unit or ''}".rstrip()
                         + f" ({'passed' if grade.corrected_passed else 'failed'})")
    elif grade.value is not None:
        parts.append(f"{grade.value:g} {grade.unit or ''}".rstrip())
        if grade.rel_error is not None:
            parts.append(f"rel_error={grade.rel_error:.3%}")
    reason = grade.detail.get("reason")
    if reason:
        parts.append(f"({reason})")
    return "  ".join(parts)


def register(app: typer.Typer) -> None:
    """Add `physbench grade` to the root app."""

    @app.command("grade")
    def grade_cmd(
        source: str = typer.Argument("-", metavar="[FILE|-]", help="Response text; '-' reads stdin."),
        reference: str = typer.Option(..., "--reference", help="Reference answer, 'VALUE UNIT'."),
        band: str = typer.Option(..., "--band", help="Relative tolerance: 0.5% or 0.005."),
        kind: str = typer.Option("calculation", "--kind", help="calculation, result_check or worksheet_check."),
        planted: Optional[bool] = typer.Option(None, "--planted/--no-planted",
                                               help="Checks: the colleague's work holds a planted error."),
        first_error_step: Optional[int] = typer.Option(None, "--first-error-step",
                                                       help="Worksheet checks: the planted error's step."),
        finish_reason: Optional[str] = typer.Option(None, "--finish-reason",
                                                    help="The model's finish reason (e.g. length)."),
        as_json: bool = typer.Option(False, "--json", help="Print the grade as one JSON object."),
    ) -> None:
        """Grade one response the way the benchmark does (units, band, verdict JSON)."""
        from physbench.grading import grade_calculation, grade_check

        if kind not in KINDS:
            raise UserError(f"--kind {kind!r}: choose one of {', '.join(KINDS)}")
        fraction = parse_band(band)
        ref = _reference(reference, kind, planted, first_error_step)
        text = _read_response(source)
        if kind == "calculation":
            grade = grade_calculation(text, ref, fraction, finish_reason=finish_reason)
        else:
            grade = grade_check(text, ref, fraction, kind, finish_reason=finish_reason)
        if as_json:
            typer.echo(json.dumps(grade.to_dict(), sort_keys=True, allow_nan=False))
        else:
            typer.echo(_summary(grade))
