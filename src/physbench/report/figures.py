"""Figures of the full report, drawn with matplotlib's Agg canvas (no display, no global pyplot state).

Measured estimates are filled markers with their exact 95% intervals as whiskers (seed 000,
Figures 2b and 3). Text from runs (model labels) is drawn literally, never parsed as mathtext.
"""

from __future__ import annotations

import io
from typing import Any, Mapping, Sequence

CAPTIONS = {
    "accuracy_by_level": "Calculation accuracy by level with exact 95% intervals, one series per model.",
    "operating_points": "Detection against false alarms per model and format (filled circle: worksheet check, "
                        "open square: result check), with exact 95% intervals; the diagonal is J = 0.",
}
_MAX_SERIES_LABEL = 40


def _label(text: str) -> str:
    return text if len(text) <= _MAX_SERIES_LABEL else text[: _MAX_SERIES_LABEL - 1] + "…"


def _legend(ax: Any) -> None:
    """A legend beside the axes whose entries are plain text (a "$" in a model label is not mathtext)."""
    legend = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    for text in legend.get_texts():
        text.set_parse_math(False)


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def _colors(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def accuracy_by_level(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Points with error bars: x = level (models side by side), y = accuracy in %."""
    models = list(dict.fromkeys(r["model"] for r in rows))
    levels = sorted({r["level"] for r in rows})
    fig = _figure(max(5.0, 1.4 * len(levels) + 0.25 * len(models)), 3.6)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.6 / max(1, len(models))
    for i, (model, color) in enumerate(zip(models, _colors(len(models)))):
        pts = [r for r in rows if r["model"] == model and r["accuracy"] is not None]
        xs = [levels.index(r["level"]) + (i - (len(models) - 1) / 2) * width for r in pts]
        ys = [100 * r["accuracy"] for r in pts]
        lo = [100 * (r["accuracy"] - r["ci_low"]) for r in pts]
        hi = [100 * (r["ci_high"] - r["accuracy"]) for r in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", color=color, capsize=3, label=_label(model))
    ax.set_xticks(range(len(levels)), [f"level {lv}" for lv in levels])
    ax.set_ylim(-2, 102)
    ax.set_ylabel("calculation accuracy (%)")
    ax.grid(axis="y", alpha=0.3)
    _legend(ax)
    return _png(fig)


def operating_points(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Detection (y) against false alarms (x), per model (colour) and format (marker)."""
    models = list(dict.fromkeys(r["model"] for r in rows))
    colors = dict(zip(models, _colors(len(models))))
    fig = _figure(5.2, 4.6)
    ax = fig.add_subplot(1, 1, 1)
    ax.plot([0, 100], [0, 100], color="0.6", lw=0.8, ls="--")
    markers = {"worksheet": "o", "result": "s"}
    styles = {"worksheet": {"ms": 6}, "result": {"ms": 9, "mfc": "none", "mew": 1.5}}  # both visible when equal
    for r in rows:
        det, fa = r["detection"], r["false_alarms"]
        if det["value"] is None or fa["value"] is None:
            continue
        x, y = 100 * fa["value"], 100 * det["value"]
        ax.errorbar([x], [y], xerr=[[x - 100 * fa["lo"]], [100 * fa["hi"] - x]],
                    yerr=[[y - 100 * det["lo"]], [100 * det["hi"] - y]], fmt=markers.get(r["format"], "o"),
                    color=colors[r["model"]], capsize=2, lw=0.8, **styles.get(r["format"], {}))
    for model in models:
        ax.plot([], [], "o", color=colors[model], label=_label(model))
    for fmt, marker in markers.items():
        ax.plot([], [], marker, color="0.3", label=f"{fmt} check", **styles[fmt])
    ax.set_xlim(-2, 102)
    ax.set_ylim(-2, 102)
    ax.set_xlabel("false alarms on correct calculations (%)")
    ax.set_ylabel("planted errors detected (%)")
    ax.grid(alpha=0.3)
    _legend(ax)
    return _png(fig)


def make_figures(analyses: Mapping[str, Any]) -> dict[str, bytes]:
    """The figures whose data the analyses hold, as PNG bytes by key."""
    med = analyses.get("medphys") or {}
    out: dict[str, bytes] = {}
    acc = med.get("accuracy")
    if acc and acc.get("by_level"):
        out["accuracy_by_level"] = accuracy_by_level(acc["by_level"])
    if med.get("checking"):
        out["operating_points"] = operating_points(med["checking"])
    return out
