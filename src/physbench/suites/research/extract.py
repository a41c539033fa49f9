"""Take the code that defines `answer` out of a formatting reply (002_* section 3.2).

Fenced blocks (``` or ```python) are preferred, the last one that defines `answer`; otherwise the
text from the first line that starts code (import/from/def answer) is taken up to the first
unindented line of prose (a reply laid out as `Solution Code` / code / `Explanation`), and failing
that, trailing lines are dropped until it parses. Bounded: at most MAX_REPLY_CHARS are looked at.
"""

from __future__ import annotations

import ast
import re

MAX_REPLY_CHARS = 64_000
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.S)
_CODE_START = re.compile(r"^(import |from |def answer\b|@)", re.M)
# an unindented line that can open a Python statement; any other unindented line ends unfenced code
_CODE_LINE = re.compile(r"^(import |from |def |class |@|#|return\b|if |elif |else:|for |while |with |try:|except|"
                        r"finally:|raise |assert |pass\b|print\(|[A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*"
                        r"\s*(=|\+=|-=|\*=|/=|\(|\[|\.))")
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
    code = _until_prose(lines)
    if _defines_answer(code):  # `Solution Code` / code / `Explanation` ...: the prose after is not code
        return code.strip("\n") + "\n"
    for _ in range(min(MAX_TRIMS, len(lines))):
        code = "\n".join(lines).replace("```", "")
        if _defines_answer(code):
            return code.strip("\n") + "\n"
        lines.pop()
        if not lines:
            break
    return None


def _until_prose(lines: list[str]) -> str:
    """The lines up to the first unindented one that cannot open a Python statement."""
    kept: list[str] = []
    for line in lines:
        if line.strip() and not line[0].isspace() and not _CODE_LINE.match(line):
            break
        kept.append(line)
    return "\n".join(kept).replace("```", "")


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
