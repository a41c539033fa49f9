"""Plain text from an answer written in LaTeX, Unicode or prose (MedPhysBench, "Grading details").

`clean` turns one short answer string into "number unit" text that the quantity reader scans:
LaTeX formatting removed, digit groups joined, superscripts made exponents, unit aliases
mapped and labels that do not change the unit dropped. Every step is a bounded regex on a
string of at most MAX_ANSWER characters.
"""

from __future__ import annotations

import re

MAX_ANSWER = 600  # an answer longer than this is cut; the value sits at its start

THIN = "\u2009"

# --- relations: the value is what follows the last top-level one -------------------------
RELATION = re.compile(
    r"\\(?:approx|simeq|cong|equiv|sim|geq?|leq?|eqsim)(?![A-Za-z])|:=|>=|<=|=>|[=≈≃≅≥≤]"
)


_RELATION_CHAR = re.compile(r"[≈≃≅≥≤]")
_RELATION_COMMAND = re.compile(r"\\(?:approx|simeq|cong|equiv|sim|geq?|leq?|eqsim)(?![A-Za-z])")


def after_last_relation(text: str) -> str:
    """The text after the last "=" (or "≈", "\\approx", "≥", ...) outside braces and brackets."""
    if "=" not in text and (text.isascii() or not _RELATION_CHAR.search(text)) and (
            "\\" not in text or not _RELATION_COMMAND.search(text)):
        return text
    hits = list(RELATION.finditer(text))
    for m in reversed(hits[-64:]):
        head = text[: m.start()]
        depth = (head.count("{") - head.count("}") + head.count("(") - head.count(")")
                 + head.count("[") - head.count("]"))
        if depth <= 0:
            return text[m.end():]
    return text


# --- Unicode ----------------------------------------------------------------------------
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_SUP_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_SUB_RUN = re.compile(r"[₀₁₂₃₄₅₆₇₈₉]+")
_CHARS = str.maketrans({
    "\u2212": "-", "\u2010": "-", "\u2011": "-",           # minus sign, hyphens
    "×": "*", "·": "*", "⋅": "*", "∙": "*", "•": "*",      # products
    "\u00a0": THIN, "\u202f": THIN, "\u2007": THIN, "\u2008": THIN, "\u200a": THIN,
    "\u2002": " ", "\u2003": " ", "\u3000": " ", "\u200b": "", "\ufeff": "",
    "μ": "µ", "∓": "±", "ℓ": "l",
    "\u2044": "/", "\u2215": "/", "÷": "/", "\uff0f": "/",   # fraction slash, division slash, ÷, full-width
})


def _unicode(s: str) -> str:
    s = s.translate(_CHARS)
    s = _SUP_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), s)
    s = _SUB_RUN.sub(lambda m: "_" + m.group().translate(_SUBSCRIPT), s)
    return s


# --- LaTeX ------------------------------------------------------------------------------
_FORMAT_CMDS = r"text|textrm|textnormal|textup|textit|textbf|textsf|texttt|mathrm|mathit|mathbf|mathsf|" \
               r"mathtt|mathnormal|boldsymbol|operatorname|mbox|hbox|unit|si|mathup|bm"
_FORMAT_ARG = re.compile(r"\\(?:" + _FORMAT_CMDS + r")\s*\*?\s*\{([^{}]*)\}")
_FORMAT_NAME = re.compile(r"\\(?:" + _FORMAT_CMDS + r"|rm|bf|it|sf|tt|displaystyle|textstyle|scriptstyle|"
                          r"left|right|[bB]igg?[lr]?|mathstrut|boxed|color\{[a-z]*\})(?![A-Za-z])")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_EXP_BRACE = re.compile(r"\^\s*\{([^{}]*)\}")
_SUB_BRACE = re.compile(r"_\s*\{([^{}]*)\}")
_SYMBOLS = [
    # a line break separates two statements: keep a separator, so that a value after it is not a qualifier
    ("\\\\", " ; "), ("\\newline", " ; "), ("\\linebreak", " ; "),
    ("{,}", ","), ("\\%", "%"), ("\\,", THIN), ("\\;", THIN), ("\\:", THIN), ("\\>", THIN),
    ("\\ ", THIN), ("\\!", ""), ("\\quad", " "), ("\\qquad", " "), ("\\thinspace", THIN),
    ("\\enspace", " "), ("\\cdot", "*"), ("\\times", "*"), ("\\ast", "*"),
    ("\\pm", "±"), ("\\mp", "±"), ("\\mu", "µ"), ("\\textmu", "µ"), ("\\upmu", "µ"), ("\\micro", "µ"),
    ("\\alpha", "α"), ("\\beta", "β"),
    ("\\max", "max"), ("\\degree", "°"), ("^\\circ", "°"), ("^{\\circ}", "°"), ("\\circ", "°"),
    ("\\(", ""), ("\\)", ""), ("\\[", ""), ("\\]", ""), ("$", ""), ("&", " "), ("~", " "),
]


