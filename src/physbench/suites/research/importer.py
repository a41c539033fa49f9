"""`physbench research import`: official CritPt challenges -> physbench problem files (issue 37).

One problem file per challenge: the main problem becomes the `challenge` step, the subproblems
the checkpoints, in order; every step keeps its official id, question, code template, stated
answer and test cases. Where the answer is public and reads as a SymPy expression or a literal,
it becomes the step's ANSWER; otherwise the answer is `null` (unknown: the step is `ungraded`).

Symbols: a template argument keeps the assumptions its `sp.symbols(...)` call states. One with no
stated assumptions is taken as real and positive (DEFAULT_ASSUMPTIONS), and so is sampled over
(0.1, 5), the range positive symbols get: physical parameters in the templates (rates, masses,
couplings) are positive, and a real sample avoids branch cuts the template never meant.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from physbench.suites.research.exprtext import expression_problem
from physbench.suites.research.official import OfficialChallenge, OfficialError, OfficialStep, read_release
from physbench.suites.research.problem import parse_problem
from physbench.suites.research.schema import ProblemError
from physbench.suites.research.sympy_names import ASSUMPTIONS, is_plain_identifier

DEFAULT_ASSUMPTIONS = {"real": True, "positive": True}
_SYMPY_PREFIXES = ("sp.", "sympy.")


def problem_id(dataset: str) -> str:
    """The dataset name as a physbench id: letters, digits, '-' and '_' only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", dataset).strip("_")[:80] or "challenge"


def _answer_function(template: str) -> tuple[list[str], str | None, ast.Module] | None:
    """(argument names, the name `answer` returns, module) of a template, or None if it has none."""
    try:
        tree = ast.parse(template)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "answer"), None)
    if fn is None:
        return None
    args = [a.arg for a in fn.args.args]
    returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    name = returns[-1].id if returns and isinstance(returns[-1], ast.Name) else None
    return args, name, tree


def stated_assumptions(tree: ast.Module, names: list[str]) -> dict[str, dict[str, bool]]:
    """Assumptions given by module-level `x = sp.symbols('x', positive=True)` (or Symbol) calls."""
    out: dict[str, dict[str, bool]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if fname not in ("symbols", "Symbol"):
            continue
        facts = {k.arg: k.value.value for k in node.value.keywords
                 if k.arg in ASSUMPTIONS and isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)}
        targets = [t for target in node.targets
                   for t in (target.elts if isinstance(target, ast.Tuple) else [target]) if isinstance(t, ast.Name)]
        for t in targets:
            if t.id in names and facts:
                out[t.id] = dict(facts)
    return out


def _strip_sympy(node: ast.AST) -> ast.AST:
    """`sp.Rational(1, 2)` -> `Rational(1, 2)`: reference text names SymPy functions bare."""
    class Strip(ast.NodeTransformer):
        def visit_Attribute(self, n: ast.Attribute) -> Any:
            if isinstance(n.value, ast.Name) and n.value.id in ("sp", "sympy"):
                return ast.copy_location(ast.Name(n.attr, ast.Load()), n)
            return self.generic_visit(n)
    return Strip().visit(node)


def _literal_answer(value: Any) -> dict[str, Any] | None:
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, int):
        return {"type": "integer", "value": value}
    if isinstance(value, float):
        return {"type": "numeric", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, (tuple, list)) and 0 < len(value) <= 50:
        parts = [_literal_answer(v) for v in value]
        return {"type": "composite", "parts": parts} if all(parts) else None
    return None


def derive_answer(step: OfficialStep) -> tuple[dict[str, Any] | None, str]:
    """The step's ANSWER from its public answer code, and a note on how (or why not)."""
    code = step.answer_code.strip()
    if not code:
        return None, "answer not public"
    found = _answer_function(step.template)
    if found is None:
        return None, "template defines no answer()"
    args, returned, tree = found
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, "answer code is not Python"
    assigns = [n for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name)]
    if len(assigns) != len(body) or not assigns or (returned and assigns[-1].targets[0].id != returned):
        return None, "answer code is more than one assignment to the returned name"
    rhs = assigns[-1].value
    try:
        return _literal_answer(ast.literal_eval(rhs)) or None, "answer code is a literal"
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if not all(is_plain_identifier(a) for a in args):
        return None, "template arguments are not plain names"
    expr = ast.unparse(_strip_sympy(rhs))
    why = expression_problem(expr, set(args))
    if why:
        return None, f"answer code is not a reference expression ({why})"
    stated = stated_assumptions(tree, args)
    assumptions = {a: stated.get(a, dict(DEFAULT_ASSUMPTIONS)) for a in args}
    out: dict[str, Any] = {"type": "symbolic", "args": args, "expr": expr}
    if assumptions:
        out["assumptions"] = assumptions
    defaulted = [a for a in args if a not in stated]
    return out, ("symbolic; default assumptions (real, positive) for " + ", ".join(defaulted)) if defaulted \
        else "symbolic"


def _step_dict(step: OfficialStep, sid: str, notes: list[str]) -> dict[str, Any]:
    answer, how = derive_answer(step)
    notes.append(f"{step.problem_id}: {how}")
    out: dict[str, Any] = {"id": sid, "question": step.question or "(no question text)",
                           "template": step.template, "answer": answer, "official_id": step.problem_id}
    if step.answer_text:
        out["answer_text"] = step.answer_text
    if step.testcases:
        out["testcases"] = step.testcases
    return out


def problem_dict(ch: OfficialChallenge) -> dict[str, Any]:
    """The physbench problem file of one official challenge."""
    main = next(s for s in ch.steps if s.kind == "main")
    subs = [s for s in ch.steps if s.kind == "sub"]
    notes: list[str] = []
    d: dict[str, Any] = {
        "id": problem_id(ch.dataset), "title": f"CritPt {ch.dataset}", "areas": ch.tags,
        "setup": ch.setup or "(no setup text)",
        "challenge": _step_dict(main, "challenge", notes),
        "checkpoints": [_step_dict(s, f"checkpoint-{i + 1}", notes) for i, s in enumerate(subs)],
        "official": {"dataset": ch.dataset, "source": ch.source, "tags": ch.tags},
    }
    settings = {s.problem_id: s.settings for s in ch.steps if s.settings}
    if settings:
        notes.append("official settings: " + json.dumps(settings)[:2000])
    d["notes"] = "\n".join(notes)
    return d


def import_release(source: Path, out: Path) -> tuple[list[Path], list[str]]:
    """Write one problem file per readable challenge under `out`; (files written, one line per
    file or challenge that could not be read or does not load). Nothing is half-written: each
    file is checked by the problem loader before it is written."""
    written: list[Path] = []
    errors: list[str] = []
    ready: dict[str, tuple[dict[str, Any], str]] = {}
    for path, found in read_release(source):
        if isinstance(found, OfficialError):
            errors.append(str(found))
            continue
        for ch in found:
            d = problem_dict(ch)
            name = f"{d['id']}.json"
            try:
                parse_problem(d, name)
            except ProblemError as exc:
                errors.append(f"{path}: {exc}")
                continue
            if name in ready:
                errors.append(f"{path}: challenge {ch.dataset!r} was already read from {ready[name][1]}")
                continue
            ready[name] = (d, str(path))
    out.mkdir(parents=True, exist_ok=True)
    for name, (d, _) in sorted(ready.items()):
        target = out / name
        tmp = target.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(target)
        written.append(target)
    return written, errors
