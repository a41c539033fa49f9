"""Counts and printed numbers from the seed paper 000 (MedPhysBench), transcribed for the stats tests.

Counts come from the checking table (planted/correct n, flagged), Table 12 (discordant pairs) and
the calculation tables; the printed strings are kept exactly as the paper rounds them.
"""

from __future__ import annotations

# Table 2: calculation accuracy on the test split, (correct, items, printed %, printed CI)
# (counts: the only k/n that round to the printed %, at 1/600 or 1/300 resolution)
TABLE2_CALCULATION = {
    "GPT-6 Astra": (300, 300, "100.0", "98.8", "100.0"),
    "GPT-6.1 Sol": (598, 600, "99.7", "98.8", "99.96"),
    "Gemini 4 Argon": (597, 600, "99.5", "98.5", "99.9"),
    "Claude Opus 5.5": (596, 600, "99.3", "98.3", "99.8"),
    "Claude Sonnet 5.5": (562, 600, "93.7", "91.4", "95.5"),
    "GPT-6 Luna": (561, 600, "93.5", "91.2", "95.3"),
    "Claude Fable 5.1": (270, 300, "90.0", "86.0", "93.2"),
    "DeepSeek V4 Pro": (534, 600, "89.0", "86.2", "91.4"),
    "gpt-oss-120b": (514, 600, "85.7", "82.6", "88.4"),
    "Mistral Large 3": (509, 600, "84.8", "81.7", "87.6"),
    "gpt-oss-20b": (459, 600, "76.5", "72.9", "79.8"),
    "Gemma 3 27B": (200, 600, "33.3", "29.6", "37.3"),
}

# Section F table: calculation accuracy on the stratified half split (300 items)
HALF_SPLIT_CALCULATION = {
    "GPT-6 Astra": (300, 300, "100.0", "98.8", "100.0"),
    "GPT-6.1 Sol": (299, 300, "99.7", "98.2", "99.99"),
    "Gemini 4 Argon": (298, 300, "99.3", "97.6", "99.9"),
    "Claude Opus 5.5": (298, 300, "99.3", "97.6", "99.9"),
    "Claude Sonnet 5.5": (281, 300, "93.7", "90.3", "96.1"),
    "GPT-6 Luna": (282, 300, "94.0", "90.7", "96.4"),
    "Claude Fable 5.1": (270, 300, "90.0", "86.0", "93.2"),
    "DeepSeek V4 Pro": (268, 300, "89.3", "85.3", "92.6"),
    "gpt-oss-120b": (257, 300, "85.7", "81.2", "89.4"),
    "Mistral Large 3": (256, 300, "85.3", "80.8", "89.1"),
    "gpt-oss-20b": (228, 300, "76.0", "70.8", "80.7"),
    "Gemma 3 27B": (100, 300, "33.3", "28.0", "39.0"),
}

