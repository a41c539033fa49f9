"""Report sections for the targeted test of one error and for what the final-answer grader can see
(seed 000 Table 24, Figure 4; Table 6, Figure 5)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from physbench.report.tables import DASH, Section, Table, pct
from physbench.suites.medphys.verify.detect import size_groups

SIZE_GROUPS = (("at_least_twice_band", "at least twice the band"), ("one_to_two_bands", "one to two bands"),
               ("below_band", "below the band"))


def targeted_section(rows: Sequence[Mapping[str, Any]] | None, note: str | None) -> Section:
    title = "Targeted test of one error"
    if not rows:
        return Section("targeted", title, note=note)

    def line(r: Mapping[str, Any]) -> list[str]:
        own, ws, rc = r["own"], r["worksheet"], r["result"]
        return [r["model"], ", ".join(r["modes"]), str(r["pairs"]), f"{own['correct']}/{own['n']}",
                str(own["with_error"]), f"{ws['detected']}/{ws['planted']}", str(ws["localized"]),
                f"{rc['detected']}/{rc['planted']}", f"{ws['false_alarms']}/{ws['correct']}",
                f"{rc['false_alarms']}/{rc['correct']} ({rc['false_alarms_with_error']})"]

    table = Table("Per parameter set, the model's own calculation (correct; with the planted error made, e.g. the "
                  "omitted correction), planted worksheets detected and localised, planted results detected, and "
                  "false alarms on the correct twins; in parentheses the result false alarms that proposed the "
                  "value with the planted error.",
                  ["model", "planted error", "sets", "own: correct", "own: with the error", "worksheet detected",
                   "localised", "result detected", "false alarms: worksheet", "result (with the error)"],
                  [line(r) for r in rows], [False, False] + [True] * 8)
    text = ("MedPhysBench paper, § 6.3 and Table 24: each parameter set gives a calculation, a planted worksheet and result "
            "and their correct twins, which share a pair id.")
    return Section("targeted", title, text, [table], figures=["targeted"])


def detectability_section(rows: Sequence[Mapping[str, Any]] | None, note: str | None) -> Section:
    title = "What a final-answer grader can see"
    if not rows:
        return Section("detectability", title, note=note)
    groups = size_groups(rows)

    def span(g: Mapping[str, Any]) -> str:
        if not g["n"]:
            return DASH
        return f"{pct(g['min_detected'], 0)}–{pct(g['max_detected'], 0)}"

    table = Table("Error modes at each level, grouped by their median effect on these items relative to the band: "
                  "how many, and the range of their shares rejected by the band, % (over the items on which the "
                  "mode changes the answer).", ["median effect", "modes × levels", "rejected %"],
                  [[words, str(groups[key]["n"]), span(groups[key])] for key, words in SIZE_GROUPS]
                  + [["never changes the answer here", str(groups["never_applicable"]["n"]), DASH]],
                  [False, True, True])
    text = ("Each named error mode applied to the calculation items of these runs (MedPhysBench paper, Figure 5 and Table 6, "
            "there on 500 draws per level; `physbench medphys verify` measures those). No model is involved.")
    return Section("detectability", title, text, [table], figures=["detectability"])
