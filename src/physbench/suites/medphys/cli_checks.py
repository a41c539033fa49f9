"""`physbench medphys split | commit | verify-commitment | targeted | audit-cues`."""

from __future__ import annotations

from typing import Any, Optional

import typer

from physbench.core.errors import UserError
from physbench.suites.medphys.cli import emit, medphys_app, version_option


def _listing(items: list[Any]) -> list[dict[str, Any]]:
    return [{"id": i.id, "kind": i.kind, "generator": i.meta["generator"], "level": i.meta["level"],
             "seed": i.meta["seed"], "benchmark_version": i.meta.get("benchmark_version"), "planted": ({"mode": i.meta["planted"]["mode"], "step": i.meta["planted"]["step"]}
                                                 if i.meta["planted"] else None),
             "params_hash": i.params_hash} for i in items]


def _table(rows: list[dict[str, Any]]) -> str:
    lines = []
    for r in rows:
        planted = f"planted {r['planted']['mode']} @ step {r['planted']['step']}" if r["planted"] else ""
        lines.append(f"{r['id']}\t{r['kind']}\t{r['params_hash'][:12]}\t{planted}".rstrip())
    return "\n".join(lines)


@medphys_app.command("split")
def split(
    name: str = typer.Argument(..., help="dev, test, test-half (first 10 draws per cell), or "
                                         "targeted:GEN:LEVEL:MODE[:N[:START]]."),
    key_file: Optional[str] = typer.Option(None, "--key-file", help="The 32-byte secret key (test, test-half)."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The items of a split: id, kind, generator, level, seed (null for test), planted error, params hash."""
    from collections import Counter

    from physbench.suites.medphys.splits import needs_key, read_key, split_items
    from physbench.suites.medphys.versions import get_version

    version = get_version(benchmark_version)
    key = read_key(key_file) if needs_key(name) else None
    rows = _listing(split_items(name, key=key, benchmark_version=version))
    kinds = Counter(r["kind"] for r in rows)
    emit({"split": name, "benchmark_version": version.label, "n_items": len(rows),
          "by_kind": {k: kinds.get(k, 0) for k in ("calculation", "worksheet_check", "result_check")},
          "items": rows}, as_json, _table(rows))


@medphys_app.command("commit")
def commit(
    key_file: str = typer.Option(..., "--key-file", help="The 32-byte secret key."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The SHA-256 commitment to the test split (sorted item ids and params hashes), with the code hash."""
    from physbench.suites.medphys.commit import commitments
    from physbench.suites.medphys.splits import heldout_items, read_key

    items = heldout_items(read_key(key_file), version=benchmark_version)
    out = commitments(items, benchmark_version)
    emit(out, as_json, f"{out['commitment']}  ({out['n_items']} test items, {out['benchmark_version']}); "
                       f"code {out['code_hash']}")


@medphys_app.command("verify-commitment")
def verify_commitment(
    expected: str = typer.Argument(..., help="The published commitment (64 hex digits)."),
    key_file: str = typer.Option(..., "--key-file", help="The 32-byte secret key."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check a published commitment against the test split this key produces (exit 1 if not)."""
    from physbench.suites.medphys.commit import commitment
    from physbench.suites.medphys.splits import heldout_items, read_key

    expected = expected.strip().lower()
    if len(expected) != 64 or any(c not in "0123456789abcdef" for c in expected):
        raise UserError("the commitment must be 64 hex digits")
    items = heldout_items(read_key(key_file), version=benchmark_version)
    ok = commitment(items) == expected
    emit({"match": ok, "n_items": len(items)}, as_json, "commitment matches" if ok else "commitment DOES NOT match")
    if not ok:
        raise typer.Exit(code=1)


@medphys_app.command("targeted")
def targeted(
    generator: str = typer.Argument(..., help="A checking generator, e.g. mu."),
    level: int = typer.Argument(..., help="Level 1, 2 or 3."),
    mode: str = typer.Option(..., "--mode", help="The planted error mode to select draws by."),
    n: int = typer.Option(20, "--n", min=1, max=1000, help="Number of parameter sets."),
    start: int = typer.Option(1000, "--start", min=0, help="First public seed to consider."),
    benchmark_version: str = version_option(),
    as_json: bool = typer.Option(False, "--json", help="Print the items as JSON."),
) -> None:
    """The targeted test of one error: five items per parameter set (seed 000, Section K).

    Evaluate it with `physbench eval medphys --split targeted:GEN:LEVEL:MODE:N:START`.
    """
    from physbench.suites.medphys.splits import targeted_items

    items = targeted_items(generator, level, mode, n, start, version=benchmark_version)
    if as_json:
        emit({"n_items": len(items), "items": [i.to_dict() for i in items]}, True, "")
    else:
        typer.echo(_table(_listing(items)))


@medphys_app.command("audit-cues")
def audit_cues(
    draws: int = typer.Option(500, "--draws", min=20, max=5000, help="Draws per cell (evaluation and calibration)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Structural-cue audit of the worksheets of both benchmark versions: medphys@1.0 (fixed layouts, the
    paper's audit) and medphys@1.1 (varied layouts)."""
    from physbench.suites.medphys.audit import audit

    results = [audit(draws, version="1.0"), audit(draws, version="1.1")]
    lines = []
    for r in results:
        lines.append(f"{r['benchmark_version']}: layout variation {'on' if r['variation'] else 'off'} "
                     f"({r['draws_per_cell']} draws per cell)")
        lines.append("cell            step-count det/FA   length det/FA   words det/FA")
        for c in r["cells"]:
            rules = c["rules"]
            lines.append(f"{c['generator'] + ' L' + str(c['level']):<15} " + "   ".join(
                f"{rules[k]['detection'] * 100:5.1f}/{rules[k]['false_alarm'] * 100:4.1f}"
                for k in ("step_count", "length", "words")) + (f"   {rules['words']['words']}" if rules['words']['words'] else ""))
        w = r["worst"]
        lines.append(f"largest detection above false alarms: {r['max_excess'] * 100:.1f} points "
                     f"({w['generator']} L{w['level']}, {w['rule']})\n")
    emit({"versions": {r["benchmark_version"]: r for r in results},
          "without_variation": results[0], "with_variation": results[1]}, as_json, "\n".join(lines))
