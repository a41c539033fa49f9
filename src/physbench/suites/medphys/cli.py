"""`physbench medphys ...`: list the generators, show an item, solve a params file."""

from __future__ import annotations

import json
import dataclasses
import math
import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from physbench.core.errors import UserError

medphys_app = typer.Typer(help="MedPhysBench: medical-physics calculations and checks.", no_args_is_help=True,
                          add_completion=False)

KINDS = ("calculation", "worksheet_check", "result_check")
VERSION_HELP = "Benchmark version: 1.1 (default; v1.1 corrections, varied layouts) or 1.0 (the paper's items)."


def version_option() -> Any:
    """The `--benchmark-version` option of the commands that build items."""
    return typer.Option("1.1", "--benchmark-version", help=VERSION_HELP)


def emit(data: Any, as_json: bool, text: str) -> None:
    """Print `data` as JSON or `text` for people."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=None if as_json else 2) if as_json else text)


def read_json_arg(path: str) -> Any:
    """JSON from a file or '-' (stdin); bad input is a one-line UserError."""
    try:
        raw = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text (a JSON file was expected)") from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None


@medphys_app.command("list")
def list_generators(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The generators with their levels, answer units, bands and named error modes."""
    from physbench.suites.medphys.base import draw
    from physbench.suites.medphys.generators import available_generators

    out = []
    for gen in available_generators():
        units = {}
        for level, spec in sorted(gen.levels.items()):
            seen = dict.fromkeys(spec.unit(draw(gen, level, seed)) for seed in range(10))
            units[str(level)] = " | ".join(seen)
        out.append({
            "name": gen.name, "title": gen.title, "document": gen.document, "levels": sorted(gen.levels),
            "unit": units, "band": gen.band, "checking": gen.checking,
            "error_modes": [{"name": m.name, "description": m.description, "category": m.category,
                             "levels": list(m.levels)} for m in gen.error_modes],
        })
    lines = []
    for g in out:
        lines.append(f"{g['name']}: {g['title']} ({g['document']}); band {g['band'] * 100:g}%; units "
                     + ", ".join(f"L{k} {v or '(none)'}" for k, v in g["unit"].items()))
        lines += [f"    {m['name']} [{m['category']}; L{','.join(map(str, m['levels']))}]: {m['description']}"
                  for m in g["error_modes"]]
    emit({"generators": out}, as_json, "\n".join(lines))


