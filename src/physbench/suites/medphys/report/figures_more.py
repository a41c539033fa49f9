"""More MedPhysBench figures: accuracy with the pairwise letters (seed 000 Figure 2a), Delta J (Figure 3c),
the targeted test (Figure 4), what the grader can see (Figure 5) and detection by error size (Table 20).

Measured estimates are filled markers with their 95% intervals as whiskers, as in figures.py.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report import figures as canvas
from physbench.stats import exact_proportion
from physbench.suites.medphys.report.analyses import SIZE_BINS

CATEGORY_COLOURS = {"conceptual": "#1f77b4", "convention": "#ff7f0e", "unit": "#2ca02c", "correction": "#d62728",
                    "arithmetic": "#9467bd"}
TARGETED_PARTS = (("own", "correct", "n", "own calculation correct"),
                  ("own", "with_error", "n", "own calculation with the error"),
                  ("worksheet", "detected", "planted", "planted worksheet detected"),
                  ("result", "detected", "planted", "planted result detected"),
                  ("worksheet", "false_alarms", "correct", "false alarm: correct worksheet"),
                  ("result", "false_alarms", "correct", "false alarm: correct result"))


def _whiskers(k: int, n: int) -> tuple[float, float, float]:
    """(value, minus, plus) in % of k/n with its exact 95% interval."""
    est = exact_proportion(k, n)
    return 100 * est.value, 100 * (est.value - est.lo), 100 * (est.hi - est.value)


def _plain_labels(ax: Any) -> None:
    for text in ax.get_xticklabels() + ax.get_yticklabels():
        text.set_parse_math(False)


def accuracy_letters(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Models in order of accuracy (y), accuracy with its exact interval (x), the compact letter beside each."""
    fig = canvas.figure(6.0, 0.9 + 0.4 * len(rows))
    ax = fig.add_subplot(1, 1, 1)
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        acc = 100 * r["accuracy"]
        ax.errorbar([acc], [y], xerr=[[acc - 100 * r["ci_low"]], [100 * r["ci_high"] - acc]], fmt="o",
                    color="#1f77b4", capsize=3)
        ax.text(104, y, r["letters"], va="center", ha="left", fontsize="small", parse_math=False)
    ax.set_yticks(ys, [canvas.label(r["model"]) for r in rows])
    _plain_labels(ax)
    ax.set_xlim(-2, 112)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("calculation accuracy (%); letters: not separated by the pairwise tests")
    ax.grid(axis="x", alpha=0.3)
    return canvas.png(fig)


def delta_j(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Delta J per model: the 95% MOVER interval (thick) inside the Bonferroni-adjusted one (thin)."""
    shown = [r for r in rows if r["delta_j"] and r["delta_j"]["value"] is not None]
    fig = canvas.figure(6.0, 0.9 + 0.4 * max(1, len(shown)))
    ax = fig.add_subplot(1, 1, 1)
    ys = list(range(len(shown)))[::-1]
    for y, r in zip(ys, shown):
        d, b = r["delta_j"], r["delta_j_bonferroni"] or {}
        if b.get("lo") is not None and b.get("hi") is not None:
            ax.plot([b["lo"], b["hi"]], [y, y], color="0.55", lw=1)
        ax.errorbar([d["value"]], [y], xerr=[[d["value"] - d["lo"]], [d["hi"] - d["value"]]], fmt="o",
                    color="#1f77b4", lw=2.5, capsize=0)
    ax.axvline(0.0, color="0.4", lw=0.8, ls="--")
    ax.set_yticks(ys, [canvas.label(r["model"]) for r in shown])
    _plain_labels(ax)
    ax.set_xlim(-1.05, 1.05)
    ax.set_ylim(-0.6, max(1, len(shown)) - 0.4)
    ax.set_xlabel("ΔJ = J(result) − J(worksheet): 95% CI (thick), Bonferroni CI (thin)")
    ax.grid(axis="x", alpha=0.3)
    return canvas.png(fig)


def targeted(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Per model (colour): each Table 24 share with its exact interval, one column per outcome."""
    fig = canvas.figure(7.0, 4.0)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.7 / max(1, len(rows))
    for i, (r, color) in enumerate(zip(rows, canvas.colors(len(rows)))):
        xs, vals, lo, hi = [], [], [], []
        for j, (part, k_key, n_key, _) in enumerate(TARGETED_PARTS):
            n = r[part][n_key]
            if not n:
                continue
            v, m, p = _whiskers(r[part][k_key], n)
            xs.append(j + (i - (len(rows) - 1) / 2) * width)
            vals, lo, hi = vals + [v], lo + [m], hi + [p]
        ax.errorbar(xs, vals, yerr=[lo, hi], fmt="o", color=color, capsize=2, label=canvas.label(r["model"]))
    ax.set_xticks(range(len(TARGETED_PARTS)), [t[3] for t in TARGETED_PARTS], rotation=30, ha="right",
                  fontsize="small")
    return canvas.percent_png(fig, ax, "share of parameter sets (%)")


def detectability(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Share rejected by the band (y) against the median effect in bands (x, log), colour by category."""
    measured = [r for r in rows if r["detected"] is not None]
    fig = canvas.figure(6.4, 4.0)
    ax = fig.add_subplot(1, 1, 1)
    for category, colour in CATEGORY_COLOURS.items():
        pts = [r for r in measured if r["category"] == category]
        if pts:
            ax.plot([max(r["median_effect"] / r["band"], 1e-2) for r in pts], [100 * r["detected"] for r in pts],
                    "o", color=colour, ms=4, alpha=0.8, label=category)
    for x in (1.0, 2.0):
        ax.axvline(x, color="0.5", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("median effect of the error on these items, in bands")
    return canvas.percent_png(fig, ax, "answers rejected by the band (%)", grid="both")


def detection_by_size(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Detection (y) per size bin (x), one series per model and format, with exact intervals."""
    fig = canvas.figure(max(5.0, 1.6 * len(SIZE_BINS) + 0.3 * len(rows)), 3.6)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.7 / max(1, len(rows))
    markers = {"worksheet": "o", "result": "s"}
    models = list(dict.fromkeys(r["model"] for r in rows))
    colors = dict(zip(models, canvas.colors(len(models))))
    for i, r in enumerate(rows):
        xs, vals, lo, hi = [], [], [], []
        for j, b in enumerate(SIZE_BINS):
            k, n = r["by_size"][b]["k"], r["by_size"][b]["n"]
            if n:
                v, m, p = _whiskers(k, n)
                xs.append(j + (i - (len(rows) - 1) / 2) * width)
                vals, lo, hi = vals + [v], lo + [m], hi + [p]
        ax.errorbar(xs, vals, yerr=[lo, hi], fmt=markers.get(r["format"], "o"), color=colors[r["model"]],
                    capsize=2, label=canvas.label(f"{r['model']}, {r['format']}"))
    ax.set_xticks(range(len(SIZE_BINS)), [f"moves the result {b}" for b in SIZE_BINS], fontsize="small")
    return canvas.percent_png(fig, ax, "planted errors detected (%)")
