"""A completion-style prompt for base (not instruction-tuned) checkpoints: worked examples in the
format the grader reads, then the item with its answer slot opened, and where the answer ends.

A suite offers one with `completion_prompt(item) -> CompletionPrompt | None`; a model that is a
base checkpoint (the embedded `local` model) uses it for an item's first turn instead of a chat
turn, and returns `prefix + generated + suffix` as the reply, so the grader reads a whole answer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CompletionPrompt:
    text: str                   # the examples and the item, ending with `prefix`
    prefix: str                 # the opened answer slot (already at the end of `text`)
    stop: tuple[str, ...]       # where the answer ends
    suffix: str = ""            # what closes the answer once a stop sequence is met
    max_tokens: int = 64

    def reply(self, generated: str) -> str:
        """The whole answer from what the model generated after the prefix."""
        return f"{self.prefix}{generated.strip()}{self.suffix}"
