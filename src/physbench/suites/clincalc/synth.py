"""`clincalc synth`: a synthetic MedCalc-Bench Verified set, so every arm runs offline at full size.

Each case draws plausible Relevant Entities for one calculator (synth_values), writes a short note
that states them, and takes its gold answer from the library; decimal limits are the benchmark's
5% band (as in the real rows: Lower = 0.95 x gold, Upper = 1.05 x gold). A case whose draw the
library cannot use, or whose rounded gold the library's value would miss, is drawn again from the
same seeded generator, so the set is deterministic and gold-solve-library scores every row.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Iterator

from physbench.core.errors import UserError
from physbench.suites.clincalc import synth_notes, synth_values
from physbench.suites.clincalc.calculators import CALCULATORS, Calculator, EntityError
from physbench.suites.clincalc.dataset import Row, load_one_shot, row_from_cells
from physbench.suites.clincalc.library import gold_answer

CASES_PER_CALCULATOR = 20
DEFAULT_SEED = 0
MAX_DRAWS = 200          # draws per case before giving up (the library rejects a few extreme draws)
BAND = 0.05              # the benchmark's tolerance for decimal answers

_DATE_NAMES = ("Last menstrual date", "Current Date")
_STEROID_NAMES = ("input steroid", "target steroid")


def _date_text(d: dt.date) -> str:
    return d.strftime("%m/%d/%Y")


def _dates(calc_id: int, rng: random.Random) -> dict[str, Any]:
    """A last menstrual period (2000-2024) and, for the gestational age, a visit 4-41 weeks later."""
    lmp = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randrange(0, 25 * 365))
    out: dict[str, Any] = {}
    if calc_id == 13:
        out["cycle length"] = synth_values.draw(calc_id, "cycle length", rng)
    if calc_id == 69:
        out["Current Date"] = _date_text(lmp + dt.timedelta(days=rng.randrange(28, 41 * 7)))
    out["Last menstrual date"] = _date_text(lmp)
    return out


def _steroid(rng: random.Random) -> dict[str, Any]:
    """A glucocorticoid dose of 0.5 to 10 equivalents, and a different target drug."""
    from physbench.suites.clincalc.calculators.dosing import STEROID_EQUIVALENT_MG

    source, target = rng.sample(sorted(STEROID_EQUIVALENT_MG), 2)
    dose = round(STEROID_EQUIVALENT_MG[source] * rng.uniform(0.5, 10), 2)
    return {"input steroid": [source, dose, "mg"], "target steroid": target}


def _opioids(rng: random.Random) -> dict[str, Any]:
    """One to three opioids, each a dose and a number of doses a day."""
    out: dict[str, Any] = {}
    for drug in rng.sample(sorted(synth_values.OPIOID_DOSES), rng.randint(1, 3)):
        out[f"{drug} Dose"] = synth_values.OPIOID_DOSES[drug].draw(rng)
        out[f"{drug} Dose Per Day"] = [rng.randint(1, 4), "per day"]
    return out


def draw_entities(calc: Calculator, rng: random.Random) -> dict[str, Any]:
    """One case's Relevant Entities for `calc`, in the dataset's form."""
    if calc.id == 49:
        return _opioids(rng)
    out: dict[str, Any] = {}
    for name in calc.entities:
        if name in _DATE_NAMES or name in _STEROID_NAMES:
            continue
        value = synth_values.draw(calc.id, name, rng)
        if value is not None:
            out[name] = value
    if any(n in calc.entities for n in _DATE_NAMES):
        out.update(_dates(calc.id, rng))
    if "input steroid" in calc.entities:
        out.update(_steroid(rng))
    return out


def plausible(entities: dict[str, Any]) -> bool:
    """Physiological consistency the independent draws can break: diastolic well below systolic."""
    sbp, dbp = entities.get("Systolic Blood Pressure"), entities.get("Diastolic Blood Pressure")
    return not (sbp and dbp and dbp[0] > sbp[0] - 20)


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.5f}".rstrip("0").rstrip(".")


def gold_cells(calc: Calculator, answer: Any) -> tuple[str, str, str]:
    """Ground Truth Answer, Lower Limit and Upper Limit as the dataset writes them for this answer."""
    if calc.kind == "date":
        text = _date_text(answer)
        return text, text, text
    if calc.kind == "gestational_age":
        text = str((f"{answer[0]} weeks", f"{answer[1]} days"))
        return text, text, text
    if calc.kind == "score":
        text = _number_text(answer)
        return text, text, text
    lo, hi = sorted((answer * (1 - BAND), answer * (1 + BAND)))
    return _number_text(round(answer, 5)), _number_text(round(lo, 5)), _number_text(round(hi, 5))


def _questions() -> dict[int, str]:
    """The benchmark's question for each calculator, from the shipped one-shot split."""
    return {row.calculator_id: row.question for row in load_one_shot().rows}


def synth_case(calc: Calculator, number: int, index: int, seed: int, question: str) -> Row:
    """Row `number`: case `index` of calculator `calc`, drawn from its own seeded generator."""
    rng = random.Random(f"physbench-clincalc-synth:{seed}:{calc.id}:{index}")
    for _ in range(MAX_DRAWS):
        entities = draw_entities(calc, rng)
        if not plausible(entities):
            continue
        try:
            answer = calc.compute(entities)
        except EntityError:
            continue
        gold, lower, upper = gold_cells(calc, answer)
        cells = {"Row Number": str(number), "Calculator ID": str(calc.id), "Calculator Name": calc.name,
                 "Category": calc.category, "Output Type": calc.output_type,
                 "Note ID": f"synth-{seed}-{calc.id}-{index}", "Note Type": "Synthetic",
                 "Patient Note": synth_notes.note(entities, rng), "Question": question,
                 "Relevant Entities": repr(entities), "Ground Truth Answer": gold, "Lower Limit": lower,
                 "Upper Limit": upper, "Ground Truth Explanation": synth_notes.explanation(calc, gold)}
        row = row_from_cells(cells, f"synthetic case {calc.id}/{index}")
        if gold_answer(row)[1] == "correct":
            return row
    raise UserError(f"synth: calculator {calc.id} gave no usable case in {MAX_DRAWS} draws (seed {seed})")


def synth_rows(per_calculator: int = CASES_PER_CALCULATOR, seed: int = DEFAULT_SEED) -> Iterator[Row]:
    """`per_calculator` cases of every calculator, calculators in id order, rows numbered from 1."""
    if per_calculator < 1:
        raise UserError(f"synth: --per-calculator must be at least 1, got {per_calculator}")
    if seed < 0:
        raise UserError(f"synth: --seed must not be negative, got {seed}")
    questions = _questions()
    number = 0
    for calc in CALCULATORS.values():
        for index in range(per_calculator):
            number += 1
            yield synth_case(calc, number, index, seed, questions.get(calc.id, f"What is the patient's {calc.name}?"))


def write_synth(path: str, per_calculator: int = CASES_PER_CALCULATOR, seed: int = DEFAULT_SEED) -> int:
    """Write the set to `path` (.csv, or .parquet with pyarrow), whole or not at all; returns the row count."""
    from physbench.suites.clincalc.dataset import write_csv, write_parquet

    rows = list(synth_rows(per_calculator, seed))
    (write_parquet if str(path).lower().endswith(".parquet") else write_csv)(rows, path)
    return len(rows)

