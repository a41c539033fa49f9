"""What every medphys generator provides: levels, parameter draws, a reference solver, error modes.

A generator module (tg51.py, mu.py, ...) defines one frozen dataclass of printed inputs per level
and builds a `Generator` from `LevelSpec`s and `ErrorMode`s. Everything else (items, ids,
worksheets' rendering, splits, the command line) is shared code that uses these objects.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

from physbench.core.errors import UserError

Category = Literal["conceptual", "convention", "unit", "correction", "arithmetic"]
CATEGORIES: tuple[str, ...] = ("conceptual", "convention", "unit", "correction", "arithmetic")

MAX_DRAWS = 1000  # rejection-sampling attempts before a sampler is declared broken


@dataclass(frozen=True)
class ErrorMode:
    """A named mistake (Table 6 of seed 000): `answer(level, params)` is the erroneous answer.

    The answer is expressed in the reference unit of the same params, so that it can be graded
    against the reference band directly.
    """

    name: str  # slug, unique within its generator
    description: str
    category: Category
    levels: tuple[int, ...]
    answer: Callable[[int, Any], float]


@dataclass(frozen=True)
class LevelSpec:
    """One level of a generator.

    - `params`: the frozen dataclass of printed inputs (scalars, strings, tuples; no nesting of
      dataclasses), every float already rounded to the precision at which the prompt prints it;
    - `sample(rng)`: a draw from clinical ranges (may return implausible params: `draw` rejects them);
    - `violations(p)`: the plausibility rules that `p` breaks (empty when plausible);
    - `solve(p)`: the reference answer, a float in `unit(p)`, from the printed values only;
    - `unit(p)`: the answer unit as a string our units registry parses ("" if dimensionless);
    - `quantity(p)`: what the answer is, in words ("the MU per fraction for this field");
    - `prompt(p)`: the user message of the calculation item.
    - `worksheet(p, sheet, mode)`: checking generators only; the step chain written into `sheet`
      (see worksheet.py), returning the final shown value. `mode` is an error mode name or None.
    - `legacy(p)`: the params of the same draw as benchmark version 1.0 words and solves it (only
      levels whose items changed in version 1.1); applied before the plausibility rules.
    """

    level: int
    params: type
    sample: Callable[[random.Random], Any]
    violations: Callable[[Any], list[str]]
    solve: Callable[[Any], float]
    unit: Callable[[Any], str]
    quantity: Callable[[Any], str]
    prompt: Callable[[Any], str]
    worksheet: Callable[..., float] | None = None
    legacy: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Generator:
    """A seeded generator with three levels (seed 000, Table 1 and "Generator specifications")."""

    name: str
    title: str  # the clinical task
    document: str  # governing document
    band: float  # relative tolerance as a fraction (Table 5)
    levels: Mapping[int, LevelSpec]
    error_modes: tuple[ErrorMode, ...]
    checking: bool = False  # has worksheet and result checks

    def level(self, level: int) -> LevelSpec:
        if level not in self.levels:
            raise UserError(f"generator {self.name} has no level {level}; levels: {sorted(self.levels)}")
        return self.levels[level]

    def mode(self, name: str) -> ErrorMode:
        for m in self.error_modes:
            if m.name == name:
                return m
        known = ", ".join(m.name for m in self.error_modes)
        raise UserError(f"generator {self.name} has no error mode {name!r}; known: {known}")

    def modes_at(self, level: int) -> tuple[ErrorMode, ...]:
        return tuple(m for m in self.error_modes if level in m.levels)


# --- seeded draws -----------------------------------------------------------------------------

def rng_for(generator: str, level: int, seed: int, purpose: str = "params") -> random.Random:
    """A private random stream per (generator, level, seed, purpose), stable across Python versions."""
    digest = hashlib.sha256(f"physbench/medphys/{generator}/L{level}/{seed}/{purpose}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def draw(gen: Generator, level: int, seed: int, legacy: bool = False) -> Any:
    """The plausible params of (generator, level, seed): rejection sampling on one seeded stream.

    `legacy=True` draws the params of benchmark version 1.0 (the same stream; a level without a
    `legacy` adapter draws the same params in both versions).
    """
    spec = gen.level(level)
    rng = rng_for(gen.name, level, seed)
    adapt = spec.legacy if legacy else None
    for _ in range(MAX_DRAWS):
        p = spec.sample(rng)
        if adapt is not None:
            p = adapt(p)
        if not spec.violations(p):
            return p
    raise RuntimeError(f"{gen.name} L{level}: no plausible draw in {MAX_DRAWS} tries (seed {seed})")


# --- params <-> JSON ------------------------------------------------------------------------

def convention(default: Any) -> Any:
    """A params field added after release, with the value every released item implies: it is written
    to the params' JSON only when it differs, so the params hash of every existing item stands."""
    return dataclasses.field(default=default, metadata={"omit_default": True})


