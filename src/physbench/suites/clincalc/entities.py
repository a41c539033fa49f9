"""Typed access to a row's Relevant Entities: quantities with units, flags, choices, dates.

Keys are matched as the dataset writes them, after folding case, subscript digits and spacing,
and through a short alias table for the spellings of the original MedCalc-Bench release. Every
key a calculator reads is recorded, so callers can report keys it never looked at.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from typing import Any, Iterable, Mapping

from physbench.suites.clincalc import units


class EntityError(ValueError):
    """Relevant Entities a calculator cannot use: a key missing, a value of the wrong form."""


# spellings of MedCalc-Bench v1.0 and v1.2 -> the Verified names
ALIASES = {
    "congestive heart faliure": "congestive heart failure",
    "partial pressure of oxygen (pao2) for apache ii": "pao2",
    "continous positive airway pressure": "continuous positive airway pressure",
    "diabetes mellitus criteria for cci rule": "diabetes mellitus",
    "symptom onset ≤3 days": "symptom onset <=3 days",
    "renal disease": "renal disease history",
}

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def fold(key: str) -> str:
    """The comparison form of an entity name."""
    k = unicodedata.normalize("NFKC", key.translate(_SUBSCRIPTS)).casefold()
    k = " ".join(k.split())
    return ALIASES.get(k, k)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise EntityError(f"{where}: expected a number, got {value!r}")
    if isinstance(value, (int, float)):
        x = float(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+(\.\d+)?([eE][-+]?\d+)?\s*", value):
        x = float(value)
    else:
        raise EntityError(f"{where}: expected a number, got {value!r}")
    if not math.isfinite(x):
        raise EntityError(f"{where}: not a finite number: {value!r}")
    return x


class Entities:
    """A read-only view of one Relevant Entities mapping."""

    def __init__(self, raw: Mapping[str, Any]):
        if not isinstance(raw, Mapping):
            raise EntityError(f"Relevant Entities must be a mapping, got {type(raw).__name__}")
        self._raw: dict[str, Any] = {}
        self._names: dict[str, str] = {}
        for key, value in raw.items():
            if not isinstance(key, str):
                raise EntityError(f"entity names must be strings, got {key!r}")
            folded = fold(key)
            if folded in self._raw:
                raise EntityError(f"entity {key!r} is given twice")
            self._raw[folded] = value
            self._names[folded] = key
        self._read: set[str] = set()

    # ---- presence ------------------------------------------------------------------------
    def has(self, name: str) -> bool:
        return fold(name) in self._raw

    def _get(self, name: str) -> Any:
        key = fold(name)
        if key not in self._raw:
            raise EntityError(f"missing entity {name!r}")
        self._read.add(key)
        return self._raw[key]

    def first(self, *names: str) -> str | None:
        """The first of `names` that is present (the one to read), or None."""
        return next((n for n in names if self.has(n)), None)

    def keys(self) -> list[str]:
        """Every key as given."""
        return list(self._names.values())

    @staticmethod
    def number_in(value: Any, where: str) -> float:
        """A number inside a compound entity (e.g. the dose of 'input steroid')."""
        return _number(value, where)

    def unused(self) -> list[str]:
        """Keys given but never read, in their original spelling."""
        return [self._names[k] for k in self._raw if k not in self._read]

    # ---- values ---------------------------------------------------------------------------
    def pair(self, name: str) -> tuple[float, str]:
        """A [value, 'unit'] entity."""
        v = self._get(name)
        if isinstance(v, (list, tuple)) and len(v) == 2 and isinstance(v[1], str):
            return _number(v[0], name), v[1]
        raise EntityError(f"{name}: expected [value, 'unit'], got {v!r}")

    def number(self, name: str, default: float | None = None) -> float:
        """A bare number (INR, pH, GCS...) or the value of a [value, unit] pair."""
        if not self.has(name):
            if default is None:
                raise EntityError(f"missing entity {name!r}")
            return default
        v = self._get(name)
        if isinstance(v, (list, tuple)) and len(v) == 2:
            return _number(v[0], name)
        return _number(v, name)

    def flag(self, name: str, default: bool = False) -> bool:
        """A True/False criterion; absent means `default` (the benchmark's 'assume absent')."""
        if not self.has(name):
            return default
        v = self._get(name)
        if isinstance(v, bool):
            return v
        if isinstance(v, str) and v.strip().lower() in ("true", "false", "yes", "no"):
            return v.strip().lower() in ("true", "yes")
        raise EntityError(f"{name}: expected True or False, got {v!r}")

    def any_flag(self, names: Iterable[str]) -> bool:
        return any([self.flag(n) for n in names])  # list: every key is read

    def choice(self, name: str, options: Mapping[str, Any], default: str | None = None) -> Any:
        """The value mapped to a categorical answer, matched without regard to case or spacing."""
        if not self.has(name):
            if default is None:
                raise EntityError(f"missing entity {name!r}")
            return options[default]
        v = self._get(name)
        if isinstance(v, str):
            wanted = " ".join(v.split()).casefold()
            for option, mapped in options.items():
                if option.casefold() == wanted:
                    return mapped
        raise EntityError(f"{name}: {v!r} is not one of {', '.join(map(repr, options))}")

    def text(self, name: str) -> str:
        v = self._get(name)
        if not isinstance(v, str):
            raise EntityError(f"{name}: expected text, got {v!r}")
        return v

    def date(self, name: str) -> dt.date:
        """A date written MM/DD/YYYY, as the dataset does."""
        v = self.text(name).strip()
        try:
            return dt.datetime.strptime(v, "%m/%d/%Y").date()
        except ValueError:
            raise EntityError(f"{name}: {v!r} is not a MM/DD/YYYY date") from None

    def raw(self, name: str) -> Any:
        return self._get(name)

    # ---- physical quantities in the units the formulas use ---------------------------------
    def conc(self, name: str, target: str, analyte: str) -> float:
        """A concentration converted to `target` through the analyte's molar mass or valence."""
        value, unit = self.pair(name)
        try:
            return units.convert_concentration(value, unit, target, analyte)
        except units.UnitError as exc:
            raise EntityError(f"{name}: {exc}") from None

    def _convert(self, name: str, fn) -> float:
        value, unit = self.pair(name)
        try:
            return fn(value, unit)
        except units.UnitError as exc:
            raise EntityError(f"{name}: {exc}") from None

    def age(self) -> float:
        v = self._get("age")
        if not isinstance(v, (list, tuple)):
            raise EntityError(f"age: expected [value, 'years'], got {v!r}")
        try:
            return units.age_years(list(v))
        except units.UnitError as exc:
            raise EntityError(f"age: {exc}") from None

    def sex_female(self) -> bool:
        """True for 'Female', False for 'Male'."""
        return self.choice("sex", {"female": True, "male": False, "f": True, "m": False})

    def weight_kg(self, name: str = "weight") -> float:
        return self._convert(name, units.weight_kg)

    def height_cm(self, name: str = "height") -> float:
        v = self._get(name)
        if isinstance(v, (list, tuple)) and len(v) == 4:  # [5, 'ft', 10, 'in']
            feet, inches = self._ft_in(v, name)
            return float(units.exact(feet) * units.exact("30.48") + units.exact(inches) * units.exact("2.54"))
        return self._convert(name, units.height_cm)

    @staticmethod
    def _ft_in(v, name: str) -> tuple[float, float]:
        if str(v[1]).strip().lower() in ("ft", "feet") and str(v[3]).strip().lower() in ("in", "inches"):
            return _number(v[0], name), _number(v[2], name)
        raise EntityError(f"{name}: expected [feet, 'ft', inches, 'in'], got {v!r}")

    def temperature_c(self, name: str = "Temperature") -> float:
        return self._convert(name, units.temperature_c)

    def pressure_mmhg(self, name: str) -> float:
        return self._convert(name, units.pressure_mmhg)

    def count_per_l(self, name: str) -> float:
        return self._convert(name, units.count_per_litre)

    def mmhg_or_bare(self, name: str) -> float:
        """mm Hg from a [value, unit] pair or a bare number."""
        v = self._get(name)
        if isinstance(v, (list, tuple)):
            return self.pressure_mmhg(name)
        return _number(v, name)

    def percent(self, name: str) -> float:
        """A percentage: [36, '%'], a bare 36, or a bare fraction 0.36 (read as 36%)."""
        v = self._get(name)
        if isinstance(v, (list, tuple)) and len(v) == 2:
            if str(v[1]).strip() not in ("%", "percent"):
                raise EntityError(f"{name}: expected a percentage, got {v!r}")
            return _number(v[0], name)
        x = _number(v, name)
        return float(units.exact(x) * 100) if 0 < x <= 1 else x
