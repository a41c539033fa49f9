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


def _short(value: Any) -> Any:
    """A computed value for reading: 6 significant digits (the JSON keeps every digit)."""
    return f"{value:.6g}" if isinstance(value, float) else value


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
            formulas: str = typer.Option("benchmark", "--formulas", help="benchmark (what the dataset's code "
                                         "computes) or clinical (the guideline)."),
            as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The library's answer for one calculator from Relevant Entities, with its unit, rounded for reading
    (the JSON keeps the full value)."""
    from physbench.suites.clincalc.answer_units import UNITS, answer_text
    from physbench.suites.clincalc.calculators import CALCULATORS
    from physbench.suites.clincalc.formula_version import VERSIONS
    from physbench.suites.clincalc.library import library_answer
    from physbench.suites.clincalc.scoring import plain_answer

    if calc_id not in CALCULATORS:
        raise UserError(f"{calc_id} is not a MedCalc-Bench Verified calculator id (see `physbench clincalc calculators`)")
    if formulas not in VERSIONS:
        raise UserError(f"unknown formula version {formulas!r}; choose one of {', '.join(VERSIONS)}")
    value, why = library_answer(calc_id, _entities_argument(entities), formulas=formulas)
    if value is None:
        raise UserError(f"calculator {calc_id}: {why}")
    calc = CALCULATORS[calc_id]
    _emit({"calculator": calc_id, "name": calc.name, "answer": plain_answer(value), "formulas": formulas,
           "unit": UNITS.get(calc_id, "") if calc.kind == "decimal" else ""}, as_json,
          answer_text(calc_id, calc.kind, value))


@clincalc_app.command("audit")
def audit(data: str = typer.Option(..., "--data", help="A .csv or .parquet file, or 'one-shot'."),
          formulas: str = typer.Option("benchmark", "--formulas", help="Formula version checked against the gold: "
                                       "benchmark (what the dataset's code computes) or clinical."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The library on every row against the gold; then both formula versions side by side, each row where
    they differ explained by the errata that make the difference."""
    from physbench.suites.clincalc.audit import audit as run_audit
    from physbench.suites.clincalc.dataset import load
    from physbench.suites.clincalc.formula_version import VERSIONS
    from physbench.suites.clincalc.version_audit import compare

    if formulas not in VERSIONS:
        raise UserError(f"unknown formula version {formulas!r}; choose one of {', '.join(VERSIONS)}")
    ds = load(data)
    report = run_audit(ds.rows, ds.source, formulas=formulas)
    versions = compare(ds.rows)
    lines = [f"{report.n_rows} rows, {formulas} formulas: {report.n_agree} agree with the gold, "
             f"{report.n_disagree} disagree, {report.n_abstained} outside the library"]
    lines += [f"row {d.row_number} (calculator {d.calculator_id}): gold {d.gold}, library {d.library}; "
              f"{d.status}: {d.reason}" for d in report.disagreements]
    lines.append(f"formula versions: benchmark reproduces {versions.correct['benchmark']} golds, clinical "
                 f"{versions.correct['clinical']}; they differ on {len(versions.differences)} rows")
    lines += [f"row {d.row_number} (calculator {d.calculator_id}): gold {d.gold}, benchmark {_short(d.benchmark)}, "
              f"clinical {_short(d.clinical)}; {', '.join(d.errata) or 'UNEXPLAINED'}" for d in versions.differences]
    _emit({**report.to_json(), "formulas": formulas, "versions": versions.to_json()}, as_json, "\n".join(lines))


@clincalc_app.command("replay-from-official")
def replay_from_official(source: Path = typer.Argument(..., help="An official output file (.jsonl: Row Number, "
                                                                 "Calculator ID, LLM Answer, LLM Explanation...)."),
                         out: Path = typer.Option(..., "--out", help="The replay file to write."),
                         as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """An official MedCalc-Bench output file as a `replay:` file, to re-score a leaderboard run both ways."""
    from physbench.suites.clincalc.official_outputs import convert

    c = convert(source, out)
    _emit({"out": str(out), "rows": c.rows, "official_correct": c.official_correct, "reproduced": c.reproduced},
          as_json, f"wrote {c.rows} replies to {out}; the file marks {c.official_correct} Correct; "
          f"official scoring here reproduces {c.reproduced} of its verdicts")


@clincalc_app.command("differential")
def differential(official: Path = typer.Option(..., "--official", help="Your copy of the official "
                                               "calculator_implementations folder (its code runs in this process)."),
                 per_calculator: int = typer.Option(50, "--per-calculator", help="Generated cases per calculator."),
                 seed: int = typer.Option(0, "--seed", help="Seed of the generated cases."),
                 edges: bool = typer.Option(False, "--edges", help="Move values onto band edges and unit variants."),
                 as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The library under both formula versions against the official calculators on generated cases."""
    from physbench.core.seeds import check_seed
    from physbench.suites.clincalc.official_diff import differential as run_differential

    check_seed(seed)
    if not 1 <= per_calculator <= 10_000:
        raise UserError(f"--per-calculator must be 1 to 10000, got {per_calculator}")
    if not official.is_dir():
        raise UserError(f"--official {official}: not a folder")
    out = run_differential(official, per_calculator, seed, edges)
    t = out["total"]
    lines = [f"official code answered {t.get('benchmark_agree', 0) + t.get('benchmark_differ', 0)} cases "
             f"(raised on {t.get('official_raises', 0)}); benchmark formulas agree on {t.get('benchmark_agree', 0)}, "
             f"clinical on {t.get('clinical_agree', 0)} (the official value itself: benchmark "
             f"{t.get('benchmark_exact', 0)}, clinical {t.get('clinical_exact', 0)})",
             "clinical differences by erratum: " + (", ".join(f"{k} {v}" for k, v in
                                                              sorted(out["clinical_differences"].items())) or "none")]
    _emit(out, as_json, "\n".join(lines))


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
