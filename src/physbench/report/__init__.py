"""Reports built from run stores: the basic summary now; statistics, HTML and the viewer extend it."""

from physbench.report.markdown import render_markdown
from physbench.report.summary import summarise

__all__ = ["render_markdown", "summarise"]
