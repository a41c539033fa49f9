"""Responses that carry no gradable answer: blocked, stopped short (the paper's "interrupted"),
truncated (MedPhysBench, "Evaluation setup", Outcomes), and a check's unreadable verdict.

The outcomes without an answer are disjoint: `stopped_short` is a reply under 400 characters that
tries no answer at all (no boxed value, answer line or verdict field); a checking reply that writes
a verdict field the grader cannot read, or runs to 400 characters without a verdict, is `unparsable`.
"""

from __future__ import annotations

import re

SHORT_CHARS = 400  # output that stops within this many characters without an answer

# finish reasons reported by OpenAI-compatible, Anthropic and Gemini endpoints
TRUNCATED_REASONS = frozenset({"length", "max_tokens", "max_output_tokens", "model_length", "token_limit"})
BLOCKED_REASONS = frozenset({"content_filter", "safety", "blocked", "prohibited_content", "refusal",
                             "spii", "blocklist", "recitation"})

# a provider's policy notice in place of an answer, e.g. "This request triggered restrictions on
# violative cyber content and was blocked under Anthropic's Usage Policy"
_NOTICE = re.compile(
    r"triggered\s+restrictions|violative\s+\w+\s+content"
    r"|(?:blocked|violat\w*|flagged|filtered|restricted)\b[^\n]{0,120}?"
    r"(?:usage|content(?:\s+management)?|safety|acceptable[\s-]use)\s+polic(?:y|ies)"
    r"|(?:usage|content(?:\s+management)?|safety)\s+polic(?:y|ies)[^\n]{0,80}?\b(?:blocked|violat\w*|flagged|filtered)",
    re.I,
)
_NOTICE_SPAN = 2000  # a notice is short: look at the start and the end of the text


def _reason(finish_reason: str | None) -> str:
    return finish_reason.strip().lower() if finish_reason else ""


def truncated(finish_reason: str | None) -> bool:
    """The model hit its token limit."""
    return _reason(finish_reason) in TRUNCATED_REASONS


def blocked_by_reason(finish_reason: str | None) -> bool:
    """The provider stopped the output (content filter, safety)."""
    return _reason(finish_reason) in BLOCKED_REASONS


def policy_notice(text: str) -> bool:
    """The text holds a provider's policy notice (searched near its start and its end)."""
    if not ("olic" in text or "estriction" in text or "iolative" in text or "OLIC" in text
            or "ESTRICTION" in text):  # a cheap look for the notice's words before the regex
        return False
    if len(text) <= 2 * _NOTICE_SPAN:
        return _NOTICE.search(text) is not None
    return _NOTICE.search(text, 0, _NOTICE_SPAN) is not None or \
        _NOTICE.search(text, len(text) - _NOTICE_SPAN) is not None


def short(text: str) -> bool:
    """Under the 400 characters within which an output without an answer stopped short."""
    return len(text.strip()) < SHORT_CHARS


# a verdict field as a model writes one: `"verdict": ...`, `'verdict': ...`, `Verdict: ...`, `verdict = ...`
_VERDICT_FIELD = re.compile(r"""(?:["']verdict["']|\bverdict\b)\s*[:=]""", re.I)


def tries_a_verdict(text: str) -> bool:
    """The text writes a verdict field, readable or not (which keeps a short check from 'stopped_short')."""
    return ("erdict" in text or "ERDICT" in text) and _VERDICT_FIELD.search(text) is not None


def no_verdict_outcome(text: str, finish_reason: str | None) -> str:
    """The outcome of a checking reply in which no verdict could be read: blocked, truncated,
    stopped_short (short and not trying one), else unparsable."""
    if blocked_by_reason(finish_reason) or policy_notice(text):
        return "blocked"
    if truncated(finish_reason):
        return "truncated"
    if short(text) and not tries_a_verdict(text):
        return "stopped_short"
    return "unparsable"
