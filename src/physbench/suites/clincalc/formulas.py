"""The 55 formula texts (data/formulas.md) and a check that each carries its calculator's constants.

`constants_used(calc_id)` reads the numeric literals of the calculator's function and of every
module-level helper, table and constant it reaches (plus the molar masses of the analytes it names),
so the check fails as soon as a function uses a number its text does not state.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
import textwrap
from functools import lru_cache
from importlib import resources
from types import FunctionType, ModuleType

from physbench.suites.clincalc import units
from physbench.suites.clincalc.answers import _NUMBER
from physbench.suites.clincalc.formula_version import DEFAULT, VERSIONS

CONVENTIONS = 0  # section 0: unit conversions and shared conventions
_HEADER = re.compile(r"^## (\d+) \| (.+)$", re.MULTILINE)
_PACKAGE = "physbench.suites.clincalc"


@lru_cache(maxsize=1)
def sections() -> dict[int, tuple[str, str]]:
    """Section id -> (title, text)."""
    raw = (resources.files(_PACKAGE) / "data" / "formulas.md").read_text("utf-8")
    heads = list(_HEADER.finditer(raw))
    out: dict[int, tuple[str, str]] = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(raw)
        out[int(m.group(1))] = (m.group(2).strip(), raw[m.end():end].strip())
    return out


def formula_text(calc_id: int, formulas: str = DEFAULT) -> str:
    """The formula text of one calculator (without the shared conventions); under `benchmark` it adds
    how the benchmark's code departs from the rule (each erratum's `rule`)."""
    text = sections()[int(calc_id)][1]
    rules = _benchmark_rules(int(calc_id)) if _checked(formulas) == "benchmark" else []
    return text + "".join(f"\nAs the benchmark computes it: {r}" for r in rules)


def conventions_text(formulas: str = DEFAULT) -> str:
    text = sections()[CONVENTIONS][1]
    rules = _benchmark_rules(0) if _checked(formulas) == "benchmark" else []
    return text + "".join(f"\nAs the benchmark computes it: {r}" for r in rules)


def _checked(formulas: str) -> str:
    if formulas not in VERSIONS:
        raise ValueError(f"unknown formula version {formulas!r} (one of {', '.join(VERSIONS)})")
    return formulas


@lru_cache(maxsize=None)
def _benchmark_rules(calc_id: int) -> list[str]:
    """The `rule` of each erratum of this calculator (0: the ones that touch every calculator)."""
    raw = json.loads((resources.files(_PACKAGE) / "data" / "errata.json").read_text("utf-8"))
    out = []
    for e in raw["errata"]:
        ids = [int(e["calculator_id"]), *map(int, e.get("calculator_ids", ()))]
        if calc_id in ids and (calc_id or not e.get("calculator_ids")):
            out.append(e["rule"])
    return out


def numbers_in(text: str) -> set[float]:
    """Every number written in a text, as absolute values."""
    return {abs(float(m.group(0).replace(",", ""))) for m in _NUMBER.finditer(text.replace("−", "-"))}


def _top_level(module: ModuleType) -> dict[str, ast.AST]:
    return _top_level_of(module.__name__)


@lru_cache(maxsize=None)
def _top_level_of(module_name: str) -> dict[str, ast.AST]:
    out: dict[str, ast.AST] = {}
    for node in ast.parse(inspect.getsource(sys.modules[module_name])).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
    return out


def _literals(node: ast.AST) -> tuple[set[float], set[str], set[str]]:
    """Numbers (absolute), strings and names in a syntax tree; decorators are skipped."""
    nums, strings, names = set(), set(), set()
    nodes = [node]
    if isinstance(node, ast.FunctionDef):
        nodes = node.body + [a for a in node.args.defaults]  # not the decorator's metadata
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool):
                nums.add(abs(float(n.value)))
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                strings.add(n.value)
            elif isinstance(n, ast.Name):
                names.add(n.id)
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                names.add(f"{n.value.id}.{n.attr}")
    return nums, strings, names


def constants_used(calc_id: int) -> set[float]:
    """Every numeric constant calculator `calc_id` computes with (0 excluded: it only bounds inputs)."""
    formula, analytes = constants_by_origin(calc_id)
    return formula | analytes


def constants_by_origin(calc_id: int) -> tuple[set[float], set[float]]:
    """(the constants written in the calculator's code, the molar masses and valences of its analytes)."""
    from physbench.suites.clincalc.calculators import get

    fn = get(calc_id).fn
    seen: set[tuple[str, str]] = set()
    nums: set[float] = set()
    strings: set[str] = set()
    todo = [(sys.modules[fn.__module__], fn.__name__)]
    while todo:
        module, name = todo.pop()
        if (module.__name__, name) in seen:
            continue
        seen.add((module.__name__, name))
        node = _top_level(module).get(name)
        if node is None:
            continue
        n, s, refs = _literals(node)
        nums |= n
        strings |= s
        for ref in refs:
            head, _, attr = ref.partition(".")
            obj = module.__dict__.get(head)
            if attr and isinstance(obj, ModuleType) and obj.__name__.startswith(_PACKAGE + ".calculators"):
                todo.append((obj, attr))
            elif isinstance(obj, FunctionType) and obj.__module__.startswith(_PACKAGE + ".calculators"):
                todo.append((sys.modules[obj.__module__], obj.__name__))
            elif not attr and head in _top_level(module) and not isinstance(obj, (type, ModuleType)):
                todo.append((module, head))
    analytes: set[float] = set()
    for s in strings:
        if s in units.ANALYTES:
            a = units.ANALYTES[s]
            analytes.add(a.molar_mass)
            if a.valence:
                analytes.add(float(a.valence))
    nums.discard(0.0)
    return nums, analytes


def conversion_constants() -> set[float]:
    """The constants of the unit conversions (the conventions section must state them all)."""
    nums: set[float] = set()
    for fn in (units.weight_kg, units.height_cm, units.temperature_c, units.pressure_mmhg):
        nums |= _literals(ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0])[0]
    nums |= {abs(v) for v in (*units._MASS.values(), *units._MOL.values(), *units._EQ.values(),
                              *units._VOLUME.values())}
    nums |= {a.molar_mass for a in units.ANALYTES.values()} | {float(a.valence) for a in units.ANALYTES.values()}
    nums.discard(0.0)
    return nums


def missing_constants(calc_id: int) -> list[float]:
    """Constants the calculator uses that its text does not state (a molar mass or valence may be
    stated in the conventions section instead)."""
    formula, analytes = constants_by_origin(calc_id)
    own = numbers_in(formula_text(calc_id))
    shared = own | numbers_in(conventions_text())
    return sorted({c for c in formula if not any(_same(c, s) for s in own)}
                  | {c for c in analytes if not any(_same(c, s) for s in shared)})


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))
