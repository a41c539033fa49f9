"""Price tables: USD per million prompt and completion tokens, by model name, read from JSON.

File shape: {"MODEL": {"input": USD_PER_MTOK, "output": USD_PER_MTOK, "cached_input": USD_PER_MTOK},
...}; "cached_input" (optional) prices the prompt tokens served from the provider's cache
(usage `cached_tokens`); a "*" entry applies to any model not named. MODEL is the name after
`openai/` in the model spec, or the whole spec (`openai/NAME`). The whole table is checked when it
is read, so a typo is an error before the first request rather than a cost silently left out.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from physbench.core.errors import UserError
from physbench.core.files import read_small_text

MAX_TABLE_BYTES = 1_000_000  # a price list, not a dataset
FIELDS = ("input", "output", "cached_input")


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


def _read(path: str) -> Any:
    where = f"--price-table {path}"
    text = read_small_text(path, where, MAX_TABLE_BYTES)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UserError(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:  # a price table is two levels deep; thousands of brackets are not one
        raise UserError(f"{where}: JSON nested too deeply") from None


def _usd(where: str, field: str, value: Any) -> float:
    """A price in USD per million tokens: a finite number >= 0 (not a string, not true/false)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise UserError(f"{where}: \"{field}\" must be a number (USD per million tokens), got {json.dumps(value)[:40]}")
    if value < 0:
        raise UserError(f"{where}: \"{field}\" is negative ({value})")
    return float(value)


def _price(path: str, name: str, entry: Any) -> Price:
    where = f"--price-table {path}: entry {name[:80]!r}"
    if not isinstance(entry, dict):
        raise UserError(f"{where} must be an object with \"input\" and \"output\" prices")
    unknown = sorted(set(entry) - set(FIELDS))
    if unknown:
        raise UserError(f"{where}: unknown field {unknown[0][:40]!r} (fields: {', '.join(FIELDS)})")
    missing = [f for f in ("input", "output") if f not in entry]
    if missing:
        raise UserError(f"{where}: \"{missing[0]}\" is missing")
    cached = entry.get("cached_input")
    return Price(_usd(where, "input", entry["input"]), _usd(where, "output", entry["output"]),
                 None if cached is None else _usd(where, "cached_input", cached))


def load_table(path: str) -> dict[str, Price]:
    """Every entry of the table at `path`, checked; a UserError naming the file and the first problem."""
    table = _read(path)
    if not isinstance(table, dict):
        raise UserError(f"--price-table {path}: must be a JSON object keyed by model name")
    if not table:
        raise UserError(f"--price-table {path}: has no entries")
    out: dict[str, Price] = {}
    for name, entry in table.items():
        if not name.strip():
            raise UserError(f"--price-table {path}: a model name is empty")
        out[name.strip()] = _price(path, name, entry)
    return out


def price_for(table: Mapping[str, Price], model_name: str) -> Price | None:
    """The entry for `model_name` (as NAME, then as openai/NAME), else the "*" entry, else None."""
    for key in (model_name, f"openai/{model_name}", "*"):
        if key in table:
            return table[key]
    return None


def load_price(path: str, model_name: str) -> Price | None:
    """The price of `model_name` in the table at `path` (None if the table has no entry for it)."""
    return price_for(load_table(path), model_name)
