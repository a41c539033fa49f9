"""MedPhysBench analyses of calculation accuracy and checking (seed 000 "Results", "Checking").

Accuracy per model overall, per level and per generator x level (Table 2, Figure 2); the checking
table per format (Table 9); detection, false alarms and Youden's J per format; the share of real
alarms at a 1% error rate with the conservative one-sided bounds (Section F); detection by kind and
size of the planted error (Tables 19, 20).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from physbench.grading.types import FAILED
from physbench.report.generic import finite_or_none, flagged, pairwise, passed
from physbench.report.summary import accuracy_cell
from physbench.stats import exact_proportion, real_alarms, youden
from physbench.suites.medphys.reference import reference_of

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

SUITE = "medphys"
CHECK_KINDS = ("worksheet_check", "result_check")
PREVALENCE = 0.01  # the hypothetical share of wrong calculations reaching a check (Section F, Table 21)
FORMATS = {"worksheet_check": "worksheet", "result_check": "result"}
ERROR_KINDS = ("omitted factor", "formula", "unit", "arithmetic")  # Table 19
SIZE_BINS = ("under 5%", "5–20%", "over 20%")  # Table 20
# responses that ended without an answer to grade: Table 2 gives accuracy on the others beside the full one
INCOMPLETE_OUTCOMES = frozenset({"blocked", "stopped_short", "truncated", FAILED})  # FAILED: no reply at all
# omissions whose mode name does not end in "_omitted": the PDD transfer to d_max (seed 000, Table 19)
OMITTED_FACTOR_MODES = frozenset({("tg51", "output_at_10cm")})


# --- matching the items of one draw -----------------------------------------------------------

def _id_tail(item_id: str) -> tuple[str, str, str] | None:
    """(generator, level tag, seed-or-tag[/variant]) of a medphys item id, without its kind tag."""
    parts = item_id.split("/")
    if len(parts) < 5 or parts[0] != SUITE:
        return None
    return parts[1], parts[2], "/".join(parts[4:])


def pair_key(item: "Item") -> str | None:
    """Key shared by the worksheet and result checks of one draw (and of its planted or correct twin)."""
    tail = _id_tail(item.id)
    return "/".join(tail) if tail else None


def draw_key(item: "Item") -> str | None:
    """Key shared by every item of one parameter draw: the calculation and its checks."""
    tail = _id_tail(item.id)
    if tail is None:
        return None
    rest = tail[2]
    for suffix in ("/planted", "/correct"):
        if rest.endswith(suffix):
            rest = rest[: -len(suffix)]
    return f"{tail[0]}/{tail[1]}/{rest}"


def generator_of(item: "Item") -> str:
    return str(item.meta.get("generator", "?"))


def level_of(item: "Item") -> int | None:
    level = item.meta.get("level")
    return level if isinstance(level, int) and not isinstance(level, bool) else None


def is_planted(item: "Item") -> bool:
    return bool(reference_of(item).planted)


def planted_meta(item: "Item") -> Mapping[str, Any]:
    p = item.meta.get("planted")
    return p if isinstance(p, Mapping) else {}


def error_kind(item: "Item") -> str:
    """Kind of the planted error as seed 000 Table 19 counts them: omitted factor, formula, unit, arithmetic."""
    p = planted_meta(item)
    mode, category = str(p.get("mode", "")), str(p.get("category", ""))
    if category == "arithmetic" or mode.startswith("slip:"):
        return "arithmetic"
    if category == "unit":
        return "unit"
    if mode.endswith("_omitted") or (generator_of(item), mode) in OMITTED_FACTOR_MODES:
        return "omitted factor"
    return "formula"


def size_bin(item: "Item") -> str | None:
    """How far the planted error moves the final result: under 5%, 5-20% or over 20% (Table 20)."""
    size = planted_meta(item).get("size")
    if not isinstance(size, (int, float)) or isinstance(size, bool) or not math.isfinite(size):
        return None
    s = abs(size)
    return SIZE_BINS[0] if s < 0.05 else SIZE_BINS[1] if s <= 0.20 else SIZE_BINS[2]


def of_kind(run: "RunData", kind: str) -> dict[str, "Result"]:
    return {k: r for k, r in run.responses().items() if r.item.kind == kind}


# --- estimates as JSON ------------------------------------------------------------------------

def proportion(k: int, n: int) -> dict[str, Any]:
    """{k, n, value, lo, hi}: k/n with its exact 95% interval; value and bounds None for n = 0."""
    if n == 0:
        return {"k": k, "n": n, "value": None, "lo": None, "hi": None}
    est = exact_proportion(k, n)
    return {"k": k, "n": n, "value": est.value, "lo": est.lo, "hi": est.hi}


def diff_json(d: Iterable[float] | None) -> dict[str, Any] | None:
    if d is None:
        return None
    value, lo, hi = d
    return {"value": finite_or_none(value), "lo": finite_or_none(lo), "hi": finite_or_none(hi)}


# --- calculation accuracy ---------------------------------------------------------------------

def _cell(name: str, rs: Sequence["Result"]) -> dict[str, Any]:
    return accuracy_cell(name, len(rs), sum(passed(r) for r in rs))


def completed(r: "Result") -> bool:
    """The response ended with something to grade: not blocked, stopped short or truncated (seed 000 § 6.4)."""
    return r.grade is not None and r.grade.outcome not in INCOMPLETE_OUTCOMES


def accuracy(models: Sequence["RunData"]) -> dict[str, Any]:
    """Calculation accuracy with exact intervals: overall, on completed responses only, per level,
    per generator x level."""
    overall, on_completed, by_level, by_cell = [], [], [], []
    for run in models:
        calc = list(of_kind(run, "calculation").values())
        if not calc:
            continue
        overall.append({"model": run.label, **_cell("all", calc)})
        on_completed.append({"model": run.label, **_cell("completed", [r for r in calc if completed(r)])})
        levels = sorted({lv for r in calc if (lv := level_of(r.item)) is not None})
        for level in levels:
            rs = [r for r in calc if level_of(r.item) == level]
            by_level.append({"model": run.label, "level": level, **_cell(f"L{level}", rs)})
        cells = sorted({(generator_of(r.item), level_of(r.item) or 0) for r in calc})
        for gen, level in cells:
            rs = [r for r in calc if generator_of(r.item) == gen and (level_of(r.item) or 0) == level]
            by_cell.append({"model": run.label, "generator": gen, "level": level, **_cell(f"{gen}/L{level}", rs)})
    return {"overall": overall, "completed": on_completed, "by_level": by_level, "by_cell": by_cell}


# --- checking ---------------------------------------------------------------------------------

def check_counts(responses: Iterable["Result"]) -> dict[str, dict[str, int]]:
    """Seed 000 Table 9 for one format: planted (n, flagged, localised, corrected, none), correct (n, accepted, flagged, none)."""
    planted = {"n": 0, "flagged": 0, "localized": 0, "corrected": 0, "none": 0}
    correct = {"n": 0, "accepted": 0, "flagged": 0, "none": 0}
    for r in responses:
        g = r.grade
        verdict = g.verdict if g else None
        if is_planted(r.item):
            planted["n"] += 1
            planted["flagged"] += flagged(r)
            planted["localized"] += bool(g and g.localized)
            planted["corrected"] += bool(g and g.corrected_passed)
            planted["none"] += verdict is None
        else:
            correct["n"] += 1
            correct["flagged"] += flagged(r)
            correct["accepted"] += verdict == "correct"
            correct["none"] += verdict is None
    return {"planted": planted, "correct": correct}


def rates(planted_k: int, planted_n: int, fa_k: int, fa_n: int) -> dict[str, Any]:
    """Detection and false alarms with exact intervals, J with Newcombe's interval, real alarms at 1%."""
    out: dict[str, Any] = {"detection": proportion(planted_k, planted_n), "false_alarms": proportion(fa_k, fa_n),
                           "j": None, "real_alarms": None}
    if planted_n and fa_n:
        out["j"] = diff_json(youden(planted_k, planted_n, fa_k, fa_n))
        ra = real_alarms(PREVALENCE, planted_k, planted_n, fa_k, fa_n)
        out["real_alarms"] = {"prevalence": PREVALENCE, "share": finite_or_none(ra.share),
                              "lower": finite_or_none(ra.lower), "upper": finite_or_none(ra.upper)}
    return out


