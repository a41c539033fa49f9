"""The wording the research suite sends, in physbench's own words, in the structure CritPt uses.

CritPt's structure (002_* Section 3.1; the official generation code): a system prompt asking for a
step-by-step derivation, LaTeX, the problem's conventions, a closing final-answer line, and
(unless the problem says otherwise) an exact result or at least 12 significant digits; then the
problem; then, in a second turn, a request to fill the code template with that answer and
nothing more. Under oracle carryover each later checkpoint is shown after the earlier ones and
their expert answers.

`--prompts FILE` (item option `prompts`) replaces any of the texts: a JSON object with keys from
PROMPT_KEYS, each a string; `{template}` and `{answer}` mark where the code template and the
expert answer go. The file's SHA-256 enters every item's parameters, so a run records which
wording it used.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from physbench.core.errors import UserError

SYSTEM = """You are a physicist working on research-level problems. Solve them with careful, explicit reasoning.

The problem is given in Markdown. In your reply:
1. Derive the result step by step; justify each non-trivial step by the physical law, theorem or identity it uses.
2. Write all mathematics in LaTeX: $...$ inline and $$...$$ for displayed equations.
3. Keep to the units and conventions the problem sets.
4. End with a new line that begins with "Final Answer:" followed by the result. Give it with the precision the problem asks for; if it asks for none, give an exact expression where one exists (such as $\\sqrt{2}$ or $\\pi/4$) and otherwise at least 12 significant digits.
5. If you are asked for the answer in a particular format (code, a table), give it in that format."""

SYSTEM_TOOLS_NOTE = ("\n\nYou may run Python code with the tool provided to check algebra or compute numbers; "
                     "state in your derivation what each computation established.")

FORMAT = """Now put your final answer into the code template below. This step only formats the result: do no new derivation and change nothing in the physics. Import no module beyond those the template imports, and reply with the complete code in one fenced block.

```python
{template}
```"""

CARRYOVER = """Expert answer to this checkpoint:
{answer}"""

NEXT = "Now solve the next checkpoint."

PROMPT_KEYS = ("system", "system_tools_note", "format", "carryover", "next")
MAX_PROMPT_CHARS = 20_000


@dataclass(frozen=True)
class Prompts:
    system: str = SYSTEM
    system_tools_note: str = SYSTEM_TOOLS_NOTE
    format: str = FORMAT
    carryover: str = CARRYOVER
    next: str = NEXT
    sha256: str = ""           # of the user's file; empty for the built-in wording

    def format_turn(self, template: str) -> str:
        return self.format.replace("{template}", template.rstrip("\n"))

    def expert_answer(self, answer: str) -> str:
        return self.carryover.replace("{answer}", answer.strip())


DEFAULT = Prompts()


def load_prompts(path: str | None) -> Prompts:
    """The built-in wording, or a user's file read whole and checked (one line and exit 2 if bad)."""
    if not path:
        return DEFAULT
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise UserError(f"--prompts {path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > 10 * MAX_PROMPT_CHARS:
        raise UserError(f"--prompts {path}: {len(raw)} bytes; the limit is {10 * MAX_PROMPT_CHARS}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UserError(f"--prompts {path}: not a JSON object of texts (keys: {', '.join(PROMPT_KEYS)})") from None
    if not isinstance(data, dict) or not data:
        raise UserError(f"--prompts {path}: not a JSON object of texts (keys: {', '.join(PROMPT_KEYS)})")
    for key, value in data.items():
        if key not in PROMPT_KEYS:
            raise UserError(f"--prompts {path}: unknown key {key!r} (known: {', '.join(PROMPT_KEYS)})")
        if not isinstance(value, str) or len(value) > MAX_PROMPT_CHARS:
            raise UserError(f"--prompts {path}: {key!r} must be text of at most {MAX_PROMPT_CHARS} characters")
    if "format" in data and "{template}" not in data["format"]:
        raise UserError(f"--prompts {path}: 'format' must contain {{template}}, where the code template goes")
    if "carryover" in data and "{answer}" not in data["carryover"]:
        raise UserError(f"--prompts {path}: 'carryover' must contain {{answer}}, where the expert answer goes")
    return Prompts(**data, sha256=hashlib.sha256(raw).hexdigest())
