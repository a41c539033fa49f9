"""Reading an Extract-Solve reply: the variables the model extracted, as the last JSON object in its text."""

from __future__ import annotations

from typing import Any

MAX_EXTRACTION_CHARS = 65_536  # an extraction reply beyond this is not read as JSON


def read_extraction(text: Any) -> dict | None:
    """The variables a model extracted: the last JSON object in its reply, or None. Bounded, never eval."""
    from physbench.core.tools import parse_arguments

    if not isinstance(text, str) or len(text) > MAX_EXTRACTION_CHARS:
        return None
    end = text.rfind("}")
    while end != -1:
        start = text.rfind("{", 0, end)
        while start != -1:
            value, why = parse_arguments(text[start:end + 1])
            if why is None and value:
                return value
            start = text.rfind("{", 0, start)
        end = text.rfind("}", 0, end)
    return None
