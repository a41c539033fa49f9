"""The basic report as Markdown: one section per run, accuracy tables by kind and by group."""

from __future__ import annotations

from typing import Any, Sequence


def percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def interval_text(cell: dict[str, Any]) -> str:
    """'97.3 (92.4–99.4)': accuracy and exact 95% interval in percent."""
    if cell.get("accuracy") is None:
        return "–"
    return f"{percent(cell['accuracy'])} ({percent(cell['ci_low'])}–{percent(cell['ci_high'])})"


def _table(title: str, cells: Sequence[dict[str, Any]]) -> list[str]:
    if not cells:
        return []
    lines = [f"**{title}**", "", f"| {title.split()[-1]} | n | correct | accuracy % (95% CI) |", "|---|---:|---:|---|"]
    lines += [f"| {c['name']} | {c['n']} | {c['n_correct']} | {interval_text(c)} |" for c in cells]
    return lines + [""]


def run_section(s: dict[str, Any]) -> list[str]:
    lines = [f"## {s['suite']} ({s['split']}) × {s['model']}", "",
             f"run `{s['run_id']}` in `{s['run_dir']}`, protocol {s['protocol']}, started {s['started_at']}, "
             f"physbench {s['package_version']}" + (f" at {s['git_revision'][:12]}" if s.get("git_revision") else ""),
             "",
             f"- accuracy: **{interval_text(s)}** % — {s['n_correct']} of {s['n_done']} graded "
             f"({s['n_attempts']} planned: {s['n_items']} items × {s['repeats']} repeats)"]
    if s["n_errors"]:
        lines.append(f"- {s['n_errors']} attempts without a response (re-run the same command to retry them)")
    outcomes = ", ".join(f"{k} {v}" for k, v in s["outcomes"].items() if v)
    lines.append(f"- outcomes: {outcomes or 'none'}")
    t = s["tokens"]
    lines.append(f"- tokens: {t['prompt']:,} prompt, {t['completion']:,} completion"
                 + (f"; cost {s['cost_usd']:.4f} USD" if s.get("cost_usd") is not None else ""))
    lines.append("")
    lines += _table("Accuracy by kind", s["by_kind"])
    lines += _table("Accuracy by group", s["by_group"])
    if s["errors"]:
        lines += ["**Most frequent errors**", ""] + [f"- {e['count']} × {e['error']}" for e in s["errors"]] + [""]
    return lines


def render_markdown(summaries: Sequence[dict[str, Any]]) -> str:
    """The whole report: an overview table, then a section per run."""
    lines = ["# physbench report", "", "| run | suite | split | model | graded | accuracy % (95% CI) |",
             "|---|---|---|---|---:|---|"]
    lines += [f"| {s['run_id']} | {s['suite']} | {s['split']} | {s['model']} | {s['n_done']}/{s['n_attempts']} | "
              f"{interval_text(s)} |" for s in summaries]
    lines.append("")
    for s in summaries:
        lines += run_section(s)
    return "\n".join(lines).rstrip() + "\n"