# an arrow between two values is not a relation: "1.018 cGy/MU \\to 2.0 cGy/MU" states two values
_ARROW = re.compile(r"\\(?:to|rightarrow|Rightarrow|longrightarrow|Longrightarrow|implies|mapsto)(?![A-Za-z])")
_SIMPLE = re.compile(r"[\w.µ^()-]+")


def _fraction(m: re.Match[str]) -> str:
    """\\frac{a}{b} as a/b, with parentheses only where a part is not one token."""
    a, b = (p.strip() for p in m.groups())
    a = a if _SIMPLE.fullmatch(a) else f"({a})"
    b = b if _SIMPLE.fullmatch(b) else f"({b})"
    return f"{a}/{b}"


_SYMBOL_TABLE = dict(_SYMBOLS)
_SYMBOL = re.compile("|".join(re.escape(k) for k in sorted(_SYMBOL_TABLE, key=len, reverse=True)))


def _latex(s: str) -> str:
    s = _SYMBOL.sub(lambda m: _SYMBOL_TABLE[m.group()], s)
    if "{" in s:
        s = _EXP_BRACE.sub(r"^(\1)", s)
        s = _SUB_BRACE.sub(r"_\1", s)
    if "\\" in s:
        s = _ARROW.sub(" → ", s)
        s = _FRAC.sub(_fraction, s)
        for _ in range(4):  # innermost first: \mathrm{c\text{Gy}}
            s, n = _FORMAT_ARG.subn(r"\1", s)
            if not n:
                break
        s = re.sub(r"\{\\(?:rm|bf|it|sf|tt|mathrm)\s+([^{}]*)\}", r"\1", s)
        s = _FORMAT_NAME.sub("", s)
        s = _FRAC.sub(_fraction, s)
    if "{" in s:
        s = _EXP_BRACE.sub(r"^(\1)", s)
        s = _SUB_BRACE.sub(r"_\1", s)
        s = s.replace("{", "").replace("}", "")
    return s


# --- numbers ------------------------------------------------------------------------------
_E_NOTATION = re.compile(
    r"(\d\.?)\s*(?:\*|x|X)\s*10\s*\^\s*\(?\s*([-+]?)\s*(\d+)(?:\s*\))?"
)
_DIGIT_GROUP = re.compile(r"(?<=\d)(?<![^\d]0)(?<!^0)[," + THIN + r"](?=\d{3}(?!\d))")
_UNIT_COMMA = re.compile(r"(?<=[A-Za-zµ]),(?=[A-Za-zµ])")
_PM_PAREN = re.compile(
    r"\(\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(?:±|\+/-|\+-)\s*(?:\d+(?:\.\d*)?|\.\d+)"
    r"(?:[eE][-+]?\d+)?\s*%?\s*\)"
)
_CONCISE_UNCERTAINTY = re.compile(r"(\d\.\d+)\(\d{1,2}\)")
_SPACE = re.compile(r"[\s" + THIN + r"]+")
# a micro sign written apart from its unit: "2.5 µ Sv", "2.5\\,\\mu \\mathrm{Sv}"
_LONE_MICRO = re.compile(r"(?<![A-Za-zµ])µ[\s" + THIN + r"]+(?=[A-Za-z])")
_BOLD = re.compile(r"(?<![\w)])\*\*|\*\*(?![\w(])|(?<!\w)__|__(?!\w)")

