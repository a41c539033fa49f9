"""The planning report's figures, after OpenGray's Figures 2 and 3, from the suite's analyses.

Figure 2: (a) patient-weighted decision accuracy per run with its 95% patient-bootstrap interval;
(b) accuracy on each scored family. Figure 3: (a) every feasible-control attempt: submitted with
every hard goal met, submitted with one unmet, not submitted; (b) decisions on the overlap
contradictions; (c) the share of attempts escalated on each overlap task, tasks ordered by the
certificate's count margin O - (m + n).
"""

from __future__ import annotations

from typing import Any, Mapping

from physbench.report.figures import colors, figure, label, legend, percent_png, png

CAPTIONS = {
    "planning_fig2": "Decision accuracy (after OpenGray Fig. 2): (a) patient-weighted over the four scored "
                     "families, (b) each scored family; bars are patient means, error bars 95% patient-bootstrap "
                     "intervals; failed attempts count as no credit.",
    "planning_fig3": "Feasible controls and overlap contradictions (after OpenGray Fig. 3): (a) every feasible-control "
                     "attempt by outcome, (b) decisions on overlap tasks, (c) share of attempts escalated on each "
                     "overlap task, ordered by the certificate's count margin.",
}


def _legend_below(ax: Any) -> None:
    """A legend under the axes and under their tick labels, however long the (rotated) labels are (the
    panels sit side by side), its text never parsed as mathtext."""
    renderer = ax.figure.canvas.get_renderer()
    ticks = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    lowest = min([b.y0 for b in ticks] or [ax.get_window_extent(renderer).y0])
    y = ax.transAxes.inverted().transform((0.0, lowest))[1] - 0.03
    box = ax.legend(loc="upper center", bbox_to_anchor=(0.5, y), fontsize="x-small", frameon=False, ncol=2)
    for text in box.get_texts():
        text.set_parse_math(False)


def _bar(ax: Any, x: float, e: Mapping[str, Any] | None, width: float, color: Any, name: str | None) -> None:
    if not e or e.get("value") is None:
        return
    lo, hi = e.get("lo"), e.get("hi")
    err = None if lo is None or hi is None else [[e["value"] - lo], [hi - e["value"]]]
    ax.bar([x], [e["value"]], width, yerr=err, color=color, capsize=3, label=name)


def figure2(runs: list[Mapping[str, Any]]) -> bytes | None:
    runs = [r for r in runs if r.get("table_s10")]
    if not runs:
        return None
    families = list(dict.fromkeys(f for r in runs for f in r["table_s10"]["families"]))
    fig = figure(10.0, 3.6)
    a, b = fig.add_subplot(1, 3, 1), fig.add_subplot(1, 3, (2, 3))
    col, w = colors(len(runs)), 0.8 / len(runs)
    for i, r in enumerate(runs):
        _bar(a, i, r["table_s10"]["primary"], 0.7, col[i], None)
        for j, f in enumerate(families):
            _bar(b, j + (i - (len(runs) - 1) / 2) * w, r["table_s10"]["families"].get(f), w, col[i],
                 label(r["model"]) if j == 0 else None)
    a.set_xticks(range(len(runs)), [label(r["model"]) for r in runs], rotation=30, ha="right", fontsize="small")
    a.set_title("(a) patient-weighted", fontsize="medium")
    a.set_ylim(-2, 102)
    a.set_ylabel("decision accuracy (%)")
    b.set_xticks(range(len(families)), [f.replace("_", " ") for f in families], fontsize="small")
    b.set_title("(b) by scored family", fontsize="medium")
    return percent_png(fig, b, "")


def figure3(runs: list[Mapping[str, Any]], s11: Mapping[str, Any] | None) -> bytes | None:
    feasible = [(r["model"], r["dose"]["attempts"]["feasible_control"]) for r in runs
                if r.get("dose", {}).get("attempts", {}).get("feasible_control", {}).get("eligible")]
    overlap = [(r["model"], r["dose"]["final_decisions"]["overlap"]) for r in runs
               if "overlap" in r.get("dose", {}).get("final_decisions", {})]
    if not feasible and not overlap:
        return None
    fig = figure(12.0, 3.6)
    a, b, c = (fig.add_subplot(1, 3, k) for k in (1, 2, 3))
    fig.subplots_adjust(wspace=0.3)
    parts = (("every hard goal met", "#2a9d8f"), ("a hard goal unmet", "#e9c46a"), ("not submitted", "#bbbbbb"))
    for i, (_m, acc) in enumerate(feasible):
        counts = [acc["all_hard_goals"], acc["submitted"] - acc["all_hard_goals"], acc["eligible"] - acc["submitted"]]
        bottom = 0
        for (name, color), n in zip(parts, counts):
            a.bar([i], [n], 0.6, bottom=bottom, color=color, label=name if i == 0 else None)
            bottom += n
    a.set_xticks(range(len(feasible)), [label(m) for m, _ in feasible], rotation=30, ha="right", fontsize="small")
    a.set_title("(a) feasible-control attempts", fontsize="medium")
    a.set_ylabel("attempts")
    if feasible:
        _legend_below(a)
    kinds = (("escalated", "#264653"), ("submitted", "#e76f51"), ("no_decision", "#bbbbbb"), ("technical_failure", "#999999"))
    for i, (_m, d) in enumerate(overlap):
        bottom = 0
        for name, color in kinds:
            b.bar([i], [d.get(name, 0)], 0.6, bottom=bottom, color=color, label=name.replace("_", " ") if i == 0 else None)
            bottom += d.get(name, 0)
    b.set_xticks(range(len(overlap)), [label(m) for m, _ in overlap], rotation=30, ha="right", fontsize="small")
    b.set_title("(b) overlap decisions", fontsize="medium")
    if overlap:
        _legend_below(b)
    rows = sorted(((int(r[4]), r[0], r[5:]) for r in (s11 or {}).get("rows", []) if str(r[4]).lstrip("-").isdigit()))
    models = (s11 or {}).get("header", [])[5:]
    col, w = colors(max(1, len(models))), 0.8 / max(1, len(models))
    for k, name in enumerate(models):
        shares = []
        for _margin, _patient, decisions in rows:
            seen = [x.strip() for x in decisions[k].split(",") if x.strip() not in ("", "–")]
            shares.append(100.0 * sum(x == "escalated" for x in seen) / len(seen) if seen else 0.0)
        c.bar([j + (k - (len(models) - 1) / 2) * w for j in range(len(rows))], shares, w, color=col[k], label=label(name))
    c.set_xticks(range(len(rows)), [f"{p} ({m})" for m, p, _ in rows], fontsize="x-small", rotation=45, ha="right")
    c.set_title("(c) escalated per overlap task (count margin)", fontsize="medium")
    c.set_ylim(-2, 102)
    if models:
        legend(c)
    return png(fig)


def planning_figures(analyses: Mapping[str, Any]) -> dict[str, bytes]:
    runs = list(analyses.get("runs") or [])
    out = {}
    for key, data in (("planning_fig2", figure2(runs)), ("planning_fig3", figure3(runs, analyses.get("table_s11")))):
        if data is not None:
            out[key] = data
    return out
