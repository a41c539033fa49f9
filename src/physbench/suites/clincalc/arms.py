"""The clincalc arms of 003_* (Table 1, Appendix A.1) with the paper's settings (Table 16).

An arm names the prompt its items carry, whether they also carry the Extract-Solve prompt or a
program spec, and the protocol that asks the model (arm_protocols.py). Seeds are 42 + the repeat
index (Appendix A.1: the seed fixes the case order and, in the note-only arms, the worked example;
it never reaches the server).
"""

from __future__ import annotations

from dataclasses import dataclass

SEED_BASE = 42            # `--repeats 5` runs seeds 42..46
GREEDY = 0.0              # single-call arms (Table 16)
SAMPLED = 0.7             # recalled candidates and program votes (Table 16)
NOTE_TOKENS = 4096        # note-reading arms and the recalled candidates (Table 16)
EXTRACTION_TOKENS = 512   # the Extract-Solve call (Table 16)
PROGRAM_TOKENS = 2048     # Program-Solve and + syntax (Table 16)
BLIND_TOKENS = 1024       # Blind Program-Solve and its vote and repair levers (Table 16)
TREE_TOKENS = 2048        # Formulate-Solve tree: Table 16 gives no cap; ours, the program arms' cap


@dataclass(frozen=True)
class Arm:
    """One arm: its prompt, what else its items carry, and how many model calls it makes."""

    name: str
    prompt: str                    # the prompt in the item's messages (prompts.messages)
    extraction: bool = False       # the item also carries the Extract-Solve prompt
    program: bool = False          # the item's reply is a program (the executor's spec goes with it)
    calls_model: bool = True


ARMS: dict[str, Arm] = {a.name: a for a in (
    Arm("note-only", "note-only"),
    Arm("note-only-gold", "note-only-gold"),
    Arm("page-without-formula", "page-without-formula"),
    Arm("open-book-arithmetic", "open-book-arithmetic"),
    Arm("extract-solve-library", "extraction"),
    Arm("gold-solve-library", "open-book-arithmetic", calls_model=False),
    Arm("extract-solve-recalled", "note-only", extraction=True),
    Arm("formulate-solve-tree", "tree"),
    Arm("program-solve", "program-solve", program=True),
    Arm("program-solve-syntax", "program-solve-syntax", program=True),
    Arm("blind-program-solve", "blind-program", program=True),
    Arm("blind-vote", "blind-program", program=True),
    Arm("blind-repair", "blind-program", program=True),
    Arm("blind-repair-vote", "blind-program", program=True),
    Arm("gold-first-program", "program-solve", program=True),
    Arm("gold-first-arithmetic", "open-book-arithmetic"),
    Arm("extract-first-program", "program-solve", extraction=True, program=True),
    Arm("extract-first-arithmetic", "open-book-arithmetic", extraction=True),
    # the official MedCalc-Bench prompt styles, in our wording (prompts_official.py); replies are JSON
    Arm("official-direct", "official-direct"),
    Arm("official-zero-shot", "official-zero-shot"),
    Arm("official-one-shot", "official-one-shot"),
)}

# Table 3's ladder, in the paper's order, with the paper's names; then the arms it reports elsewhere
# (the Gold-Solve library in Table 1, the library-first hybrids in Tables 15 and 23)
LADDER: dict[str, str] = {
    "note-only": "Note only", "note-only-gold": "Note only with gold variables",
    "open-book-arithmetic": "Open-book arithmetic", "page-without-formula": "Page without formula",
    "extract-solve-library": "Extract-Solve library", "extract-solve-recalled": "Extract-Solve library, recalled",
    "formulate-solve-tree": "Formulate-Solve tree", "blind-program-solve": "Blind Program-Solve",
    "program-solve": "Program-Solve", "program-solve-syntax": "Program-Solve + syntax",
    "blind-vote": "Blind + vote", "blind-repair": "Blind + repair", "blind-repair-vote": "Blind + repair + vote",
    "gold-solve-library": "Gold-Solve library",
    "gold-first-program": "Gold-first, Program-Solve fallback",
    "gold-first-arithmetic": "Gold-first, arithmetic fallback",
    "extract-first-program": "Extract-first, Program-Solve fallback",
    "extract-first-arithmetic": "Extract-first, arithmetic fallback",
    "official-direct": "Official style: direct answer", "official-zero-shot": "Official style: zero-shot CoT",
    "official-one-shot": "Official style: one-shot CoT",
}

# the names of the first version of this suite, kept working
ALIASES = {"open-book": "open-book-arithmetic", "program": "program-solve", "blind-program": "blind-program-solve",
           "extract-library": "extract-solve-library", "gold-library": "gold-solve-library"}
NO_MODEL_ARMS = tuple(a.name for a in ARMS.values() if not a.calls_model)
RESEEDED_ARMS = ("note-only", "note-only-gold")  # the worked example moves with the seed


def canonical(name: str) -> str | None:
    """The arm's own name for `name` (an arm or an alias), or None."""
    name = ALIASES.get(name, name)
    return name if name in ARMS else None


def seed_of(repeat: int) -> int:
    """The paper's seed of a repeat: 42, 43, ..."""
    return SEED_BASE + int(repeat)
