"""Reports as Markdown: the basic per-run summary, and the full report from its sections."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from physbench.report.tables import plural

if TYPE_CHECKING:
    from physbench.report.tables import Section, Table


def percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def interval_text(cell: dict[str, Any]) -> str:
    """'97.3 (92.4–99.4)': accuracy and exact 95% interval in percent."""
    if cell.get("accuracy") is None:
        return "–"
    return f"{percent(cell['accuracy'])} ({percent(cell['ci_low'])}–{percent(cell['ci_high'])})"


def scored_text(s: Mapping[str, Any]) -> str:
    """'8 attempts (5 graded, 3 without a reply: no credit)': the accuracy's denominator, failures named."""
    n_failed = s.get("n_failed", 0)
    graded = s["n_done"] - s.get("n_ungraded", 0)
    scored = s.get("n_scored", graded)
    if not n_failed:
        return f"{plural(graded, 'response')} graded"
    return (f"{plural(scored, 'attempt')} ({graded} graded, {n_failed} without a reply after its retries: "
            "no credit)")


def _table(title: str, cells: Sequence[dict[str, Any]]) -> list[str]:
    if not cells:
        return []
    lines = [f"**{title}**", "", f"| {title.split()[-1]} | n | correct | accuracy % (95% CI) |", "|---|---:|---:|---|"]
    lines += [f"| {md_cell(c['name'])} | {c['n']} | {c['n_correct']} | {interval_text(c)} |" for c in cells]
    return lines + [""]


def run_section(s: dict[str, Any]) -> list[str]:
    lines = [f"## {md_cell(s['suite'])} ({md_cell(s['split'])}) × {md_cell(s['model'])}", "",
             f"run `{s['run_id']}` in `{s['run_dir']}`, protocol {s['protocol']}, started {s['started_at']}, "
             f"physbench {s['package_version']}" + (f" at {s['git_revision'][:12]}" if s.get("git_revision") else ""),
             "",
             f"- accuracy: **{interval_text(s)}** %: {s['n_correct']} correct of {scored_text(s)} "
             f"({s['n_attempts']} planned: {plural(s['n_items'], 'item')} × {plural(s['repeats'], 'repeat')})"
             + (f"; {s['n_ungraded']} ungraded (answer not known here)" if s.get("n_ungraded") else "")]
    outcomes = ", ".join(f"{k} {v}" for k, v in s["outcomes"].items() if v)
    lines.append(f"- outcomes: {outcomes or 'none'}")
    from physbench.report.summary import tokens_text

    lines.append(f"- tokens: {tokens_text(s)}")
    lines.append("")
    lines += _table("Accuracy by kind", s["by_kind"])
    lines += _table("Accuracy by group", s["by_group"])
    if s["errors"]:
        lines += ["**Most frequent errors**", ""]
        lines += [f"- {e['count']} × {md_cell(e['error'])}" for e in s["errors"]] + [""]
    return lines


def render_markdown(summaries: Sequence[dict[str, Any]]) -> str:
    """The whole report: an overview table, then a section per run."""
    lines = ["# physbench report", "", "| run | suite | split | model | graded | accuracy % (95% CI) |",
             "|---|---|---|---|---:|---|"]
    lines += [f"| {md_cell(s['run_id'])} | {md_cell(s['suite'])} | {md_cell(s['split'])} | {md_cell(s['model'])} | "
              f"{s['n_done']}/{s['n_attempts']}"
              f"{' (' + str(s['n_failed']) + ' failed)' if s.get('n_failed') else ''} | "
              f"{interval_text(s)} |" for s in summaries]
    lines.append("")
    for s in summaries:
        lines += run_section(s)
    return "\n".join(lines).rstrip() + "\n"


# --- the full report --------------------------------------------------------------------------

# Text in a report can come from a model or a server (error messages, answers, labels): none of it
# may become a link, an image that loads, or raw HTML. Brackets are escaped (no `[c](javascript:...)`,
# `![t](http://...)` or `[r]: url` definitions), each with the backslashes before it doubled so that
# an escape in the text cannot undo ours; `<` and `>` become entities (no autolinks, no tags).
_BRACKET = re.compile(r"(\\*)([\[\]])")


def _no_html(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


def inert(text: str) -> str:
    """`text` as Markdown that renders as the same characters and holds no link, image or HTML."""
    return _no_html(_BRACKET.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), text))


def md_cell(text: object) -> str:
    """A table cell as Markdown: one line, every backslash, pipe and bracket escaped, no raw HTML."""
    s = " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())
    s = s.replace("\\", "\\\\").replace("|", "\\|").replace("[", "\\[").replace("]", "\\]")
    return _no_html(s) or " "


def md_text(text: str) -> str:
    """Running text as Markdown lines, with no link, image or raw HTML."""
    return inert(text)


def md_table(table: "Table") -> list[str]:
    """A table as Markdown; one without rows is its caption and 'none', never a header alone."""
    if not table.rows:
        return [f"*{md_cell(table.caption)}* None.", ""]
    lines = [f"*{md_cell(table.caption)}*", "", "| " + " | ".join(md_cell(h) for h in table.header) + " |",
             "|" + "|".join("---:" if num else "---" for num in table.numeric) + "|"]
    lines += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in table.rows]
    return lines + [""]


def render_document(sections: Sequence["Section"], figure_files: Mapping[str, str] | None = None,
                    captions: Mapping[str, str] | None = None) -> str:
    """The full report as Markdown; figures link to `figure_files` (key -> relative path) when given."""
    captions = captions or {}
    lines = ["# physbench report", ""]
    for section in sections:
        lines += [f"{'#' * section.level} {md_cell(section.title)}", ""]
        if section.note:
            lines += [f"_{md_cell(section.note)}_", ""]
            continue
        if section.text:
            lines += [md_text(line) for line in section.text.splitlines()] + [""]
        for table in section.tables:
            lines += md_table(table)
        for key in section.figures:
            if figure_files and key in figure_files:
                lines += [f"![{captions.get(key, key)}]({figure_files[key]})", ""]
            else:
                lines += [f"_Figure ({captions.get(key, key)}) in report.html; write it with `--out DIR`._", ""]
    return "\n".join(lines).rstrip() + "\n"
