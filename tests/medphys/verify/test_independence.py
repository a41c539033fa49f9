"""The second implementation is independent: it imports nothing from the generator code."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import physbench.suites.medphys.verify.independent as independent

ALLOWED_PREFIXES = ("physbench.suites.medphys.verify.independent", "physbench.core")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import: stays inside the package
                names.append("physbench.suites.medphys.verify.independent")
            else:
                names.append(node.module or "")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "physbench." in node.value:
            names.append(node.value)  # dynamic imports by name
    return names


def test_independent_modules_import_only_stdlib_and_their_own_package():
    folder = Path(independent.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "physbench":
                assert name.startswith(ALLOWED_PREFIXES), f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "", f"{path.name} imports non-stdlib {name}"


def test_every_generator_has_an_independent_solver():
    from physbench.suites.medphys.generators import GENERATOR_NAMES

    folder = Path(independent.__file__).parent
    assert {p.stem for p in folder.glob("*.py")} >= set(GENERATOR_NAMES)
