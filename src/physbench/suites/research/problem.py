"""Research problems: one JSON file per challenge, a folder is a problem set (issue 15).

    {"id", "title", "areas": [...], "setup": markdown, "system_prompt"?: text,
     "challenge": STEP, "checkpoints": [STEP, ...]}             # 2-4 checkpoints
    STEP = {"id", "question", "template", "answer": ANSWER, "limits"?: {"wall_s", "memory_mb"}}

`load_problem` checks every field; each error is one line naming the file and the field.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from physbench.suites.research.answers import Answer, parse_answer
from physbench.suites.research.schema import ProblemError, Where, array, integer, mapping, real, text
from physbench.suites.research.sympy_names import is_plain_identifier

MAX_FILE_BYTES = 1_000_000
ALLOWED_IMPORTS = frozenset({"math", "numpy", "scipy", "sympy"})   # issue 15: the template's modules
DEFAULT_WALL_S = 30.0          # 002_* section 3.2: model code runs with a 30 s wall clock
DEFAULT_MEMORY_MB = 1024


@dataclass(frozen=True)
class Step:
    id: str
    question: str
    template: str
    answer: Answer
    wall_s: float = DEFAULT_WALL_S
    memory_mb: int = DEFAULT_MEMORY_MB

    def template_imports(self) -> frozenset[str]:
        """Top-level module names the template imports: the only ones model code may import."""
        return template_imports(self.template)


@dataclass(frozen=True)
class Problem:
    id: str
    title: str
    areas: tuple[str, ...]
    setup: str
    challenge: Step
    checkpoints: tuple[Step, ...]
    system_prompt: str | None = None
    file: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def step(self, step_id: str) -> Step:
        for s in (self.challenge, *self.checkpoints):
            if s.id == step_id:
                return s
        known = ", ".join(s.id for s in (self.challenge, *self.checkpoints))
        raise ProblemError(f"{self.file}: problem {self.id!r} has no step {step_id!r} (steps: {known})")


def template_imports(code: str) -> frozenset[str]:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return frozenset(names)


def _step(d: Any, where: Where, expected_id: str) -> Step:
    mapping(d, where, ("id", "question", "template", "answer", "limits"), ("id", "question", "template", "answer"))
    sid = text(d["id"], where.at("id"), 40)
    if sid != expected_id:
        raise where.at("id").fail(f"must be {expected_id!r} here, not {sid!r}")
    question = text(d["question"], where.at("question"), 50_000)
    template = text(d["template"], where.at("template"), 16_000)
    try:
        tree = ast.parse(template)
    except SyntaxError as exc:
        raise where.at("template").fail(f"is not Python: {exc.msg} (line {exc.lineno})") from None
    if not any(isinstance(n, ast.FunctionDef) and n.name == "answer" for n in tree.body):
        raise where.at("template").fail("defines no top-level function answer(...)")
    bad = sorted(template_imports(template) - ALLOWED_IMPORTS)
    if bad:
        raise where.at("template").fail(f"imports {bad[0]!r}; templates may import only "
                                        f"{', '.join(sorted(ALLOWED_IMPORTS))}")
    answer = parse_answer(d["answer"], where.at("answer"))
    limits = mapping(d.get("limits", {}), where.at("limits"), ("wall_s", "memory_mb"))
    wall = real(limits.get("wall_s", DEFAULT_WALL_S), where.at("limits").at("wall_s"), 1.0, 600.0)
    mem = integer(limits.get("memory_mb", DEFAULT_MEMORY_MB), where.at("limits").at("memory_mb"), 64, 65_536)
    return Step(sid, question, template, answer, wall, mem)


def parse_problem(d: Any, file: str) -> Problem:
    where = Where(file)
    mapping(d, where, ("id", "title", "areas", "setup", "system_prompt", "challenge", "checkpoints",
                       "source", "notes"), ("id", "title", "areas", "setup", "challenge", "checkpoints"))
    pid = text(d["id"], where.at("id"), 80)
    if not all(is_plain_identifier(part) or part.isdigit() for part in pid.replace("-", "_").split("_") if part):
        raise where.at("id").fail(f"{pid!r} must be letters, digits, '-' and '_'")
    title = text(d["title"], where.at("title"), 300)
    areas = tuple(text(a, where.at("areas").at(i), 100) for i, a in enumerate(array(d["areas"], where.at("areas"), 1, 10)))
    setup = text(d["setup"], where.at("setup"), 100_000)
    system = text(d["system_prompt"], where.at("system_prompt"), 20_000) if "system_prompt" in d else None
    challenge = _step(d["challenge"], where.at("challenge"), "challenge")
    raw = array(d["checkpoints"], where.at("checkpoints"), 2, 4)
    checkpoints = tuple(_step(c, where.at("checkpoints").at(i), f"checkpoint-{i + 1}") for i, c in enumerate(raw))
    extra = {k: d[k] for k in ("source", "notes") if k in d}
    return Problem(pid, title, areas, setup, challenge, checkpoints, system, file, extra)


def load_problem(path: str | Path) -> Problem:
    """Read and check one problem file; any fault is a one-line ProblemError naming it."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ProblemError(f"{p.name}: file is {size} bytes; the limit is {MAX_FILE_BYTES}")
        raw = p.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ProblemError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ProblemError(f"{p.name}: not UTF-8 text") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProblemError(f"{p.name}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise ProblemError(f"{p.name}: JSON nested too deeply") from None
    return parse_problem(data, p.name)


def shipped_dir() -> Path:
    return Path(__file__).with_name("problems")


def load_set(folder: str | Path | None = None) -> list[Problem]:
    """Every *.json problem in `folder` (the shipped set by default), sorted by file name; ids unique."""
    d = Path(folder) if folder is not None else shipped_dir()
    if not d.is_dir():
        raise ProblemError(f"{d}: not a folder of problem files")
    problems = [load_problem(f) for f in sorted(d.glob("*.json"))]
    if not problems:
        raise ProblemError(f"{d}: holds no *.json problem files")
    seen: dict[str, str] = {}
    for pr in problems:
        if pr.id in seen:
            raise ProblemError(f"{pr.file}: id: {pr.id!r} is also the id of {seen[pr.id]}")
        seen[pr.id] = pr.file
    return problems
