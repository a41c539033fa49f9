"""Reports built from run stores: the per-run summary, the full report (analyses, Markdown, HTML,
figures: `physbench.report.document.report_for`) and the response viewer (`report.viewer`)."""

from physbench.report.markdown import render_markdown
from physbench.report.summary import summarise

__all__ = ["render_markdown", "summarise"]
