"""`physbench demo`: the embedded local model beside two baselines on 30 MedPhysBench dev items (all
three item kinds, planted and clean checks), one report, and a plain statement of what was measured."""

from __future__ import annotations

from pathlib import Path

import typer

BASELINE_CONSTANT = ('constant:\\boxed{100 cGy} ```json {"verdict": "correct", "first_error_step": null, '
                     '"corrected_result": null}```')  # one fixed reply: a dose for calculations, "correct" for checks
MODELS = (("local", "local"), ("nocalc", "nocalc"), ("constant", BASELINE_CONSTANT))  # (run label, spec)


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


def conclusion(rows: list[dict], model: str = "local", nocalc: str = "nocalc", constant: str = "constant") -> list[str]:
    """The demo's last lines: in plain words, whether the model can be told apart from the baselines
    on each item kind (exact McNemar on the same items, Holm; report/verdict.py), then the details.
    The names are the runs' labels in the report."""
    from physbench.report.verdict import apart, model_sentences, pair_of

    baselines = (nocalc, constant)
    kinds = [r for r in rows if any(m["model"] == model for m in r["models"])]

    def correct(row: dict, name: str) -> int:
        return next((m["n_correct"] for m in row["models"] if m["model"] == name), 0)

    ahead = [r["kind"] for r in kinds if all(apart(pair_of(r, model, b), r["alpha"]) and
                                              correct(r, model) > correct(r, b) for b in baselines)]
    like_constant = [r["kind"] for r in kinds if pair_of(r, model, constant) is not None
                     and not apart(pair_of(r, model, constant), r["alpha"])]
    test = "exact McNemar tests on the same items, Holm"
    if ahead:
        head = f"Conclusion: the model is ahead of both baselines on {', '.join(ahead)} ({test})"
        if like_constant:
            head += f"; on {', '.join(like_constant)} it cannot be told apart from the constant reply"
    elif like_constant and len(like_constant) == len(kinds):
        head = (f"Conclusion: on these items the model cannot be told apart from a constant reply on any kind "
                f"({test}): it has shown no skill here")
    else:
        head = f"Conclusion: the model is ahead of neither baseline on any kind of item ({test})"
    return [head + "."] + [f"  {line}" for line in model_sentences(kinds, model)]


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
                                         run_dir=str(root / name), quiet=name != "local", label=name))
            if result.status != "completed":
                from physbench.cli import interrupted

                typer.echo("interrupted: re-run the same command to resume", err=True)
                raise interrupted()
            results[name] = result.summary
        report = report_for([str(root / name) for name, _ in MODELS], figures=True)
        write_report(root / "report", report)
        label = {Path(m["run_dir"]).name: m["label"] for m in report.doc["models"]}  # older runs: spec labels
        for line in statement(results) + conclusion(report.doc["analyses"]["verdict"], label["local"],
                                                    label["nocalc"], label["constant"]):
            typer.echo(line)
        typer.echo(f"report: {root / 'report' / 'report.html'} (and report.md beside it)")
