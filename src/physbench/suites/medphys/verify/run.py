"""`physbench medphys verify`: every check of the seed's verification, cell by cell, in parallel."""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

from physbench.suites.medphys.base import params_from_dict
from physbench.suites.medphys.generators import LEVELS, available_generators, get_generator
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.verify.bands import derive_band
from physbench.suites.medphys.verify.controls import constant_answer, item_controls
from physbench.suites.medphys.reference import reference_of
from physbench.suites.medphys.verify.detect import detectability, size_groups
from physbench.suites.medphys.verify.paper_table6 import SIZE_FINDING

AGREEMENT_BOUND = 1e-6


def _second_implementation() -> Callable[[str, int, str], tuple[float, str]] | None:
    try:
        from physbench.suites.medphys.verify.independent import solve_prompt
    except ModuleNotFoundError:
        return None
    return solve_prompt


def verify_cell(generator: str, level: int, draws: int) -> dict[str, Any]:
    """All checks of one generator and level."""
    from physbench.grading import convert

    gen = get_generator(generator)
    spec = gen.level(level)
    solve_prompt = _second_implementation()
    out: dict[str, Any] = {"generator": generator, "level": level, "draws": draws, "violations": 0,
                           "regenerated": 0, "max_rel_diff": 0.0, "compared": 0, "prompt_defects": [],
                           "controls": {}, "mode_failures": []}
    controls: dict[str, list[int]] = {}
    for seed in range(draws):
        item = calculation_item(generator, level, seed)
        out["regenerated"] += calculation_item(generator, level, seed).to_json() == item.to_json()
        p = params_from_dict(spec.params, item.params)
        out["violations"] += bool(spec.violations(p))
        for m in gen.modes_at(level):  # every mode computes at every level it claims
            try:
                error = None if math.isfinite(m.answer(level, p)) else "not finite"
            except Exception as exc:  # any failure of a mode is what we count
                error = f"{type(exc).__name__}: {exc}"
            if error and len(out["mode_failures"]) < 5:
                out["mode_failures"].append({"seed": seed, "mode": m.name, "error": error})
        if solve_prompt is not None:
            try:
                value, unit = solve_prompt(generator, level, item.user)
            except Exception as exc:  # a prompt the second implementation cannot read is a defect
                if len(out["prompt_defects"]) < 5:
                    out["prompt_defects"].append({"seed": seed, "defect": f"{type(exc).__name__}: {exc}"})
            else:
                ref_value, ref_unit = float(reference_of(item).value), reference_of(item).unit or ""  # type: ignore[arg-type]
                converted = convert(value, unit, ref_unit)
                diff = abs(converted / ref_value - 1.0) if converted is not None else float("inf")
                out["max_rel_diff"] = max(out["max_rel_diff"], diff)
                out["compared"] += 1
        for name, passed in item_controls(item).items():
            if passed is not None:
                tally = controls.setdefault(name, [0, 0])
                tally[0] += passed
                tally[1] += 1
    out["controls"] = {k: {"passed": v[0], "total": v[1]} for k, v in controls.items()}
    out["band"] = {"band": gen.band, **derive_band(gen, level)}
    out["constant_answer"] = constant_answer(gen, level)
    out["detectability"] = detectability(gen, level, min(draws, 500) if draws >= 20 else 20)
    return out


def _public_tg43_l3(seed: int) -> tuple[str, float]:
    item = calculation_item("tg43", 3, seed)
    return item.user, float(reference_of(item).value)  # type: ignore[arg-type]


def tg43_distance_rounding(n: int) -> dict[str, Any] | None:
    """The seed's check that rounding the level-3 TG-43 distances stays inside the 2% band."""
    try:
        from physbench.suites.medphys.verify.independent.tg43 import distance_rounding_check
    except ModuleNotFoundError:
        return None
    return distance_rounding_check(_public_tg43_l3, n=n, start=0)


