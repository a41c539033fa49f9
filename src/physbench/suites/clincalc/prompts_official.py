"""The official MedCalc-Bench prompt styles as arms, in physbench's own wording: a direct answer, zero-shot
chain of thought, and one-shot chain of thought with a worked example of the same calculator; each asks
for a JSON reply with an "answer" field, the form the official scoring reads.

`--option prompts=FILE` swaps in a user's own copy of the official wording: a JSON object whose keys are
styles (direct, zero_shot, one_shot), each {"system": ..., "user": ...}; the placeholders {note},
{question}, {example_note}, {example_question} and {example_output} are filled in (nothing else is).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from physbench.core.errors import UserError

STYLES = {"official-direct": "direct", "official-zero-shot": "zero_shot", "official-one-shot": "one_shot"}
PLACEHOLDERS = ("{note}", "{question}", "{example_note}", "{example_question}", "{example_output}")
MAX_PROMPTS_BYTES = 1_000_000

_ROLE = "You work out a clinical calculation (a score, a lab value, a dose or a date) from a patient note."
_JSON_ANSWER = 'Reply with one JSON object and nothing else: {"answer": "<the value>"}.'
_JSON_STEPS = ('Think it through step by step, then reply with one JSON object and nothing else: '
               '{"step_by_step_thinking": "<your reasoning>", "answer": "<the value>"}.')
_CASE = "Patient note:\n{note}\n\nTask:\n{question}\n\n"
OWN: dict[str, dict[str, str]] = {
    "direct": {"system": f"{_ROLE} {_JSON_ANSWER}", "user": _CASE + _JSON_ANSWER},
    "zero_shot": {"system": f"{_ROLE} {_JSON_STEPS}", "user": _CASE + _JSON_STEPS},
    "one_shot": {"system": (f"{_ROLE} {_JSON_STEPS}\n\nA solved example.\n\nExample note:\n{{example_note}}\n\n"
                            "Example task:\n{example_question}\n\nExample reply:\n{example_output}"),
                 "user": _CASE + _JSON_STEPS},
}


def load_prompts(path: str | Path) -> dict[str, dict[str, str]]:
    """A user's prompt file, checked: styles it names replace ours, the others stay ours."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_PROMPTS_BYTES:
            raise UserError(f"{p}: a prompts file is at most {MAX_PROMPTS_BYTES} bytes")
        raw = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read prompts {p}: {getattr(exc, 'strerror', None) or type(exc).__name__}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{p}: not JSON ({exc.msg})") from None
    if not isinstance(raw, dict) or not raw:
        raise UserError(f"{p}: expected an object of styles ({', '.join(OWN)})")
    out = {k: dict(v) for k, v in OWN.items()}
    for style, pair in raw.items():
        if style not in OWN:
            raise UserError(f"{p}: unknown style {style!r} (one of {', '.join(OWN)})")
        if not isinstance(pair, dict) or set(pair) - {"system", "user"} or \
                not all(isinstance(pair.get(k, ""), str) for k in ("system", "user")):
            raise UserError(f"{p}: style {style!r} must be {{\"system\": text, \"user\": text}}")
        out[style].update(pair)
    return out


_SLOT = re.compile(r"\{(note|question|example_note|example_question|example_output)\}")


def _fill(template: str, values: Mapping[str, str]) -> str:
    """One pass: a note that itself contains '{question}' is not filled again."""
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), template)


@lru_cache(maxsize=1)
def _one_shot_rows() -> dict[int, Any]:
    from physbench.suites.clincalc.dataset import load_one_shot

    return {r.calculator_id: r for r in load_one_shot().rows}


def worked_example(row: Any) -> tuple[str, str, str]:
    """(note, question, JSON reply) of a solved case of the same calculator: its one-shot row, or, when the
    case is that row, a synthetic case, so the example never is the case itself."""
    example = _one_shot_rows().get(row.calculator_id)
    if example is None or example.patient_note.strip() == row.patient_note.strip():
        from physbench.suites.clincalc.calculators import get
        from physbench.suites.clincalc.synth import synth_case

        example = synth_case(get(row.calculator_id), 1, 0, 0, row.question)
    reply = json.dumps({"step_by_step_thinking": example.explanation, "answer": example.ground_truth},
                       ensure_ascii=False)
    return example.patient_note, example.question, reply


def messages(row: Any, arm: str, prompts: Mapping[str, Mapping[str, str]] | None = None) -> tuple[str, str]:
    """(system, user) of one row in an official style (our wording, or the user's file)."""
    style = STYLES[arm]
    pair = (prompts or OWN)[style]
    values = {"note": row.patient_note, "question": row.question}
    if style == "one_shot":
        values.update(zip(("example_note", "example_question", "example_output"), worked_example(row)))
    return _fill(pair["system"], values), _fill(pair["user"], values)


def oracle_reply(gold: str) -> str:
    return json.dumps({"step_by_step_thinking": "From the note.", "answer": gold})