# Checking table counts: (items per kind, planted flagged, correct flagged) per model and format,
# and Table 9's printed columns: Det. % (CI), FA % (CI), J (CI), Real % at 1% (lower bound)
TABLE9 = [
    # model, format, n, det_k, fa_k, det, det_lo, det_hi, fa, fa_lo, fa_hi, J, J_lo, J_hi, real, real_lo
    ("GPT-6 Astra", "worksheet", 75, 75, 1, "100.0", "95.2", "100.0", "1.3", "0.0", "7.2", "0.99", "0.91", "1.00", "43", "12"),
    ("GPT-6 Astra", "result", 75, 73, 0, "97.3", "90.7", "99.7", "0.0", "0.0", "4.8", "0.97", "0.89", "0.99", "100", "16"),
    ("GPT-6.1 Sol", "worksheet", 150, 148, 0, "98.7", "95.3", "99.8", "0.0", "0.0", "2.4", "0.99", "0.94", "1.00", "100", "28"),
    ("GPT-6.1 Sol", "result", 150, 145, 0, "96.7", "92.4", "98.9", "0.0", "0.0", "2.4", "0.97", "0.92", "0.99", "100", "28"),
    ("Gemini 4 Argon", "worksheet", 150, 150, 1, "100.0", "97.6", "100.0", "0.7", "0.0", "3.7", "0.99", "0.95", "1.00", "60", "21"),
    ("Gemini 4 Argon", "result", 150, 150, 3, "100.0", "97.6", "100.0", "2.0", "0.4", "5.7", "0.98", "0.94", "0.99", "34", "15"),
    ("Claude Opus 5.5", "worksheet", 150, 148, 2, "98.7", "95.3", "99.8", "1.3", "0.2", "4.7", "0.97", "0.93", "0.99", "43", "17"),
    ("Claude Opus 5.5", "result", 150, 149, 6, "99.3", "96.3", "99.98", "4.0", "1.5", "8.5", "0.95", "0.90", "0.98", "20", "10"),
    ("Claude Sonnet 5.5", "worksheet", 150, 149, 3, "99.3", "96.3", "99.98", "2.0", "0.4", "5.7", "0.97", "0.93", "0.99", "33", "15"),
    ("Claude Sonnet 5.5", "result", 150, 148, 16, "98.7", "95.3", "99.8", "10.7", "6.2", "16.7", "0.88", "0.81", "0.92", "9", "5"),
    ("GPT-6 Luna", "worksheet", 150, 135, 5, "90.0", "84.0", "94.3", "3.3", "1.1", "7.6", "0.87", "0.79", "0.91", "21", "10"),
    ("GPT-6 Luna", "result", 150, 142, 18, "94.7", "89.8", "97.7", "12.0", "7.3", "18.3", "0.83", "0.75", "0.88", "7", "5"),
    ("Claude Fable 5.1", "worksheet", 75, 75, 0, "100.0", "95.2", "100.0", "0.0", "0.0", "4.8", "1.00", "0.93", "1.00", "100", "17"),
    ("Claude Fable 5.1", "result", 75, 73, 1, "97.3", "90.7", "99.7", "1.3", "0.0", "7.2", "0.96", "0.87", "0.98", "42", "11"),
    ("DeepSeek V4 Pro", "worksheet", 150, 142, 63, "94.7", "89.8", "97.7", "42.0", "34.0", "50.3", "0.53", "0.43", "0.61", "2", "2"),
    ("DeepSeek V4 Pro", "result", 150, 138, 54, "92.0", "86.4", "95.8", "36.0", "28.3", "44.2", "0.56", "0.46", "0.64", "3", "2"),
    ("gpt-oss-120b", "worksheet", 150, 125, 7, "83.3", "76.4", "88.9", "4.7", "1.9", "9.4", "0.79", "0.70", "0.84", "15", "8"),
    ("gpt-oss-120b", "result", 150, 145, 37, "96.7", "92.4", "98.9", "24.7", "18.0", "32.4", "0.72", "0.63", "0.78", "4", "3"),
    ("Mistral Large 3", "worksheet", 150, 144, 101, "96.0", "91.5", "98.5", "67.3", "59.2", "74.8", "0.29", "0.20", "0.37", "1", "1"),
    ("Mistral Large 3", "result", 150, 135, 127, "90.0", "84.0", "94.3", "84.7", "77.9", "90.0", "0.05", "-0.02", "0.13", "1", "1"),
    ("gpt-oss-20b", "worksheet", 150, 123, 8, "82.0", "74.9", "87.8", "5.3", "2.3", "10.2", "0.77", "0.68", "0.83", "13", "7"),
    ("gpt-oss-20b", "result", 150, 144, 58, "96.0", "91.5", "98.5", "38.7", "30.8", "47.0", "0.57", "0.48", "0.65", "2", "2"),
    ("Gemma 3 27B", "worksheet", 150, 104, 91, "69.3", "61.3", "76.6", "60.7", "52.4", "68.5", "0.09", "-0.02", "0.19", "1", "1"),
    ("Gemma 3 27B", "result", 150, 143, 107, "95.3", "90.6", "98.1", "71.3", "63.4", "78.4", "0.24", "0.16", "0.32", "1", "1"),
]

