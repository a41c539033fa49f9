"""Price tables: USD per million prompt and completion tokens, by model name, read from JSON.

File shape: {"MODEL": {"input": USD_PER_MTOK, "output": USD_PER_MTOK, "cached_input": USD_PER_MTOK},
...}; "cached_input" (optional) prices the prompt tokens served from the provider's cache
(usage `cached_tokens`); a "*" entry applies to any model not named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from physbench.core.errors import UserError


@dataclass(frozen=True)
class Price:
    input_per_mtok: float
    output_per_mtok: float
    cached_input_per_mtok: float | None = None  # None: cached prompt tokens cost the input price

    def cost(self, usage: Mapping[str, int]) -> float | None:
        """USD for one completion's usage; None when the usage lacks token counts."""
        if "prompt_tokens" not in usage or "completion_tokens" not in usage:
            return None
        prompt = usage["prompt_tokens"]
        cached = min(max(int(usage.get("cached_tokens", 0)), 0), prompt) if self.cached_input_per_mtok is not None else 0
        return ((prompt - cached) * self.input_per_mtok + cached * (self.cached_input_per_mtok or 0.0)
                + usage["completion_tokens"] * self.output_per_mtok) / 1e6


def load_price(path: str, model_name: str) -> Price | None:
    """The price of `model_name` in the table at `path` (None if the table has no entry for it)."""
    try:
        table = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        raise UserError(f"cannot read price table {path!r}") from None
    except ValueError:
        raise UserError(f"price table {path!r} is not valid JSON") from None
    if not isinstance(table, dict):
        raise UserError(f"price table {path!r} must be a JSON object keyed by model name")
    entry = table.get(model_name, table.get("*"))
    if entry is None:
        return None
    try:
        cached = entry.get("cached_input")
        price = Price(float(entry["input"]), float(entry["output"]), None if cached is None else float(cached))
    except (TypeError, KeyError, ValueError, AttributeError):
        raise UserError(f"price table entry for {model_name!r} needs numeric \"input\" and \"output\"") from None
    if min(price.input_per_mtok, price.output_per_mtok, price.cached_input_per_mtok or 0.0) < 0:
        raise UserError(f"price table entry for {model_name!r} has a negative price")
    return price
