"""Runs read into memory for the analyses: one label per model (condition), primary and repeated runs.

A *condition* is what a run measures: suite, split, protocol, model spec and item options. The first run given
for a condition is its primary run, whose first response to each item (repeat 0) enters the main
analyses, as the seed scores one response per item (000 "Runs"); further runs of the same
condition and further repeats feed the repeated-run tables only.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from physbench.core.errors import UserError
from physbench.runner.results import Result, open_run

if TYPE_CHECKING:
    from physbench.runner.manifest import Manifest

MAX_LABEL = 32  # a model label longer than this is cut (labels appear in tables, figures and the viewer)


@dataclass
class RunData:
    """One run directory, read whole: its manifest, summary and attempts. `results` holds every
    graded attempt and every one that ended without a reply (outcome `failed`, no credit), so each
    analysis counts failures; `failures` lists the latter again with their errors."""

    run_dir: Path
    manifest: "Manifest"
    results: list[Result]
    failures: list[Result]
    summary: dict[str, Any]
    label: str = ""
    full_label: str = ""  # the label before it was cut (shown on hover)
    primary: bool = True
    ordinal: int = 1  # 1 for the primary run of its condition, 2 for the next run of it, ...

    @property
    def condition(self) -> tuple[str, str, str, str, str]:
        """Suite, split, protocol, model spec and the suite's item options (an arm, a data file) with the
        reasoning settings (a reasoning effort makes another configuration, not a repeat)."""
        m = self.manifest
        return (m.suite, m.split, m.protocol, m.model_spec, "; ".join(filter(None, [item_options_text(m),
                                                                                   ", ".join(settings(m))])))

    @property
    def suite(self) -> str:
        return self.manifest.suite

    def responses(self, repeat: int | None = None) -> dict[str, Result]:
        """item id -> response; the lowest repeat of each item unless `repeat` names one."""
        out: dict[str, Result] = {}
        for r in self.results:
            if repeat is not None and r.repeat != repeat:
                continue
            held = out.get(r.item.id)
            if held is None or r.repeat < held.repeat:
                out[r.item.id] = r
        return out

    def repeats_present(self) -> list[int]:
        return sorted({r.repeat for r in self.results})


@dataclass
class RunSet:
    """All runs given to one report, with the primary run of each condition as "the models"."""

    runs: list[RunData]
    models: list[RunData] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.models = [r for r in self.runs if r.primary]

    def by_label(self) -> dict[str, RunData]:
        return {r.label: r for r in self.models}

    def suite_models(self, suite: str) -> list[RunData]:
        return [r for r in self.models if r.suite == suite]

    def repeated(self) -> list[tuple[RunData, RunData]]:
        """(primary, later run) for every condition given more than once."""
        firsts = {r.condition: r for r in self.models}
        return [(firsts[r.condition], r) for r in self.runs if not r.primary]


def read_run(run_dir: str | os.PathLike[str]) -> RunData:
    """Read one run directory (UserError, one line, when it is not a readable run)."""
    from physbench.report.summary import summarise

    with open_run(run_dir) as reader:
        try:
            results = list(reader.attempts())  # failed attempts too: no credit, in every denominator
            failures = list(reader.failures())
            summary = summarise(reader)
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"cannot read the results in {str(run_dir)!r}: {type(exc).__name__}: {exc}") from None
        except sqlite3.Error as exc:  # a damaged store
            raise UserError(f"cannot read the run store in {str(run_dir)!r}: {exc}") from None
        return RunData(run_dir=Path(run_dir), manifest=reader.manifest, results=results, failures=failures,
                       summary=summary)


def item_options(manifest: "Manifest") -> dict[str, str]:
    """The run's `--option NAME=VALUE` pairs (empty when none)."""
    options = (getattr(manifest, "options", None) or {}).get("item_options") or {}
    return {str(k): str(v) for k, v in options.items()} if isinstance(options, dict) else {}


def item_options_text(manifest: "Manifest") -> str:
    """The run's item options, sorted, as one text ('' when none)."""
    options = item_options(manifest)
    return ", ".join(f"{k}={options[k]}" for k in sorted(options))


def settings(manifest: "Manifest") -> list[str]:
    """The run's reasoning settings as label parts ('effort=high', 'thinking=8000'); none when not given."""
    sampling = getattr(manifest, "sampling", None) or {}
    sampling = sampling if isinstance(sampling, dict) else {}
    names = (("reasoning_effort", "effort"), ("thinking_budget", "thinking"))
    return [f"{short}={sampling[key]}" for key, short in names if sampling.get(key) is not None]


def clean_label(text: str) -> str:
    """A label without control characters, cut to MAX_LABEL characters."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(text)).strip() or "model"
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def assign_labels(runs: Sequence[RunData]) -> None:
    """Label each run by its model spec, adding split/protocol/suite only where runs differ in them."""
    conditions: list[tuple[str, str, str, str, str]] = []
    for run in runs:
        if run.condition not in conditions:
            conditions.append(run.condition)
    vary = [len({c[i] for c in conditions}) > 1 for i in range(3)]  # suite, split, protocol
    options = {id(run): item_options(run.manifest) for run in runs}
    names = sorted({k for o in options.values() for k in o})
    shown = [k for k in names if len({o.get(k) for o in options.values()}) > 1]  # options that tell runs apart
    seen: dict[tuple[str, str, str, str, str], int] = {}
    taken: set[str] = set()
    for run in runs:
        suite, split, protocol, spec, _ = run.condition
        extras = [v for v, differs in zip((suite, split, protocol), vary) if differs]
        extras += [f"{k}={options[id(run)][k]}" for k in shown if k in options[id(run)]]
        extras += settings(run.manifest)  # always shown: the effort is part of the model's configuration
        if spec == "none":  # a scripted system with no model: the protocol names it
            spec, extras = protocol, [v for v in extras if v != protocol and not v.endswith(f"={protocol}")]
        given = (getattr(run.manifest, "options", None) or {}).get("label")  # `eval --label NAME`
        full = str(given) if given else spec + (f" [{', '.join(extras)}]" if extras else "")
        run.full_label = "".join(ch if ch.isprintable() else " " for ch in full).strip()
        base = clean_label(full)
        seen[run.condition] = seen.get(run.condition, 0) + 1
        run.ordinal = seen[run.condition]
        run.primary = run.ordinal == 1
        label = base if run.primary else f"{base} (run {run.ordinal})"
        n = 2
        while label in taken:  # two conditions that print alike after cleaning
            label = f"{base} #{n}"
            n += 1
        taken.add(label)
        run.label = label


def load_runs(run_dirs: Iterable[str | os.PathLike[str]]) -> RunSet:
    """Read every run (all before any output is written) and label them; a directory given twice counts once."""
    unique: dict[Path, str | os.PathLike[str]] = {}
    for d in run_dirs:
        unique.setdefault(Path(d).resolve(), d)
    runs = [read_run(d) for d in unique.values()]
    if not runs:
        raise UserError("give at least one run directory")
    assign_labels(runs)
    return RunSet(runs)
