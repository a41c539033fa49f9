"""Completion prompts for base checkpoints (issue 16): two worked examples of the same generator,
level and kind, answered by the reference solver, then the item with its answer slot opened.

The examples are draws outside every split (seeds 7000 and 7001; dev uses 0-9, targeted tests start
at 1000 and the test split's seeds come from the key); for checking items one example is clean and
one has a planted error, so a verdict is never given away by the examples alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from physbench.models.completion import CompletionPrompt

if TYPE_CHECKING:
    from physbench.core.items import Item

EXAMPLE_SEEDS = (7000, 7001)  # (clean, planted)
CALC_PREFIX = "\\boxed{"
CHECK_PREFIX = '```json\n{"verdict": "'


def _block(item: "Item", answer: str) -> str:
    question = "\n\n".join(m.content for m in item.messages if m.role == "user")
    return f"Question:\n{question.strip()}\n\nAnswer: {answer}"


@lru_cache(maxsize=256)
def _examples(generator: str, level: int, kind: str, version: str) -> tuple[str, ...]:
    from physbench.suites.medphys.generators import get_generator
    from physbench.suites.medphys.scripted import oracle_answer
    from physbench.suites.medphys.splits import draw_items

    gen = get_generator(generator)
    out = []
    for seed, planted in zip(EXAMPLE_SEEDS, (False, True)):
        match = [i for i in draw_items(gen, level, seed, planted=planted, version=version) if i.kind == kind]
        out += [_block(i, oracle_answer(i) or "").strip() for i in match]
    return tuple(out)


def completion_prompt(item: "Item") -> CompletionPrompt | None:
    """The few-shot completion prompt of a medphys item (None for an item outside the generators)."""
    meta = item.meta
    try:
        examples = _examples(str(meta["generator"]), int(meta["level"]), item.kind,
                             str(meta.get("benchmark_version") or "1.1"))
    except (KeyError, ValueError, TypeError):
        return None
    system = next((m.content for m in item.messages if m.role == "system"), "")
    if item.kind == "calculation":
        prefix, stop, suffix = CALC_PREFIX, ("}", "\n"), "}"
    else:
        prefix, stop, suffix = CHECK_PREFIX, ("}", "\n\n"), "}\n```"
    body = "\n\n".join([system.strip(), *examples, _block(item, prefix)])
    return CompletionPrompt(text=body, prefix=prefix, stop=stop, suffix=suffix,
                            max_tokens=24 if item.kind == "calculation" else 48)
