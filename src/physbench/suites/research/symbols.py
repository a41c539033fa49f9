"""The arguments a step's `answer(...)` is called with: SymPy symbols with assumptions and sampling
domains, undefined functions, and plain numbers (CritPt's `answer(phi, k, k_value)`); `parse_symbols`
checks their JSON (the "args", "assumptions", "domain", "functions" and "values" keys of an ANSWER).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from physbench.suites.research.schema import Where, array, boolean, mapping, real, text
from physbench.suites.research.sympy_names import ASSUMPTIONS, is_plain_identifier


@dataclass(frozen=True)
class Symbols:
    """The SymPy symbols `answer` is called with: names, their assumptions and sampling domains."""

    args: tuple[str, ...] = ()
    assumptions: dict[str, dict[str, bool]] = field(default_factory=dict)
    domain: dict[str, tuple[float, float]] = field(default_factory=dict)
    functions: tuple[str, ...] = ()                      # arguments passed as sympy.Function(name)
    values: dict[str, Any] = field(default_factory=dict)  # arguments passed as plain numbers

    def call_args(self) -> tuple[Any, ...]:
        """What `answer(...)` is called with, in the sandbox's argument form."""
        from physbench.executor.values import SymbolArg

        out: list[Any] = []
        for name in self.args:
            if name in self.values:
                out.append(self.values[name])
            else:
                out.append(SymbolArg(name, tuple(sorted(self.assumptions.get(name, {}).items())),
                                     name in self.functions))
        return tuple(out)

    def symbol_names(self) -> tuple[str, ...]:
        """The arguments that are SymPy symbols (not functions, not plain values)."""
        return tuple(n for n in self.args if n not in self.functions and n not in self.values)

    def sampling_range(self, name: str) -> tuple[float, float]:
        """The domain given for `name`, else one that its assumptions allow."""
        if name in self.domain:
            return self.domain[name]
        a = self.assumptions.get(name, {})
        if a.get("positive") or a.get("nonnegative"):
            return (0.1, 5.0)
        if a.get("negative") or a.get("nonpositive"):
            return (-5.0, -0.1)
        return (-5.0, 5.0)

    def is_integer(self, name: str) -> bool:
        return bool(self.assumptions.get(name, {}).get("integer"))

    def integer_range(self, name: str) -> tuple[int, int]:
        """The integers an integer symbol is sampled from: its domain, else what its assumptions
        allow within [-6, 6] (documented default for an integer argument without a domain)."""
        if name in self.domain:
            lo, hi = self.domain[name]
            return math.ceil(lo), math.floor(hi)
        a = self.assumptions.get(name, {})
        if a.get("positive"):
            return 1, 6
        if a.get("nonnegative"):
            return 0, 6
        if a.get("negative"):
            return -6, -1
        if a.get("nonpositive"):
            return -6, 0
        return -6, 6

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"args": list(self.args)}
        if self.assumptions:
            out["assumptions"] = {k: dict(v) for k, v in self.assumptions.items()}
        if self.domain:
            out["domain"] = {k: list(v) for k, v in self.domain.items()}
        if self.functions:
            out["functions"] = list(self.functions)
        if self.values:
            out["values"] = dict(self.values)
        return out


def parse_symbols(d: dict, where: Where, outer: Symbols | None) -> Symbols:
    """The symbols an ANSWER object declares; `outer` holds a composite's, which its parts share."""
    if "args" not in d and outer is not None:
        if "assumptions" in d or "domain" in d:
            raise where.at("assumptions").fail("a part without its own args takes the composite's symbols")
        return outer
    args = array(d.get("args", []), where.at("args"), 0, 20)
    for i, name in enumerate(args):
        if not is_plain_identifier(name):
            raise where.at("args").at(i).fail(f"{name!r} is not a plain identifier")
    if len(set(args)) != len(args):
        raise where.at("args").fail("names an argument twice")
    if outer is not None and not set(args) <= set(outer.args):
        raise where.at("args").fail(f"a part's args must be among the composite's: {', '.join(outer.args)}")
    assumptions: dict[str, dict[str, bool]] = {}
    raw = mapping(d.get("assumptions", {}), where.at("assumptions"), args)
    for name, facts in raw.items():
        w = where.at("assumptions").at(name)
        mapping(facts, w, ASSUMPTIONS)
        assumptions[name] = {k: boolean(v, w.at(k)) for k, v in facts.items()}
    if outer is not None:
        for name in args:
            if name in outer.assumptions and assumptions.get(name, outer.assumptions[name]) != outer.assumptions[name]:
                raise where.at("assumptions").at(name).fail("differs from the composite's assumptions")
            assumptions.setdefault(name, outer.assumptions.get(name, {}))
    domain: dict[str, tuple[float, float]] = {}
    for name, rng in mapping(d.get("domain", {}), where.at("domain"), args).items():
        w = where.at("domain").at(name)
        lo, hi = (real(x, w.at(i)) for i, x in enumerate(array(rng, w, 2, 2)))
        if not lo < hi:
            raise w.fail("must be [low, high] with low < high")
        facts = assumptions.get(name, {})
        if (facts.get("positive") and lo <= 0) or (facts.get("nonnegative") and lo < 0) \
                or (facts.get("negative") and hi >= 0) or (facts.get("nonpositive") and hi > 0):
            raise w.fail("lies outside what the assumptions allow")
        if facts.get("integer") and math.floor(hi) - math.ceil(lo) < 2:
            raise w.fail("holds fewer than three integers to sample")
        domain[name] = (lo, hi)
    if outer is not None:
        domain = {**{k: v for k, v in outer.domain.items() if k in args}, **domain}
    functions = tuple(text(f, where.at("functions").at(i), 40)
                      for i, f in enumerate(array(d.get("functions", []), where.at("functions"), 0, 20)))
    values: dict[str, Any] = {}
    for name, v in mapping(d.get("values", {}), where.at("values"), args).items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise where.at("values").at(name).fail("must be a finite number")
        values[name] = v
    for i, f in enumerate(functions):
        if f not in args or f in values or assumptions.get(f) or f in domain:
            raise where.at("functions").at(i).fail(f"{f!r} must be an argument without assumptions, domain or value")
    if outer is not None:
        functions = tuple(f for f in outer.functions if f in args) + tuple(f for f in functions if f not in outer.functions)
        values = {**{k: v for k, v in outer.values.items() if k in args}, **values}
    return Symbols(tuple(args), {k: v for k, v in assumptions.items() if v}, domain, functions, values)