# Table 12: worksheet against result on the same items, discordant pairs and Holm-adjusted p
# (over all 24 comparisons); model: (planted ws-only, planted res-only, p, correct ws-only, res-only, p)
TABLE12 = {
    "GPT-6 Astra": (2, 0, "1.00", 1, 0, "1.00"),
    "GPT-6.1 Sol": (5, 2, "1.00", 0, 0, "1.00"),
    "Gemini 4 Argon": (0, 0, "1.00", 1, 3, "1.00"),
    "Claude Opus 5.5": (1, 2, "1.00", 2, 6, "1.00"),
    "Claude Sonnet 5.5": (2, 1, "1.00", 3, 16, "0.08"),
    "GPT-6 Luna": (7, 14, "1.00", 2, 15, "0.04"),
    "Claude Fable 5.1": (2, 0, "1.00", 0, 1, "1.00"),
    "DeepSeek V4 Pro": (11, 7, "1.00", 35, 26, "1.00"),
    "gpt-oss-120b": (3, 23, "0.002", 3, 33, "5e-6"),
    "Mistral Large 3": (14, 5, "0.95", 11, 37, "0.004"),
    "gpt-oss-20b": (5, 26, "0.004", 0, 50, "4e-14"),
    "Gemma 3 27B": (3, 42, "2e-8", 15, 31, "0.41"),
}

# Table 11: the model pairs that the calculation McNemar tests (Holm over 66 pairs) did not separate:
# (first, second, first only, second only, printed Holm p); every other pair of the 12 was separated
TABLE11 = [
    ("GPT-6 Astra", "GPT-6.1 Sol", 1, 0, "1.00"),
    ("GPT-6 Astra", "Gemini 4 Argon", 2, 0, "1.00"),
    ("GPT-6 Astra", "Claude Opus 5.5", 2, 0, "1.00"),
    ("GPT-6.1 Sol", "Gemini 4 Argon", 2, 1, "1.00"),
    ("GPT-6.1 Sol", "Claude Opus 5.5", 4, 2, "1.00"),
    ("Gemini 4 Argon", "Claude Opus 5.5", 4, 3, "1.00"),
    ("Claude Sonnet 5.5", "GPT-6 Luna", 20, 19, "1.00"),
    ("Claude Sonnet 5.5", "Claude Fable 5.1", 29, 18, "1.00"),
    ("GPT-6 Luna", "Claude Fable 5.1", 27, 15, "1.00"),
    ("Claude Fable 5.1", "DeepSeek V4 Pro", 29, 27, "1.00"),
    ("Claude Fable 5.1", "gpt-oss-120b", 38, 25, "1.00"),
    ("Claude Fable 5.1", "Mistral Large 3", 42, 28, "1.00"),
    ("DeepSeek V4 Pro", "gpt-oss-120b", 47, 27, "0.37"),
    ("DeepSeek V4 Pro", "Mistral Large 3", 54, 29, "0.12"),
    ("gpt-oss-120b", "Mistral Large 3", 52, 47, "1.00"),
]

MODELS_BY_ACCURACY = list(TABLE2_CALCULATION)  # Table 2 order, best first

# Table 14: repeat runs; (n, run 1 %, run 2 %, p, kappa, failed again, failed in run 1)
TABLE14 = {
    "GPT-6 Luna": (600, "93.5", "92.5", "0.45", "0.44", 20, 39),
    "gpt-oss-120b": (600, "85.7", "83.3", "0.12", "0.56", 58, 86),
    "Mistral Large 3": (599, "84.8", "83.1", "0.21", "0.68", 70, 91),
    "gpt-oss-20b": (600, "76.5", "73.0", "0.04", "0.60", 106, 141),
    "Gemma 3 27B": (599, "33.4", "30.1", "0.06", "0.62", 359, 399),
}

STRONGEST_CHECKERS = ("GPT-6 Astra", "GPT-6.1 Sol", "Gemini 4 Argon", "Claude Opus 5.5", "Claude Fable 5.1")


def agrees(value: float, printed: str) -> bool:
    """True when `value` rounds to the printed string: within half a unit of its last printed digit."""
    text = printed.strip()
    if "e" in text:                                   # "5e-6": one significant figure
        mantissa, exponent = text.split("e")
        unit = 10.0 ** int(exponent)
        return abs(value - float(mantissa) * unit) <= 0.5 * unit * (1 + 1e-9)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(value - float(text)) <= 0.5 * 10.0 ** (-decimals) * (1 + 1e-9)
