"""Accuracy broken down by a key a suite chooses (a checkpoint, a calculator's audit group, a task
family), with exact 95% intervals per model: the table most suite reports start from."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from physbench.report.summary import accuracy_cell
from physbench.report.tables import Section, Table, pct_ci

if TYPE_CHECKING:
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

Key = Callable[["Result"], Iterable[tuple[str, bool]]]  # (key, correct) pairs one response counts for


def accuracy_by(models: Sequence["RunData"], key: Key) -> list[dict[str, Any]]:
    """[{model, name, n, n_correct, accuracy, ci_low, ci_high}] per model and key, keys sorted."""
    out = []
    for run in models:
        n: Counter[str] = Counter()
        k: Counter[str] = Counter()
        for r in run.results:
            for name, correct in key(r):
                n[name] += 1
                k[name] += int(correct)
        out += [{"model": run.label, **accuracy_cell(name, n[name], k[name])} for name in sorted(n)]
    return out


FEW = 10  # below this many items a cell shows the count alone: its 95% interval spans most of 0-100 %


def share_cell(c: Mapping[str, Any]) -> str:
    """'12/20: 60.0 (36.1–80.9)', or just '0/1' for a cell of fewer than FEW items."""
    count = f"{c['n_correct']}/{c['n']}"
    return count if c["n"] < FEW else f"{count}: {pct_ci(c['accuracy'], c['ci_low'], c['ci_high'])}"


def accuracy_table(caption: str, column: str, rows: Sequence[dict[str, Any]]) -> Table:
    """One row per key, one column per model: 'k/n: accuracy % (CI)' (k/n alone for a small cell)."""
    models = list(dict.fromkeys(r["model"] for r in rows))
    keys = list(dict.fromkeys(r["name"] for r in rows))
    cell = {(r["model"], r["name"]): r for r in rows}
    body = []
    for name in keys:
        line = [name]
        for m in models:
            c = cell.get((m, name))
            line.append("–" if c is None else share_cell(c))
        body.append(line)
    return Table(caption, [column, *models], body)


def accuracy_section(key: str, title: str, text: str, column: str, rows: Sequence[dict[str, Any]] | None,
                     note: str) -> Section:
    """A section holding one accuracy_table, or the note when there are no rows."""
    if not rows:
        return Section(key, title, note=note)
    return Section(key, title, text, [accuracy_table(title, column, rows)])
