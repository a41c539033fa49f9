"""`physbench clincalc ...`: the calculator library, one computation, the audit of a data file, the synthetic set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from physbench.core.errors import UserError

clincalc_app = typer.Typer(help="MedCalc-Bench Verified calculators and data.", no_args_is_help=True,
                           add_completion=False)
MAX_ENTITIES_FILE_BYTES = 1_000_000


def _emit(data: Any, as_json: bool, text: str) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False) if as_json else text)


@clincalc_app.command("calculators")
def calculators(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every calculator: id, name, output type, how it is scored, and its formula-audit group."""
    from physbench.suites.clincalc.calculators import CALCULATORS
    from physbench.suites.clincalc.formula_audit import audit_group

    out = [{"id": c.id, "name": c.name, "output_type": c.output_type, "kind": c.kind,
            "audit": audit_group(c.id), "source": c.source} for c in CALCULATORS.values()]
    lines = [f"{r['id']:>3}  {r['name']}  [{r['kind']}; audit: {r['audit']}]" for r in out]
    _emit({"calculators": out}, as_json, "\n".join(lines))


def _entities_argument(text: str) -> dict:
    """A Relevant Entities literal, or the path of a file that holds one."""
    from physbench.suites.clincalc.dataset import parse_entities

    path = Path(text)
    if not text.lstrip().startswith("{") and path.is_file():
        if path.stat().st_size > MAX_ENTITIES_FILE_BYTES:
            raise UserError(f"{path}: an entities file is at most {MAX_ENTITIES_FILE_BYTES} bytes")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_entities(text, "--entities")


@clincalc_app.command("compute")
def compute(calc_id: int = typer.Argument(..., help="Calculator id (see `clincalc calculators`)."),
            entities: str = typer.Option(..., "--entities", help="Relevant Entities as a Python literal, or a file."),
            as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The library's answer for one calculator from Relevant Entities."""
    from physbench.suites.clincalc.calculators import CALCULATORS
    from physbench.suites.clincalc.library import library_answer
    from physbench.suites.clincalc.scoring import plain_answer

    if calc_id not in CALCULATORS:
        raise UserError(f"{calc_id} is not a MedCalc-Bench Verified calculator id (see `physbench clincalc calculators`)")
    value, why = library_answer(calc_id, _entities_argument(entities))
    if value is None:
        raise UserError(f"calculator {calc_id}: {why}")
    answer = plain_answer(value)
    _emit({"calculator": calc_id, "name": CALCULATORS[calc_id].name, "answer": answer}, as_json, str(answer))


@clincalc_app.command("audit")
def audit(data: str = typer.Option(..., "--data", help="A .csv or .parquet file, or 'one-shot'."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The library on every row; each row where it and the gold disagree, with the reason where known."""
    from physbench.suites.clincalc.audit import audit as run_audit
    from physbench.suites.clincalc.dataset import load

    ds = load(data)
    report = run_audit(ds.rows, ds.source)
    lines = [f"{report.n_rows} rows: {report.n_agree} agree, {report.n_disagree} disagree, "
             f"{report.n_abstained} outside the library"]
    lines += [f"row {d.row_number} (calculator {d.calculator_id}): gold {d.gold}, library {d.library}; "
              f"{d.status}: {d.reason}" for d in report.disagreements]
    _emit(report.to_json(), as_json, "\n".join(lines))


@clincalc_app.command("synth")
def synth(out: Path = typer.Option(..., "--out", help="The file to write (.csv, or .parquet with pyarrow)."),
          per_calculator: int = typer.Option(20, "--per-calculator", help="Cases per calculator."),
          seed: int = typer.Option(0, "--seed", help="Seed of the draws (the same seed writes the same file)."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """A synthetic set in the official CSV schema: templated notes, gold answers and limits from the library."""
    from physbench.suites.clincalc.synth import write_synth

    from physbench.core.seeds import check_seed

    check_seed(seed)
    if out.exists() and out.is_dir():
        raise UserError(f"cannot write {out}: is a directory")
    from physbench.cli.outputs import out_format

    out_format(str(out), {".csv": "csv", ".parquet": "parquet"})  # another suffix is refused, as everywhere
    n = write_synth(str(out), per_calculator, seed)
    _emit({"out": str(out), "rows": n, "per_calculator": per_calculator, "seed": seed}, as_json,
          f"wrote {n} rows to {out}")
