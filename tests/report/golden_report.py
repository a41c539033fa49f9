"""A fixed set of scripted medphys runs and its report, with run ids, paths and times replaced by
placeholders, so that a report can be compared with the one stored in `golden/`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from physbench.report.document import json_safe, report_for
from physbench.report.markdown import render_document
from physbench.runner.evaluate import EvalConfig, evaluate

GOLDEN = Path(__file__).resolve().parent / "golden"
RUNS = (("oracle", "oracle", {}), ("mode", "mode:isocentric_isq_omitted", {}),
        ("mode-again", "mode:isocentric_isq_omitted", {"repeats": 2}), ("nocalc", "nocalc", {}),
        ("const", "constant:\\boxed{1 MU}", {}))


def make_runs(base: Path) -> list[str]:
    """The scripted runs on the medphys dev split, graded in this process."""
    dirs = []
    for name, model, options in RUNS:
        run_dir = base / name
        evaluate(EvalConfig(suite="medphys", split="dev", model=model, run_dir=str(run_dir), quiet=True,
                            grade_inline=True, **options))  # type: ignore[arg-type]
        dirs.append(str(run_dir))
    return dirs


def normalise(text: str, base: Path, run_ids: list[str]) -> str:
    """`text` with what differs between two identical runs (ids, directories, times, revision) replaced."""
    for n, run_id in enumerate(run_ids, start=1):
        text = text.replace(run_id, f"RUN{n}")
    text = text.replace(str(base), "BASE")
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "TIME", text)
    text = re.sub(r'("git_revision": )"[0-9a-f]{7,40}"', r'\1"REV"', text)
    return re.sub(r" at [0-9a-f]{12}\b", " at REV", text)


def rendered(base: Path) -> tuple[str, str]:
    """(Markdown, JSON) of the report of the fixed runs made under `base`, normalised."""
    dirs = make_runs(base)
    report = report_for(dirs, figures=False)
    run_ids = [r["run_id"] for r in report.doc["runs"]]
    md = render_document(report.sections, captions=report.captions)
    doc = json.dumps(json_safe(report.doc), indent=1, sort_keys=True, allow_nan=False) + "\n"
    return normalise(md, base, run_ids), normalise(doc, base, run_ids)


if __name__ == "__main__":  # re-bless: python tests/report/golden_report.py (only when the items change)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        md, doc = rendered(Path(tmp))
    GOLDEN.mkdir(exist_ok=True)
    (GOLDEN / "medphys_report.md").write_text(md, encoding="utf-8")
    (GOLDEN / "medphys_report.json").write_text(doc, encoding="utf-8")
