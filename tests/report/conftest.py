"""Runs of scripted models on the medphys dev split, made once per test session in temporary directories."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # report_webdriver, for the browser test

from physbench.runner.evaluate import EvalConfig, evaluate

MODE = "mode:isocentric_isq_omitted"
# a model whose spec and every answer are hostile markup: the report and the viewer must show it as text
HOSTILE = ('constant:$\\frac{1}{$ <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
           '\\boxed{1 MU} </td></tr><b>bold</b> & "quotes"')


def _run(base: Path, name: str, model: str, **options: object) -> Path:
    run_dir = base / name
    evaluate(EvalConfig(suite="medphys", split="dev", model=model, run_dir=str(run_dir), quiet=True,
                        grade_inline=True, **options))  # type: ignore[arg-type]
    return run_dir


@pytest.fixture(scope="session")
def dev_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """oracle, the isocentric omission (`mode:`), the same again with two repeats, and a hostile constant model."""
    base = tmp_path_factory.mktemp("report-runs")
    return {
        "oracle": _run(base, "oracle", "oracle"),
        "mode": _run(base, "mode", MODE),
        "mode_again": _run(base, "mode-again", MODE, repeats=2),
        "hostile": _run(base, "hostile", HOSTILE, limit=12),
    }