def verify(draws: int = 2000, workers: int | None = None) -> dict[str, Any]:
    """Run every cell and summarise in the JSON shape the command line promises."""
    cells = [(g.name, level) for g in available_generators() for level in LEVELS]
    workers = workers or min(len(cells), os.cpu_count() or 1)
    rounding_draws = min(10_000, 5 * draws)
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            rounding = pool.submit(tg43_distance_rounding, rounding_draws)
            results = list(pool.map(verify_cell, [c[0] for c in cells], [c[1] for c in cells],
                                    [draws] * len(cells)))
            tg43 = rounding.result()
    else:
        results = [verify_cell(g, level, draws) for g, level in cells]
        tg43 = tg43_distance_rounding(rounding_draws)
    summary = summarise(results, draws)
    summary["tg43_distance_rounding"] = tg43
    return summary


def summarise(results: list[dict[str, Any]], draws: int) -> dict[str, Any]:
    controls: dict[str, dict[str, int]] = {}
    for r in results:
        for name, tally in r["controls"].items():
            total = controls.setdefault(name, {"passed": 0, "total": 0})
            total["passed"] += tally["passed"]
            total["total"] += tally["total"]
    accepted = controls.pop("reference_accepted", {"passed": 0, "total": 0})
    compared = sum(r["compared"] for r in results)
    out = {
        "cells": len(results),
        "draws_per_cell": draws,
        "max_rel_diff": max((r["max_rel_diff"] for r in results), default=0.0) if compared else None,
        "compared": compared,
        "plausibility_violations": sum(r["violations"] for r in results),
        "regeneration_identical": {"passed": sum(r["regenerated"] for r in results), "total": draws * len(results)},
        "grader_accepts_reference": accepted,
        "bands": [{"generator": r["generator"], "level": r["level"], **r["band"]} for r in results],
        "negative_controls": controls,
        "constant_answer": [r["constant_answer"] for r in results],
        "detectability": [d for r in results for d in r["detectability"]],
        "detectability_draws": results[0]["detectability"][0]["draws"] if results and results[0]["detectability"] else 0,
        "prompt_defects": [{"generator": r["generator"], "level": r["level"], **d} for r in results
                           for d in r["prompt_defects"]],
        "mode_failures": [{"generator": r["generator"], "level": r["level"], **d} for r in results
                          for d in r["mode_failures"]],
    }
    out["detectability_by_size"] = size_groups(out["detectability"])
    out["detectability_by_size_paper"] = SIZE_FINDING
    out["failures"] = failures(out)
    out["passed"] = not out["failures"]
    return out


def failures(summary: dict[str, Any]) -> list[str]:
    """Why the verification fails (empty when it passes)."""
    out = []
    if summary["max_rel_diff"] is None:
        out.append("no second implementation ran")
    elif summary["max_rel_diff"] > AGREEMENT_BOUND:
        out.append(f"the two implementations disagree by {summary['max_rel_diff']:.3g} (bound {AGREEMENT_BOUND:g})")
    if summary["prompt_defects"]:
        out.append(f"{len(summary['prompt_defects'])} prompt defects")
    if summary["mode_failures"]:
        out.append(f"{len(summary['mode_failures'])} error-mode answers failed to compute")
    if summary["plausibility_violations"]:
        out.append(f"{summary['plausibility_violations']} plausibility violations")
    regen = summary["regeneration_identical"]
    if regen["passed"] != regen["total"]:
        out.append(f"{regen['total'] - regen['passed']} items did not regenerate byte for byte")
    acc = summary["grader_accepts_reference"]
    if acc["passed"] != acc["total"]:
        out.append(f"the grader rejected {acc['total'] - acc['passed']} reference answers")
    for name, tally in summary["negative_controls"].items():
        if tally["passed"] != tally["total"]:
            out.append(f"control {name} failed {tally['total'] - tally['passed']} of {tally['total']}")
    for b in summary["bands"]:
        if b["band"] < b["derived"]:
            out.append(f"{b['generator']} L{b['level']}: band {b['band']:g} is tighter than derived {b['derived']:g}")
    return out