def checking(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """One row per model and format: Table 9's counts, then detection, false alarms, J and real alarms."""
    rows = []
    for run in models:
        for kind, fmt in FORMATS.items():
            rs = list(of_kind(run, kind).values())
            if not rs:
                continue
            counts = check_counts(rs)
            p, c = counts["planted"], counts["correct"]
            rows.append({"model": run.label, "format": fmt, "kind": kind, **counts,
                         **rates(p["flagged"], p["n"], c["flagged"], c["n"]),
                         "j_verdict": verdict_j(p, c)})
    return rows


def verdict_j(planted: Mapping[str, int], correct: Mapping[str, int]) -> dict[str, Any]:
    """J over the responses with a verdict only (seed 000 "Checking": a check without one leaves both
    denominators), with the counts it uses; J is None while either side has no verdict."""
    p_n, c_n = planted["n"] - planted["none"], correct["n"] - correct["none"]
    j = diff_json(youden(planted["flagged"], p_n, correct["flagged"], c_n)) if p_n and c_n else None
    return {"planted_n": p_n, "correct_n": c_n, "j": j}


def kinds_and_sizes(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Detection of planted errors by kind (Table 19) and by size (Table 20), per model and format."""
    rows = []
    for run in models:
        for kind, fmt in FORMATS.items():
            planted_rs = [r for r in of_kind(run, kind).values() if is_planted(r.item)]
            if not planted_rs:
                continue
            by_kind = {k: [0, 0] for k in ERROR_KINDS}
            by_size = {b: [0, 0] for b in SIZE_BINS}
            for r in planted_rs:
                by_kind[error_kind(r.item)][0] += flagged(r)
                by_kind[error_kind(r.item)][1] += 1
                b = size_bin(r.item)
                if b is not None:
                    by_size[b][0] += flagged(r)
                    by_size[b][1] += 1
            rows.append({"model": run.label, "format": fmt,
                         "by_kind": {k: {"k": v[0], "n": v[1]} for k, v in by_kind.items()},
                         "by_size": {b: {"k": v[0], "n": v[1]} for b, v in by_size.items()}})
    return rows


def scores(models: Sequence["RunData"], acc: Mapping[str, Any], checks: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Seed 000 Table 2: calculation accuracy (exact CI), level 3, and per format detection, false alarms, J; cost."""
    overall = {row["model"]: row for row in acc["overall"]}
    level3 = {row["model"]: row for row in acc["by_level"] if row["level"] == 3}
    rows = []
    for run in models:
        row: dict[str, Any] = {"model": run.label, "calculation": overall.get(run.label),
                               "level3": level3.get(run.label), "cost_usd": run.summary.get("cost_usd")}
        for check in checks:
            if check["model"] == run.label:
                row[check["format"]] = {"detection": check["detection"], "false_alarms": check["false_alarms"],
                                        "j": check["j"]}
        rows.append(row)
    return rows


def check_kinds_present(models: Sequence["RunData"]) -> bool:
    return any(r.item.kind in CHECK_KINDS for run in models for r in run.results)


def calculation_letters(models: Sequence["RunData"]) -> list[dict[str, Any]]:
    """Calculation accuracy per model with the compact letters of the pairwise McNemar-Holm tests, the
    same tests as the report's pairwise table (seed 000 Figure 2a); empty for fewer than two models."""
    outcomes = {run.label: {k: passed(r) for k, r in of_kind(run, "calculation").items()} for run in models}
    outcomes = {label: v for label, v in outcomes.items() if v}
    return pairwise(outcomes)["models"] if len(outcomes) >= 2 else []
