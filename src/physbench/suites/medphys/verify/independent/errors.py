"""The one error an independent solver raises: the prompt itself is at fault."""

from __future__ import annotations


class PromptDefect(Exception):
    """A needed input or convention cannot be read from the prompt, or the prompt admits
    more than one defensible method; the message says what is missing and why."""
