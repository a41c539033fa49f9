"""`physbench medphys verify`: the benchmark's commissioning checks in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from physbench.suites.medphys.cli import emit, medphys_app


def _text(s: dict) -> str:  # type: ignore[type-arg]
    from physbench.suites.medphys.verify.controls import control_label

    lines = [f"medphys verification: {'PASSED' if s['passed'] else 'FAILED'} "
             f"({s['cells']} cells x {s['draws_per_cell']} draws)"]
    if s["max_rel_diff"] is not None:
        lines.append(f"  second implementation: {s['compared']} compared, max relative difference {s['max_rel_diff']:.2e}")
    lines.append(f"  plausibility violations: {s['plausibility_violations']}; error-mode answers that failed: "
                 f"{len(s['mode_failures'])}; regenerated identically: "
                 f"{s['regeneration_identical']['passed']}/{s['regeneration_identical']['total']}; reference accepted: "
                 f"{s['grader_accepts_reference']['passed']}/{s['grader_accepts_reference']['total']}")
    for name, t in s["negative_controls"].items():
        lines.append(f"  {control_label(name)}: {t['passed']}/{t['total']}")
    lines.append("  bands (derived -> in use): " + ", ".join(
        f"{b['generator']} L{b['level']} {b['derived'] * 100:g}->{b['band'] * 100:g}%" for b in s["bands"]))
    worst = max(s["constant_answer"], key=lambda c: c["pass_rate"])
    lines.append(f"  best constant answer: highest pass rate {worst['pass_rate'] * 100:.1f}% "
                 f"({worst['generator']} L{worst['level']})")
    low = [d for d in s["detectability"] if d["detected"] is not None and d["detected"] < 0.5]
    big = s["detectability_by_size"]["at_least_twice_band"]
    lines.append(f"  error modes: {len(s['detectability'])} mode-level combinations, {len(low)} detected in < 50% of "
                 f"the draws where they apply; {big['n']} with a median effect of at least twice the band, "
                 f"detected in {(big['min_detected'] or 0) * 100:.0f}-{(big['max_detected'] or 0) * 100:.0f}%")
    lines += [f"  FAIL: {f}" for f in s["failures"]]
    return "\n".join(lines)


@medphys_app.command("verify")
def verify_command(
    draws: int = typer.Option(2000, "--draws", min=1, max=100_000, help="Draws per generator and level."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Processes (default: all cores)."),
    doc: Optional[Path] = typer.Option(None, "--doc", help="Also write the Markdown record to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Second implementation, derived bands, negative controls, detectability; exit 1 if anything fails.

    With --doc, also writes the Markdown record and, beside it in figures/, the detectability figure.
    """
    from physbench.suites.medphys.verify.document import markdown
    from physbench.suites.medphys.verify.run import verify

    summary = verify(draws, workers)
    if doc is not None:
        from physbench.suites.medphys.verify.figure import detectability_figure

        figure = doc.parent / "figures" / f"{doc.stem}-detectability.png"
        detectability_figure(summary["detectability"], figure)
        text = markdown(summary, f"physbench medphys verify --draws {draws} --doc {doc}",
                        figure.relative_to(doc.parent).as_posix())
        tmp = doc.with_suffix(doc.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(doc)
    emit(summary, as_json, _text(summary))
    if not summary["passed"]:
        raise typer.Exit(code=1)
