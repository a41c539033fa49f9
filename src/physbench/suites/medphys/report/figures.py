"""MedPhysBench figures: accuracy by level and the checking operating points (seed 000, Figures 2b
and 3), measured estimates as filled markers with their exact 95% intervals as whiskers; the others
(letters, Delta J, targeted test, detectability, error size) are drawn in figures_more.py."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report import figures as canvas
from physbench.suites.medphys.report import figures_more as more

CAPTIONS = {
    "accuracy_by_level": "Calculation accuracy by level with exact 95% intervals, one series per model.",
    "operating_points": "Detection against false alarms per model and format (filled circle: worksheet check, "
                        "open square: result check), with exact 95% intervals; the diagonal is J = 0.",
    "accuracy_letters": "Calculation accuracy with exact 95% intervals, models in order; models that share a "
                        "letter are not separated by the exact McNemar tests with Holm's adjustment.",
    "delta_j": "ΔJ = J(result) − J(worksheet) per model on the paired draws: MOVER 95% interval (thick) and "
               "with a Bonferroni adjustment over the models (thin); the dashed line is no change.",
    "targeted": "Targeted test of one error: own calculations correct or with the planted error, planted "
                "worksheets and results detected, false alarms on their correct twins, % with exact 95% intervals.",
    "detectability": "Share of each named error mode's answers on these calculation items that the band rejects, "
                     "against the mode's median effect in bands (log scale), one point per mode and level; dashed "
                     "lines at one and two bands.",
    "detection_by_size": "Planted errors detected by how far they move the final result, per model and format "
                         "(circle: worksheet, square: result), with exact 95% intervals.",
}


def accuracy_by_level(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Points with error bars: x = level (models side by side), y = accuracy in %."""
    models = list(dict.fromkeys(r["model"] for r in rows))
    levels = sorted({r["level"] for r in rows})
    fig = canvas.figure(max(5.0, 1.4 * len(levels) + 0.25 * len(models)), 3.6)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.6 / max(1, len(models))
    for i, (model, color) in enumerate(zip(models, canvas.colors(len(models)))):
        pts = [r for r in rows if r["model"] == model and r["accuracy"] is not None]
        xs = [levels.index(r["level"]) + (i - (len(models) - 1) / 2) * width for r in pts]
        ys = [100 * r["accuracy"] for r in pts]
        lo = [100 * (r["accuracy"] - r["ci_low"]) for r in pts]
        hi = [100 * (r["ci_high"] - r["accuracy"]) for r in pts]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", color=color, capsize=3, label=canvas.label(model))
    ax.set_xticks(range(len(levels)), [f"level {lv}" for lv in levels])
    return canvas.percent_png(fig, ax, "calculation accuracy (%)")


def operating_points(rows: Sequence[Mapping[str, Any]]) -> bytes:
    """Detection (y) against false alarms (x), per model (colour) and format (marker)."""
    models = list(dict.fromkeys(r["model"] for r in rows))
    colors = dict(zip(models, canvas.colors(len(models))))
    fig = canvas.figure(5.2, 4.6)
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
        ax.plot([], [], "o", color=colors[model], label=canvas.label(model))
    for fmt, marker in markers.items():
        ax.plot([], [], marker, color="0.3", label=f"{fmt} check", **styles[fmt])
    ax.set_xlim(-2, 102)
    ax.set_xlabel("false alarms on correct calculations (%)")
    return canvas.percent_png(fig, ax, "planted errors detected (%)", grid="both")


def medphys_figures(med: Mapping[str, Any]) -> dict[str, bytes]:
    """The figures whose data the medphys analyses hold, as PNG bytes by key."""
    out: dict[str, bytes] = {}
    acc = med.get("accuracy")
    if acc and acc.get("by_level"):
        out["accuracy_by_level"] = accuracy_by_level(acc["by_level"])
    if med.get("checking"):
        out["operating_points"] = operating_points(med["checking"])
    if med.get("letters"):
        out["accuracy_letters"] = more.accuracy_letters(med["letters"])
    if any(r.get("delta_j") and r["delta_j"]["value"] is not None for r in med.get("formats") or []):
        out["delta_j"] = more.delta_j(med["formats"])
    if med.get("targeted"):
        out["targeted"] = more.targeted(med["targeted"])
    if any(r["detected"] is not None for r in med.get("detectability") or []):
        out["detectability"] = more.detectability(med["detectability"])
    if med.get("kinds_sizes"):
        out["detection_by_size"] = more.detection_by_size(med["kinds_sizes"])
    return out
