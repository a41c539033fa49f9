"""A differential test against a user's copy of the official calculators (MedCalc-Bench-Verified
calculator_implementations/): generated cases through both, the library under each formula version, and
every difference of the clinical version named by the errata behind it.

The official code is the user's: it is imported from the folder given and run in this process (as
`python` would run it); nothing of it ships with physbench.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from physbench.core.errors import UserError
from physbench.suites.clincalc import answers, synth
from physbench.suites.clincalc.calculators import CALCULATORS, compute
from physbench.suites.clincalc.entities import EntityError
from physbench.suites.clincalc.version_audit import explaining_errata

NAME_MAP = "name_to_python.json"


def official_functions(folder: str | Path) -> dict[int, Callable[[dict], Any]]:
    """Calculator id -> a function of Relevant Entities giving the official answer (its 'Answer')."""
    root = Path(folder)
    try:
        table = json.loads((root / NAME_MAP).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{root / NAME_MAP}: cannot read the official name map ({type(exc).__name__})") from None
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))  # the official modules import their siblings by name
    out: dict[int, Callable[[dict], Any]] = {}
    for key, meta in table.items():
        if not (isinstance(meta, dict) and key.isdigit() and int(key) in CALCULATORS):
            continue
        out[int(key)] = _official(root, meta)
    if not out:
        raise UserError(f"{root / NAME_MAP}: names no MedCalc-Bench Verified calculator")
    return out


def _official(root: Path, meta: dict) -> Callable[[dict], Any]:
    names = {k: v for k, v in meta.items() if isinstance(v, str) and k not in
             ("file path", "explanation function", "calculator name", "type", "question")}

    def run(entities: dict) -> Any:
        path = root / meta["file path"]
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise UserError(f"cannot import {path}")
        module = sys.modules.get(path.stem)
        if module is None:
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
        params = {names.get(k, k): v for k, v in entities.items()}
        with contextlib.redirect_stdout(io.StringIO()):
            return getattr(module, meta["explanation function"])(params)["Answer"]
    return run


def same(kind: str, ours: Any, theirs: Any) -> bool:
    """Whether our answer passes where the official answer is the gold (decimals: its 5% band)."""
    if kind == "decimal":
        t = float(theirs)
        return min(0.95 * t, 1.05 * t) <= float(ours) <= max(0.95 * t, 1.05 * t)
    if kind == "date":
        return ours.strftime("%m/%d/%Y") == str(theirs)
    if kind == "gestational_age":
        return tuple(ours) == answers.gestational_age(str(theirs))
    return float(ours) == float(theirs)


def exact(kind: str, ours: Any, theirs: Any) -> bool:
    """Whether our answer is the official value itself (decimals: to its 5 printed decimals or 0.005%)."""
    if kind == "decimal":
        return math.isclose(float(ours), float(theirs), rel_tol=5e-5, abs_tol=5.1e-6)
    return same(kind, ours, theirs)


def _ours(calc_id: int, entities: dict, formulas: str) -> Any:
    try:
        return compute(calc_id, entities, formulas)
    except EntityError:
        return None


# other spellings the dataset's calculators meet: race, 'not testable', 'Grade 0', capitalised levels
_SPELLINGS = {"Race": ("black", "African American", "Black"),
              "Best verbal response": ("not testable", "oriented"), "Best eye response": ("not testable",),
              "Encephalopathy": ("Grade 0", "No Encephalopathy"),
              "Liver disease severity": ("Mild", "Moderate to severe", "none"),
              "Solid tumor": ("Metastatic", "Localized", "none")}
_MICROMOLAR = {"creatinine": (40, 400), "Pre-operative creatinine": (40, 400), "Bilirubin": (5, 300)}


def on_edges(entities: dict, rng: random.Random) -> dict:
    """The case moved onto printed band edges and unit variants: quantities rounded to 1, 0.5 or 0.1;
    creatinine and bilirubin sometimes in whole umol/L, insulin in pmol/L; PaO2 units, race, 'not
    testable', 'Grade 0' and capitalised levels written the other ways the benchmark's code meets."""
    out: dict = {}
    for name, v in entities.items():
        if isinstance(v, list) and len(v) == 2 and isinstance(v[1], str) and isinstance(v[0], (int, float)) \
                and not isinstance(v[0], bool):
            x, unit = v
            if name in _MICROMOLAR and unit == "mg/dL" and rng.random() < 0.4:
                x, unit = rng.randint(*_MICROMOLAR[name]), "µmol/L"
            step = rng.choice((1, 0.5, 0.1))
            x = round(round(x / step) * step, 1)
            if name == "Partial pressure of oxygen" and rng.random() < 0.3:
                unit = rng.choice(("mmHg", "mm Hg"))
            out[name] = [int(x) if step == 1 else x, unit]
        elif name in _SPELLINGS and rng.random() < 0.3:
            out[name] = rng.choice(_SPELLINGS[name])
        else:
            out[name] = v
    if "Insulin" in out and rng.random() < 0.4:
        out["Insulin"] = [round(out["Insulin"][0] * 6, 1), "pmol/L"]
    return out


def differential(folder: str | Path, per_calculator: int = 50, seed: int = 0, edges: bool = False) -> dict[str, Any]:
    """Counts per calculator and in all: official raises; each version agrees or differs; the errata
    named for each clinical difference ('UNEXPLAINED' where none is)."""
    functions = official_functions(folder)
    counts: dict[int, Counter] = {}
    named: Counter = Counter()
    for calc_id, official in sorted(functions.items()):
        calc, c = CALCULATORS[calc_id], Counter()
        rng = random.Random(f"physbench-clincalc-differential:{seed}:{calc_id}")
        for _ in range(per_calculator):
            entities = synth.draw_entities(calc, rng)
            if edges:
                entities = on_edges(entities, rng)
            try:
                theirs = official(entities)
            except Exception:  # noqa: BLE001 - the official code failing is a count, not our error
                c["official_raises"] += 1
                continue
            for formulas in ("benchmark", "clinical"):
                ours = _ours(calc_id, entities, formulas)
                agree = ours is not None and same(calc.kind, ours, theirs)
                c[f"{formulas}_{'agree' if agree else 'differ'}"] += 1
                c[f"{formulas}_exact"] += int(agree and exact(calc.kind, ours, theirs))
                if formulas == "clinical" and not agree:
                    named.update(explaining_errata(calc_id, entities) or ["UNEXPLAINED"])
        counts[calc_id] = c
    total: Counter = sum(counts.values(), Counter())
    return {"per_calculator": per_calculator, "seed": seed, "edges": edges, "total": dict(total), "clinical_differences": dict(named),
            "calculators": {str(k): dict(v) for k, v in counts.items()}}
