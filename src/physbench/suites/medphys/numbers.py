"""Rounding and printing of numbers: what a prompt prints is exactly what the solver uses."""

from __future__ import annotations

import math


def fmt_dec(x: float, decimals: int) -> str:
    """Fixed-point text with `decimals` places ("-0.00" is printed as "0.00")."""
    text = f"{x:.{decimals}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def fmt_sig(x: float, sig: int) -> str:
    """Positional text with `sig` significant figures, keeping trailing zeros (1.000, 0.04520)."""
    if x == 0 or not math.isfinite(x):
        return fmt_dec(x, max(sig - 1, 0)) if x == 0 else str(x)
    exponent = math.floor(math.log10(abs(float(f"{x:.{sig - 1}e}"))))
    decimals = max(sig - 1 - exponent, 0)
    if decimals == 0:
        return fmt_dec(round(x, sig - 1 - exponent), 0)
    return fmt_dec(x, decimals)


def fmt_sci(x: float, sig: int) -> str:
    """Scientific text 'm × 10^e' with `sig` significant figures in the mantissa."""
    mantissa, exponent = f"{x:.{sig - 1}e}".split("e")
    return f"{mantissa} × 10^{int(exponent)}"


def dec(x: float, decimals: int) -> float:
    """`x` rounded as `fmt_dec` prints it."""
    return float(fmt_dec(x, decimals))


def sig(x: float, figures: int) -> float:
    """`x` rounded as `fmt_sig` prints it."""
    return float(fmt_sig(x, figures))


def sci(x: float, figures: int) -> float:
    """`x` rounded as `fmt_sci` prints it."""
    return float(f"{x:.{figures - 1}e}")


def transpose_digits(x: float, figures: int = 4) -> float:
    """`x` written with `figures` significant figures and its first unequal adjacent digits swapped.

    The arithmetic slip of Table 6 ("two adjacent digits transposed"); a number whose digits are all
    equal is returned with its last digit changed so that the slip is never a no-op.
    """
    text = fmt_sig(x, figures)
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    # skip leading zeros: they are not significant
    while digits and text[digits[0]] == "0":
        digits.pop(0)
    chars = list(text)
    for a, b in zip(digits, digits[1:]):
        # a swap must not put a zero in front of the number
        if chars[a] != chars[b] and not (a == digits[0] and chars[b] == "0"):
            chars[a], chars[b] = chars[b], chars[a]
            return float("".join(chars))
    last = digits[-1]
    chars[last] = "1" if chars[last] != "1" else "2"
    return float("".join(chars))
