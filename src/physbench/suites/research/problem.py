"""Research problems: one JSON file per challenge, a folder is a problem set (issues 15, 37).

    {"id", "title", "areas": [...], "setup": markdown, "system_prompt"?: text,
     "challenge": STEP, "checkpoints": [STEP, ...], "official"?: {...}}      # 0-12 checkpoints
    STEP = {"id", "question", "template", "answer": ANSWER | null, "limits"?: {"wall_s", "memory_mb"},
            "official_id"?, "answer_text"?, "testcases"?}

An answer of null is unknown (CritPt's 70 test challenges keep theirs private): the step is
asked and stored like any other and graded `ungraded`. `official_id` is the id the official
grading server knows the step by; `answer_text` is the expert answer as the problem states it
(what oracle carryover shows). Limits a file asks for are capped by the user's ceilings
(`Ceilings`, issue 33 item 8): a problem set from elsewhere cannot raise them.
`load_problem` checks every field; each error is one line naming the file and the field.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from physbench.suites.research.answer_types import Answer
from physbench.suites.research.answers import parse_answer
from physbench.suites.research.schema import ProblemError, Where, array, integer, mapping, real, text
from physbench.suites.research.sympy_names import is_plain_identifier

MAX_FILE_BYTES = 1_000_000
ALLOWED_IMPORTS = frozenset({"math", "numpy", "scipy", "sympy"})   # issue 15: the template's modules
DEFAULT_WALL_S = 30.0          # 002_* section 3.2: model code runs with a 30 s wall clock
DEFAULT_MEMORY_MB = 1024
MAX_CHECKPOINTS = 12
CEILING_WALL_S = 60.0          # what a problem file may ask for unless the user raises the ceiling
CEILING_MEMORY_MB = 4096


@dataclass(frozen=True)
class Ceilings:
    """The most wall clock and memory any step may have, whatever its file asks (user-set)."""

    wall_s: float = CEILING_WALL_S
    memory_mb: int = CEILING_MEMORY_MB


@dataclass(frozen=True)
class Step:
    id: str
    question: str
    template: str
    answer: Answer | None
    wall_s: float = DEFAULT_WALL_S
    memory_mb: int = DEFAULT_MEMORY_MB
    official_id: str | None = None
    answer_text: str | None = None
    testcases: tuple[Any, ...] = ()
    asked_limits: tuple[float, int] | None = None   # (wall_s, memory_mb) the file asked for, when capped

    @property
    def graded(self) -> bool:
        """False for a step whose answer is unknown (its outcome is `ungraded`)."""
        return self.answer is not None

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


def _step(d: Any, where: Where, expected_id: str, ceilings: Ceilings) -> Step:
    mapping(d, where, ("id", "question", "template", "answer", "limits", "official_id", "answer_text", "testcases"),
            ("id", "question", "template", "answer"))
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
    answer = None if d["answer"] is None else parse_answer(d["answer"], where.at("answer"))
    limits = mapping(d.get("limits", {}), where.at("limits"), ("wall_s", "memory_mb"))
    wall = real(limits.get("wall_s", DEFAULT_WALL_S), where.at("limits").at("wall_s"), 1.0, 600.0)
    mem = integer(limits.get("memory_mb", DEFAULT_MEMORY_MB), where.at("limits").at("memory_mb"), 64, 65_536)
    capped = (wall, mem) if wall > ceilings.wall_s or mem > ceilings.memory_mb else None
    official = text(d["official_id"], where.at("official_id"), 200) if "official_id" in d else None
    answer_text = text(d["answer_text"], where.at("answer_text"), 20_000) if "answer_text" in d else None
    tests = tuple(array(d.get("testcases", []), where.at("testcases"), 0, 1_000))
    return Step(sid, question, template, answer, min(wall, ceilings.wall_s), min(mem, ceilings.memory_mb),
                official, answer_text, tests, capped)


def parse_problem(d: Any, file: str, ceilings: Ceilings = Ceilings()) -> Problem:
    where = Where(file)
    mapping(d, where, ("id", "title", "areas", "setup", "system_prompt", "challenge", "checkpoints",
                       "source", "notes", "official"), ("id", "title", "areas", "setup", "challenge", "checkpoints"))
    pid = text(d["id"], where.at("id"), 80)
    if not all(is_plain_identifier(part) or part.isdigit() for part in pid.replace("-", "_").split("_") if part):
        raise where.at("id").fail(f"{pid!r} must be letters, digits, '-' and '_'")
    title = text(d["title"], where.at("title"), 300)
    areas = tuple(text(a, where.at("areas").at(i), 100) for i, a in enumerate(array(d["areas"], where.at("areas"), 0, 10)))
    setup = text(d["setup"], where.at("setup"), 100_000)
    system = text(d["system_prompt"], where.at("system_prompt"), 20_000) if "system_prompt" in d else None
    challenge = _step(d["challenge"], where.at("challenge"), "challenge", ceilings)
    raw = array(d["checkpoints"], where.at("checkpoints"), 0, MAX_CHECKPOINTS)
    checkpoints = tuple(_step(c, where.at("checkpoints").at(i), f"checkpoint-{i + 1}", ceilings)
                        for i, c in enumerate(raw))
    if "official" in d:
        mapping(d["official"], where.at("official"), ("dataset", "source", "tags", "licence"))
    extra = {k: d[k] for k in ("source", "notes", "official") if k in d}
    return Problem(pid, title, areas, setup, challenge, checkpoints, system, file, extra)


def load_problem(path: str | Path, ceilings: Ceilings = Ceilings()) -> Problem:
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
    return parse_problem(data, p.name, ceilings)


SHIPPED_SETS = {"tutorial": "problems", "critpt-example": "critpt_example"}
DEFAULT_SET = "tutorial"


def shipped_dir(name: str = "tutorial") -> Path:
    """A problem set that ships with the package: `tutorial` (six textbook-level problems written
    for physbench) or `critpt-example` (CritPt's official example challenge, Apache-2.0)."""
    return Path(__file__).with_name(SHIPPED_SETS[name])


def set_dir(folder: str | Path | None) -> Path:
    """The folder of a problem set: a shipped set by name, a path, or the default set for None."""
    if folder is None:
        return shipped_dir(DEFAULT_SET)
    return shipped_dir(str(folder)) if str(folder) in SHIPPED_SETS else Path(folder)


def load_set(folder: str | Path | None = None, ceilings: Ceilings = Ceilings()) -> list[Problem]:
    """Every *.json problem in `folder` (a shipped set's name, a path, or the tutorial set by
    default), sorted by file name; ids unique."""
    d = set_dir(folder)
    if not d.is_dir():
        raise ProblemError(f"{d}: not a folder of problem files")
    problems = [load_problem(f, ceilings) for f in sorted(d.glob("*.json"))]
    if not problems:
        raise ProblemError(f"{d}: holds no *.json problem files")
    seen: dict[str, str] = {}
    for pr in problems:
        if pr.id in seen:
            raise ProblemError(f"{pr.file}: id: {pr.id!r} is also the id of {seen[pr.id]}")
        seen[pr.id] = pr.file
    return problems
