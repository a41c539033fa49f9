"""Take the code that defines `answer` out of a formatting reply (002_* section 3.2).

Fenced blocks (``` or ```python) are preferred, the last one that defines `answer`; otherwise the
text from the first line that starts code (import/from/def answer) is taken and trailing prose
lines are dropped until it parses. Bounded: at most MAX_REPLY_CHARS are looked at.
"""

from __future__ import annotations

import ast
import re

MAX_REPLY_CHARS = 64_000
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.S)
_CODE_START = re.compile(r"^(import |from |def answer\b|@)", re.M)
MAX_TRIMS = 200


def _defines_answer(code: str) -> bool:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "answer" for n in tree.body)


def extract_code(reply: object) -> str | None:
    """The program text that defines top-level `answer`, or None when there is none."""
    if not isinstance(reply, str) or not reply.strip():
        return None
    text = reply[:MAX_REPLY_CHARS].replace("\r\n", "\n")
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    for block in reversed(blocks):
        if _defines_answer(block):
            return block.strip("\n") + "\n"
    start = _CODE_START.search(text)
    if start is None:
        return None
    lines = text[start.start():].split("\n")
    for _ in range(min(MAX_TRIMS, len(lines))):
        code = "\n".join(lines).replace("```", "")
        if _defines_answer(code):
            return code.strip("\n") + "\n"
        lines.pop()
        if not lines:
            break
    return None


def foreign_imports(code: str, allowed: frozenset[str]) -> list[str]:
    """Top-level module names `code` imports beyond `allowed` (relative imports count as foreign)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    bad: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [a.name for a in node.names if a.name.split(".")[0] not in allowed]
        elif isinstance(node, ast.ImportFrom):
            top = (node.module or "").split(".")[0]
            if node.level or top not in allowed:
                bad.append("." * node.level + (node.module or ""))
    return bad
