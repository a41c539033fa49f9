"""Figures of the full report, drawn with matplotlib's Agg canvas (no display, no global pyplot state).

The helpers here (canvas, PNG, colours, a plain-text legend) are shared by the figures each suite
draws for its own analyses. Text from runs (model labels) is drawn literally, never parsed as
mathtext.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:
    from physbench.report.registry import SuiteReport

_MAX_SERIES_LABEL = 40


def label(text: str) -> str:
    return text if len(text) <= _MAX_SERIES_LABEL else text[: _MAX_SERIES_LABEL - 1] + "…"


def legend(ax: Any) -> None:
    """A legend beside the axes whose entries are plain text (a "$" in a model label is not mathtext)."""
    box = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    for text in box.get_texts():
        text.set_parse_math(False)


def figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def percent_png(fig: Any, ax: Any, ylabel: str, *, grid: str = "y") -> bytes:
    """Finish a plot whose y axis is a percentage (0-100 with a margin): label, grid, legend, PNG."""
    ax.set_ylim(-2, 102)
    ax.set_ylabel(ylabel)
    ax.grid(axis=grid, alpha=0.3)
    legend(ax)
    return png(fig)


def colors(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def make_figures(analyses: Mapping[str, Any], reports: Sequence["SuiteReport"] = ()) -> dict[str, bytes]:
    """The figures whose data the analyses hold, as PNG bytes by key: each suite draws its own."""
    out: dict[str, bytes] = {}
    for rep in reports:
        data = analyses.get(rep.suite)
        if data and rep.figures is not None:
            out.update(rep.figures(data))
    return out


def captions(reports: Sequence["SuiteReport"] = ()) -> dict[str, str]:
    """Every figure's caption, by key."""
    out: dict[str, str] = {}
    for rep in reports:
        out.update(rep.captions)
    return out
