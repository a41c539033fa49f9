"""Structural-cue audit of the worksheets (seed 000, "Structural cues in the worksheets").

Could a checker spot a planted error from the form of a worksheet alone? For every checking cell
we build the correct and the planted worksheet of public draws (seeds 40,000+), set three rules
on other public draws (seeds 41,000+), and report each rule's detection and false-alarm rates:
fewer steps than the usual correct worksheet; shorter than 99% of correct worksheets; a word
that appears in >= 5% of planted worksheets and in no correct one. The audit runs on the items of
one benchmark version: 1.0 (fixed layouts, the paper's audit) or 1.1 (varied layouts).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from physbench.suites.medphys.base import Generator, draw
from physbench.suites.medphys.generators import CHECKING_GENERATORS, LEVELS, get_generator
from physbench.suites.medphys.planting import Worksheet, layout_variant, planted_error, planted_sheet, write_sheet
from physbench.suites.medphys.versions import Version, get_version

EVAL_START, CALIBRATION_START = 40_000, 41_000
WORD_SHARE = 0.05
_WORD = re.compile(r"[A-Za-z][A-Za-z_']+")


@dataclass(frozen=True)
class Pair:
    correct: Worksheet
    planted: Worksheet


def pairs(gen: Generator, level: int, start: int, n: int, variation: bool, legacy: bool = False) -> list[Pair]:
    out = []
    for seed in range(start, start + n):
        p = draw(gen, level, seed, legacy)
        error = planted_error(gen, level, seed, p, layout=variation)
        variant = layout_variant(gen, level, seed) if variation else None
        out.append(Pair(write_sheet(gen, level, p, variant=variant), planted_sheet(gen, level, p, error)))
    return out


def _words(sheet: Worksheet) -> set[str]:
    return {w.lower() for w in _WORD.findall(sheet.render())}


def _rate(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def audit_cell(gen: Generator, level: int, n: int, variation: bool, legacy: bool = False) -> dict[str, Any]:
    calibration = pairs(gen, level, CALIBRATION_START, n, variation, legacy)
    evaluation = pairs(gen, level, EVAL_START, n, variation, legacy)
    usual_steps = Counter(len(p.correct.steps) for p in calibration).most_common(1)[0][0]
    lengths = sorted(len(p.correct.render()) for p in calibration)
    length_cut = lengths[int(0.01 * len(lengths))]
    correct_words = set().union(*(_words(p.correct) for p in calibration))
    planted_counts = Counter(w for p in calibration for w in _words(p.planted))
    cue_words = sorted(w for w, c in planted_counts.items() if c >= WORD_SHARE * n and w not in correct_words)
    rules = {
        "step_count": lambda s: len(s.steps) < usual_steps,
        "length": lambda s: len(s.render()) < length_cut,
        "words": lambda s: bool(_words(s) & set(cue_words)),
    }
    out: dict[str, Any] = {"generator": gen.name, "level": level, "n": n, "rules": {}}
    for name, rule in rules.items():
        detection = _rate([rule(p.planted) for p in evaluation])
        false_alarm = _rate([rule(p.correct) for p in evaluation])
        out["rules"][name] = {"detection": detection, "false_alarm": false_alarm, "excess": detection - false_alarm}
    out["rules"]["words"]["words"] = cue_words
    return out


def audit(n: int = 500, variation: bool | None = None, generators: tuple[str, ...] = CHECKING_GENERATORS,
          version: Version | str | None = None) -> dict[str, Any]:
    """Every checking cell of a version's items; `variation` overrides the version's layout rule.
    `max_excess` is the largest detection minus false alarm of any rule."""
    v = get_version(version)
    varied = v.varied_layouts if variation is None else variation
    cells = [audit_cell(get_generator(g), level, n, varied, v.legacy_conventions) for g in generators
             for level in LEVELS]
    worst = max((r["excess"], c["generator"], c["level"], name) for c in cells for name, r in c["rules"].items())
    return {"benchmark_version": v.label, "variation": varied, "draws_per_cell": n, "cells": cells,
            "max_excess": worst[0], "worst": {"generator": worst[1], "level": worst[2], "rule": worst[3]}}
