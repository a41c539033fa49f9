"""Which named error a wrong calculation answer matches, against a permutation null (seed 000 Section G, Tables 17, 18).

A wrong answer is *attributed* when it lies within the item's band of at least one error mode's
output on that item. A match can happen by chance, so each model's attribution rate is compared
with a null in which each wrong answer's ratio to its reference is applied to another item of the
same generator and level: the null rate is the expected rate over all such other items (exact),
and its one-sided p comes from random reassignments.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from physbench.report.generic import passed, value_in_reference_unit, within
from physbench.suites.medphys.report.analyses import generator_of, level_of, of_kind
from physbench.suites.medphys.reference import reference_of

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.report.loading import RunData
    from physbench.runner.results import Result

NULL_DRAWS = 2000
NULL_SEED = 0


@dataclass(frozen=True)
class ModeAnswer:
    """One error mode's answer to one item, in the item's reference unit."""

    generator: str
    mode: str
    description: str
    value: float


class ModeAnswers:
    """Error-mode answers per item, computed once (the generators' own `mode.answer`)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], tuple[ModeAnswer, ...]] = {}

    def of(self, item: "Item") -> tuple[ModeAnswer, ...]:
        key = (item.id, item.params_hash)
        if key not in self._cache:
            self._cache[key] = _mode_answers(item)
        return self._cache[key]

    def matches(self, item: "Item", value: float | None) -> list[ModeAnswer]:
        """The modes whose answer `value` lies within the item's band of, closest first."""
        if value is None or not math.isfinite(value):
            return []
        hits = [m for m in self.of(item) if within(value, m.value, reference_of(item).band)]
        return sorted(hits, key=lambda m: abs(value - m.value) / abs(m.value) if m.value else math.inf)


def _mode_answers(item: "Item") -> tuple[ModeAnswer, ...]:
    """Every mode at the item's level whose answer is finite and differs from the reference beyond the band."""
    from physbench.suites.medphys.base import params_from_dict
    from physbench.suites.medphys.generators import get_generator

    level, reference = level_of(item), reference_of(item).value
    if item.kind != "calculation" or level is None or not isinstance(reference, (int, float)):
        return ()
    try:
        gen = get_generator(generator_of(item))
        params = params_from_dict(gen.level(level).params, item.params)
    except Exception:  # an item from another version of the generators: nothing to attribute to
        return ()
    out = []
    for mode in gen.modes_at(level):
        try:
            value = float(mode.answer(level, params))
        except Exception:  # a mode that does not apply to these params
            continue
        if math.isfinite(value) and not within(value, float(reference), reference_of(item).band):
            out.append(ModeAnswer(gen.name, mode.name, mode.description, value))
    return tuple(out)


def _ratio(r: "Result") -> float | None:
    value, ref = value_in_reference_unit(r), reference_of(r.item).value
    if value is None or not isinstance(ref, (int, float)) or ref == 0:
        return None
    return value / float(ref)


def _matches_elsewhere(ratio: float, others: Sequence["Result"], answers: ModeAnswers) -> np.ndarray:
    """For each other item: does the ratio applied to its reference match one of its modes?"""
    return np.array([bool(answers.matches(o.item, ratio * float(reference_of(o.item).value))) for o in others],
                    dtype=bool)


def attribution_for(run: "RunData", answers: ModeAnswers, *, draws: int = NULL_DRAWS,
                    seed: int = NULL_SEED) -> dict[str, Any] | None:
    """Table 17 for one model: failures, attributed share, null share and its one-sided p; best matches."""
    # in item order, not the order attempts happened to finish in: the null draws follow this order
    calc = sorted(of_kind(run, "calculation").values(), key=lambda r: r.item.id)
    failures = [r for r in calc if not passed(r)]
    if not failures:
        return None
    cells: dict[tuple[str, int | None], list["Result"]] = defaultdict(list)
    for r in calc:
        cells[(generator_of(r.item), level_of(r.item))].append(r)
    observed = 0
    fixed = 0.0          # null contributions that do not vary between draws
    varying: list[np.ndarray] = []
    best: list[dict[str, Any]] = []
    for r in failures:
        hits = answers.matches(r.item, value_in_reference_unit(r))
        observed += bool(hits)
        if hits:
            best.append({"item": r.item.id, "generator": hits[0].generator, "mode": hits[0].mode,
                         "description": hits[0].description})
        ratio = _ratio(r)
        if ratio is None:
            continue  # no numeric answer: attributed neither observed nor under the null
        others = [o for o in cells[(generator_of(r.item), level_of(r.item))]
                  if o.item.id != r.item.id and isinstance(reference_of(o.item).value, (int, float))]
        if not others:
            fixed += bool(hits)  # nothing to permute with: counts the same under the null
            continue
        varying.append(_matches_elsewhere(ratio, others, answers))
    n = len(failures)
    null_rate = (fixed + sum(float(v.mean()) for v in varying)) / n
    rng = np.random.default_rng(seed)
    totals = np.full(draws, fixed)
    for v in varying:
        totals += v[rng.integers(0, v.size, size=draws)]
    p = (1 + int(np.sum(totals >= observed - 1e-9))) / (draws + 1)
    return {"model": run.label, "failures": n, "numeric": sum(1 for r in failures if _ratio(r) is not None),
            "attributed": observed, "rate": observed / n, "null_rate": null_rate, "p": p, "best": best}


def attribution(models: Sequence["RunData"], answers: ModeAnswers | None = None) -> dict[str, Any] | None:
    """Tables 17 and 18 over the models: rates against the null, and the modes matched most often."""
    answers = answers or ModeAnswers()
    rows = [row for run in models if (row := attribution_for(run, answers)) is not None]
    if not rows:
        return None
    by_mode: Counter[tuple[str, str]] = Counter()
    by_mode_model: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    descriptions: dict[tuple[str, str], str] = {}
    for row in rows:
        for b in row.pop("best"):
            key = (b["generator"], b["mode"])
            by_mode[key] += 1
            by_mode_model[key][row["model"]] += 1
            descriptions[key] = b["description"]
    top = [{"generator": g, "mode": m, "description": descriptions[(g, m)], "answers": count,
            "models": dict(by_mode_model[(g, m)].most_common())}
           for (g, m), count in sorted(by_mode.items(), key=lambda kv: (-kv[1], kv[0]))]
    return {"rows": rows, "modes": top, "draws": NULL_DRAWS}