def params_to_dict(p: Any) -> dict[str, Any]:
    """Plain JSON data of a flat params dataclass (tuples become lists); a `convention` field at its
    default is left out."""
    return {f.name: _listify(getattr(p, f.name)) for f in dataclasses.fields(p)
            if not (f.metadata.get("omit_default") and getattr(p, f.name) == f.default)}


def _listify(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _listify(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_listify(v) for v in obj]
    return obj


def _tuplify(obj: Any) -> Any:
    if isinstance(obj, (list, tuple)):
        return tuple(_tuplify(v) for v in obj)
    return obj


def params_from_dict(cls: type, data: Mapping[str, Any], label: str | None = None) -> Any:
    """Build `cls` from JSON data; missing, unknown or mistyped fields are a clear UserError that
    names `label` (what the user asked for, e.g. "mu level 3") rather than the class."""
    name = label or cls.__name__
    if not isinstance(data, Mapping):
        raise UserError(f"params must be a JSON object with the fields of {name}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    missing = sorted(n for n, f in fields.items() if n not in data and _required(f))
    if unknown:
        raise UserError(f"unknown params for {name}: {', '.join(unknown)}; expected: {', '.join(fields)}")
    if missing:
        raise UserError(f"missing params for {name}: {', '.join(missing)}")
    values = {k: _checked(name, k, fields[k].type, _tuplify(v)) for k, v in data.items()}
    return cls(**values)


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _checked(owner: str, name: str, annotation: Any, value: Any) -> Any:
    """`value` if it fits the field's annotation (an integral float becomes an int), else UserError."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if text.replace(" ", "") in ("float|None", "Optional[float]"):
        if value is None:
            return None
        text = "float"
    if text in ("float", "int") and not numeric:
        raise UserError(f"param {name} of {owner} must be a number, got {value!r}")
    if text == "int" and isinstance(value, float) and not value.is_integer():
        raise UserError(f"param {name} of {owner} must be an integer, got {value!r}")
    if text == "str" and not isinstance(value, str):
        raise UserError(f"param {name} of {owner} must be a string, got {value!r}")
    if text == "bool" and not isinstance(value, bool):
        raise UserError(f"param {name} of {owner} must be true or false, got {value!r}")
    if text.startswith("tuple"):
        if not isinstance(value, tuple):
            raise UserError(f"param {name} of {owner} must be a list, got {value!r}")
        if "float" in text or "int" in text:
            _check_numbers(owner, name, value)
    if text == "int":
        return int(value)
    if text == "float":
        return float(value)
    return value


def _check_numbers(owner: str, name: str, value: tuple[Any, ...]) -> None:
    """Every leaf of a (nested) list param is a number."""
    for v in value:
        if isinstance(v, tuple):
            _check_numbers(owner, name, v)
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise UserError(f"param {name} of {owner} must hold numbers, got {v!r}")


def check_finite(values: Sequence[float]) -> bool:
    """True when every value is a finite number (plausibility helper)."""
    return all(isinstance(v, (int, float)) and v == v and abs(v) != float("inf") for v in values)
