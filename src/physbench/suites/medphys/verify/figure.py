"""Figure 5 of seed 000 from the verify data: detectability of every error mode against the size of
its error relative to the band, with the paper's Table 6 value beside each of ours."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from physbench.suites.medphys.verify.paper_table6 import paper_share

COLOURS = {"conceptual": "#1f77b4", "convention": "#ff7f0e", "unit": "#2ca02c", "correction": "#d62728",
           "arithmetic": "#9467bd"}
X_RANGE = (1e-2, 1e6)


def _x(row: dict[str, Any]) -> float:
    """Median effect in bands, kept inside the plotted range."""
    x = row["median_effect"] / row["band"]
    return min(max(x, X_RANGE[0]), X_RANGE[1])


def detectability_figure(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """Write the figure as a PNG to `path` (its folder is created) and return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measured = [r for r in rows if r["detected"] is not None]
    fig, ax = plt.subplots(figsize=(7.5, 4.6), dpi=120)
    ax.axvspan(X_RANGE[0], 1.0, color="0.93", zorder=0)
    for edge, label in ((1.0, "band"), (2.0, "2 × band")):
        ax.axvline(edge, color="0.55", lw=0.8, ls="--", zorder=1)
        ax.text(edge * 1.08, 3, label, color="0.4", fontsize=7, rotation=90, va="bottom")
    paper = [(_x(r), 100 * s) for r in measured
             if (s := paper_share(r["generator"], r["mode"], r["level"])) is not None]
    ax.scatter([p[0] for p in paper], [p[1] for p in paper], s=22, facecolors="none", edgecolors="0.45",
               linewidths=0.7, label="seed Table 6 (same mode, at our effect size)", zorder=2)
    for category, colour in COLOURS.items():
        sel = [r for r in measured if r["category"] == category]
        ax.scatter([_x(r) for r in sel], [100 * r["detected"] for r in sel], s=14, color=colour,
                   label=f"{category} ({len(sel)})", zorder=3)
    ax.set_xscale("log")
    ax.set_xlim(*X_RANGE)
    ax.set_ylim(-3, 103)
    ax.set_xlabel("median error of the mode's answer, in bands (applicable draws)")
    ax.set_ylabel("draws rejected by the grader (%)")
    ax.set_title(f"Error-mode detectability, {len(measured)} mode-level combinations", fontsize=10)
    ax.legend(fontsize=7, loc="lower right", frameon=False)
    ax.grid(True, which="major", lw=0.3, color="0.85")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, format="png", metadata={"Software": None})
    plt.close(fig)
    tmp.replace(path)
    return path