@medphys_app.command("item", context_settings={"ignore_unknown_options": True})  # a seed of -1 reaches the check
def show_item(
    generator: str = typer.Argument(..., help="Generator name, e.g. tg51."),
    level: int = typer.Argument(..., help="Level 1, 2 or 3."),
    seed: int = typer.Argument(..., help="Public seed (0 to 2**63 - 1)."),
    kind: str = typer.Option("calculation", "--kind", help="calculation, worksheet_check or result_check."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """One item: messages, reference, band, params and metadata."""
    from physbench.suites.medphys.build import build_item
    from physbench.suites.medphys.versions import get_version

    from physbench.core.seeds import check_seed

    check_seed(seed, "the seed")
    if kind not in KINDS:
        raise UserError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    item = build_item(generator, level, seed, kind, get_version(benchmark_version))
    data = item.to_dict()
    data.update({"generator": item.meta["generator"], "level": item.meta["level"], "seed": item.meta["seed"]})
    from physbench.suites.medphys.reference import reference_of

    ref = reference_of(item)
    text = "\n\n".join([f"# {item.id}", *(f"[{m.role}]\n{m.content}" for m in item.messages),
                        f"[reference] {ref.value:.6g} {ref.unit or ''}  (band {ref.band * 100:g}%)"
                        + (f"; planted: {item.meta['planted']}" if item.kind != "calculation" else "")])
    emit(data, as_json, text)


@medphys_app.command("solve")
def solve(
    generator: str = typer.Argument(..., help="Generator name, e.g. mu."),
    level: int = typer.Argument(..., help="Level 1, 2 or 3."),
    params: str = typer.Option(..., "--params", help="JSON file of params (or an item JSON), '-' for stdin."),
    mode: Optional[str] = typer.Option(None, "--mode",
                                       help="An error mode (or a pair A+B made at once): its erroneous answer."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The reference answer (or a named error mode's answer) for a set of params."""
    from physbench.suites.medphys.base import params_from_dict
    from physbench.suites.medphys.combined import find_mode
    from physbench.suites.medphys.generators import get_generator

    gen = get_generator(generator)
    spec = gen.level(level)
    data = read_json_arg(params)
    if isinstance(data, dict) and isinstance(data.get("params"), dict) and "messages" in data:
        meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
        if (meta.get("generator"), meta.get("level")) not in ((generator, level), (None, None)):
            raise UserError(f"{params} holds a {meta.get('generator')} level {meta.get('level')} item, not "
                            f"{generator} level {level}; make one with `physbench medphys item {generator} {level} "
                            f"SEED --json > FILE`")
        data = data["params"]  # a whole item was given
    p = params_from_dict(spec.params, data, label=f"{generator} level {level}")
    impossible = physically_impossible(p)
    if impossible:
        raise UserError(f"these params are physically impossible: {'; '.join(impossible)}")
    try:
        if mode is None:
            value = spec.solve(p)
        else:
            error_mode = find_mode(gen, mode)
            if level not in error_mode.levels:
                raise UserError(f"error mode {mode!r} does not apply at level {level} "
                                f"(levels {', '.join(map(str, error_mode.levels))})")
            value = error_mode.answer(level, p)
    except (ArithmeticError, ValueError, IndexError, TypeError, KeyError) as exc:
        raise UserError(f"these params cannot be solved: {exc}") from None
    if not math.isfinite(value):
        raise UserError("these params give no finite answer")
    out: dict[str, Any] = {"value": value, "unit": spec.unit(p)}
    warnings = spec.violations(p)
    if warnings:
        out["warnings"] = warnings
    for w in warnings:  # outside the generator's ranges: said on stderr, the answer alone on stdout
        typer.echo(f"physbench: warning: {w}", err=True)
    emit(out, as_json, f"{value:.6g} {out['unit']}".strip())


_POSITIVE = re.compile(r"(?:_kpa|_mv|_kev|half_life(?:_[hd])?|_half_life_h)$|^(?:kvp|mv|mu|beam_mv|energy_mv)$")
_NONNEGATIVE = re.compile(r"(?:_cm|_mm|_m|_cm2|_mbq|_gy|_cgy|_mgy|_ugy|_msv|_sv|_week|_h|_d|_s|_min|_u)$"
                          r"|^(?:activity|mo_activity|fractions|n_fractions|pitch|dose_rate_constant)$")


def physically_impossible(p: Any) -> list[str]:
    """What no measurement can give, by each param's name and unit: a negative length, dose, activity
    or time, a pressure, energy or half-life that is not positive, a water-phantom temperature below
    absolute zero or at boiling (295.15 is then kelvin given as degrees Celsius)."""
    out = []
    for f in dataclasses.fields(p):
        value = getattr(p, f.name)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        if f.name == "temp_c" or f.name.endswith("_temp_c"):
            if value <= -273.15:
                out.append(f"{f.name} = {value:g} °C is below absolute zero")
            elif value >= 100:
                out.append(f"{f.name} = {value:g} °C: water boils at 100 °C (a value in kelvin? subtract 273.15)")
        elif _POSITIVE.search(f.name) and value <= 0:
            out.append(f"{f.name} = {value:g} must be positive")
        elif _NONNEGATIVE.search(f.name) and value < 0:
            out.append(f"{f.name} = {value:g} cannot be negative")
    return out


# the checking-item commands attach themselves to medphys_app
from physbench.suites.medphys import cli_checks as _cli_checks  # noqa: E402,F401
from physbench.suites.medphys import cli_release as _cli_release  # noqa: E402,F401
from physbench.suites.medphys import cli_verify as _cli_verify  # noqa: E402,F401
