"""`physbench demo`: the embedded local model beside two baselines on 30 MedPhysBench dev items (all
three item kinds, planted and clean checks), one report, and a plain statement of what was measured."""

from __future__ import annotations

from pathlib import Path

import typer

BASELINE_CONSTANT = ('constant:\\boxed{100 cGy} ```json {"verdict": "correct", "first_error_step": null, '
                     '"corrected_result": null}```')  # one fixed reply: a dose for calculations, "correct" for checks
MODELS = (("local", "local"), ("nocalc", "nocalc"), ("constant", BASELINE_CONSTANT))


def _share(summary: dict, kinds: tuple[str, ...]) -> str:
    cells = [c for c in summary.get("by_kind", []) if c["name"] in kinds]
    n, k = sum(c["n"] for c in cells), sum(c["n_correct"] for c in cells)
    return f"{k}/{n}" if n else "0/0"


def statement(results: dict[str, dict]) -> list[str]:
    """Two lines a physicist can read: what was asked, and how the model did beside the baselines."""
    local, nocalc, const = results["local"], results["nocalc"], results["constant"]
    checks = ("worksheet_check", "result_check")
    return [f"Measured: Gemma 3 270M (the base checkpoint, few-shot prompted, on this CPU) on {local['n_items']} "
            f"MedPhysBench dev items: {_share(local, ('calculation',))} calculations within their tolerance band, "
            f"{_share(local, checks)} worksheet and result checks judged right.",
            f"Beside it: the no-calculation checker {_share(nocalc, ('calculation',))} and {_share(nocalc, checks)}, "
            f"a constant reply {_share(const, ('calculation',))} and {_share(const, checks)}; a model is worth "
            "using only where it clearly beats both (intervals and tests in the report)."]


def register(app: typer.Typer) -> None:
    """Add `physbench demo`."""

    @app.command("demo")
    def demo_command(
        run_dir: str = typer.Option("runs/demo", "--run-dir", help="Folder of the three runs and the report; "
                                                                   "the same one resumes."),
        limit: int = typer.Option(30, "--limit", min=3, max=600, help="Dev items (spread over generators and kinds)."),
    ) -> None:
        """Evaluate the embedded model and two baselines, write one report, say what was measured."""
        from physbench.cli.report_cmd import write_report
        from physbench.report.document import report_for
        from physbench.runner.evaluate import EvalConfig, evaluate

        root = Path(run_dir)
        results = {}
        for name, spec in MODELS:
            typer.echo(f"physbench demo: {name} ...", err=True)
            result = evaluate(EvalConfig(suite="medphys", split="dev", model=spec, limit=limit,
                                         run_dir=str(root / name), quiet=name != "local"))
            if result.status != "completed":
                from physbench.cli import interrupted

                typer.echo("interrupted: re-run the same command to resume", err=True)
                raise interrupted()
            results[name] = result.summary
        report = report_for([str(root / name) for name, _ in MODELS], figures=True)
        write_report(root / "report", report)
        for line in statement(results):
            typer.echo(line)
        typer.echo(f"report: {root / 'report' / 'report.html'} (and report.md beside it)")