# --- aliases and labels that do not change the unit -------------------------------------
_LENGTH = r"(?:[kcmµun]?m)"
# (trigger, pattern, replacement): a pattern runs only when its trigger is in the text; one
# pass of the combined trigger regex decides which patterns to run
_LABELS: list[tuple[str, re.Pattern[str], str]] = [
    (r"onitor|mu'", re.compile(r"\bmonitor[\s_-]*units?\b|\bMU'?s\b", re.I), "MU"),
    (r"cent|pct", re.compile(r"\b(?:per\s+cent|pct)\b", re.I), "%"),
    (r"fr|fx|field|beam|treat|sess",
     re.compile(r"(?:\s*\bper\b\s*|\s*/\s*)(?:fractions?|fx|fr|fields?|beams?|treatments?|sessions?)\b", re.I), ""),
    # a schedule "45 Gy/25 fx" (ICRU 50/62 prescription notation: total dose / number of fractions) states
    # the total dose 45 Gy; the grader never divides the dose by the count (the reference is a dose either
    # way, so its dimension cannot pick a reading; the notation's meaning does)
    (r"/\s*\d", re.compile(r"\s*/\s*\d{1,3}\s*(?:fractions?|fx|fr)\b|\s*/\s*\d{1,3}\s*#", re.I), ""),
    # a material after a thickness: "2.956 mm Al", "54 cm of concrete", "3 mmPb"
    (r"m\s*(?:of\s+)?(?:al|cu|pb|fe|sn|w\b|lead|alum|copper|tungsten|steel|iron|tin|concrete|water|tissue|"
     r"poly|pmma|acrylic|barite|brass|borated)",
     re.compile(r"\b(" + _LENGTH + r")(?:\s*(?:of\s+)?(?:Al|Cu|Pb|Fe|Sn)|\s+(?:of\s+)?W|\s*(?:of\s+)?"
                r"(?i:lead|alumin(?:i)?um|copper|tungsten|steel|iron|tin|concrete|water|tissue|"
                r"polyethylene|PMMA|acrylic|barite|brass|borated))\b"), r"\1"),
    # an alpha/beta subscript or label: Gy_{10}, Gy_{α/β=3}, Gy10, (α/β = 3 Gy)
    (r"gy[_\d]", re.compile(r"(?<=Gy)(?:_\S*|\d{1,2}(?:\.\d)?\b)"), ""),
    (r"α|alpha|beta|/\s*b",
     re.compile(r",?\s*\(?\s*(?<![A-Za-z])(?:α|alpha|a)\s*/\s*(?:β|beta|b)(?![A-Za-z])\s*=?\s*(?:\d+(?:\.\d+)?\s*"
                r"(?:Gy)?)?\s*\)?", re.I), ""),
    # EQD2, EQD_2, BED, BED_10 as a label before or after the unit
    (r"eqd|bed", re.compile(r"\b(?:EQD|BED)(?:\s*_?\s*\(?\d{1,2}(?:\.\d)?\)?)?(?:(?=Gy)|\b)"), " "),
    # "at d_max", "(d_max)": where the dose is, not what unit it has
    (r"max", re.compile(r"(?:\bat\s+(?:the\s+)?)?\b[dD]\s*_?\s*max\b"), " "),
    (r"dimensionless|unitless",
     re.compile(r"\((?:\s*dimensionless\s*|\s*unitless\s*)\)|\b(?:dimensionless|unitless)\b", re.I), ""),
    # "cm2" / "cm-2" written without a caret, for lengths only; "MU-1" style inverse units
    (r"m-?[23]", re.compile(r"\b(" + _LENGTH + r")(-?[23])\b"), r"\1^\2"),
    (r"[a-z]-1", re.compile(r"(?<![\d.][eE])(?<=[A-Za-zµ])-1(?![\d.])"), "^-1"),  # not the "e-1" of 1.5e-1
]
_EMPTY_PARENS = re.compile(r"\(\s*\)")  # what a dropped label leaves: "45 Gy (EQD2)" -> "45 Gy ()"
# zero-width, so that one trigger never hides another that starts inside it; run on lower case
_TRIGGER = re.compile("|".join(f"(?P<l{i}>(?={t}))" for i, (t, _, _) in enumerate(_LABELS)))
_ALPHA = re.compile(r"[^\W\d_]")


def _labels(s: str) -> str:
    wanted = {m.lastgroup for m in _TRIGGER.finditer(s.lower())}
    if not wanted:
        return s
    for i, (_, pattern, repl) in enumerate(_LABELS):
        if f"l{i}" in wanted:
            s = pattern.sub(repl, s)
    return _EMPTY_PARENS.sub(" ", s) if "(" in s else s


def clean_text(text: str) -> str:
    """LaTeX, Unicode, digit groups and uncertainty handled; labels left in place."""
    s = text[:MAX_ANSWER]
    if not s.isascii():
        s = _unicode(s)
    if "\\" in s or "{" in s or "$" in s or "~" in s or "&" in s:
        s = _latex(s)
    if "**" in s or "__" in s:
        s = _BOLD.sub("", s)
    if "^" in s:
        s = _E_NOTATION.sub(r"\1e\2\3", s)
    if "," in s or THIN in s:
        s = _DIGIT_GROUP.sub("", s)
        s = _UNIT_COMMA.sub(" ", s)
    if "±" in s or "+/-" in s or "+-" in s:
        s = _PM_PAREN.sub(r"\1", s)
    if "(" in s:
        s = _CONCISE_UNCERTAINTY.sub(r"\1", s)
    if "µ" in s:
        s = _LONE_MICRO.sub("µ", s)
    return _SPACE.sub(" ", s).strip()


def drop_labels(s: str) -> str:
    """Unit aliases mapped and labels that do not change the unit dropped ("mm Al" -> "mm")."""
    if not _ALPHA.search(s):
        return s
    return _SPACE.sub(" ", _labels(s)).strip()


# a material written as a one-letter element symbol that is also a unit (W, tungsten, is watt)
NEEDS_LABELS_FIRST = re.compile(r"m\s*(?:of\s+)?W\b")


def clean(text: str) -> str:
    """One answer string as plain "number unit" text (see the module docstring)."""
    return drop_labels(clean_text(text))
