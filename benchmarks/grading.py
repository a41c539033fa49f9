"""Calculation responses graded per second on one core, against a naive pint baseline.

The mix imitates real responses: a few hundred characters of working, then the answer as a
box (plain, LaTeX units, equation chains, digit groups), an answer line, a last equation or
a last number; a fifth are wrong and a tenth malformed (ranges, bare numbers, unknown units).
The baseline extracts the same answer strings with the same code, then hands each to pint as
a string quantity and converts it to the reference unit, which is what a grader without a
unit cache does. Both run in this process, one after the other, after a warm-up of each;
rates are per second of this process's CPU time (one core), the best of --repeat passes, which
alternate between the two, so that other work on a shared machine does not count against either.

    .venv/bin/python benchmarks/grading.py [--n 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time

from physbench.grading import grade_calculation
from physbench.grading.extract import find_answer
from physbench.grading.normalize import clean
from physbench.grading.units import registry

# (reference unit, how models write it) for the medphys answer units
UNITS = [
    ("cGy", ["cGy", r"\text{cGy}", r"\mathrm{cGy}"]),
    ("cGy/MU", ["cGy/MU", r"\text{cGy/MU}", r"\mathrm{cGy\,MU^{-1}}", "cGy MU⁻¹", "cGy per MU"]),
    ("Gy", ["Gy", r"\text{Gy}", "Gy per fraction"]),
    ("MU", ["MU", r"\text{MU}", "monitor units"]),
    ("cm", ["cm", r"\text{cm}", "cm of concrete"]),
    ("mm", ["mm", "mm Al", r"\text{mm}"]),
    ("mGy", ["mGy", r"\text{mGy}"]),
    ("mGy cm", ["mGy cm", r"\text{mGy·cm}", r"\mathrm{mGy\cdot cm}"]),
    ("MBq h", ["MBq h", r"\text{MBq h}", "MBq·h"]),
    ("MBq", ["MBq", r"\text{MBq}"]),
    ("GBq", ["GBq", r"\text{GBq}"]),
    ("mCi", ["mCi", r"\text{mCi}"]),
    ("h", ["h", "hours"]),
    ("d", ["d", "days"]),
    ("min", ["min", "minutes"]),
    ("mSv", ["mSv", r"\text{mSv}"]),
    ("Sv", ["Sv", r"\text{Sv}"]),
    ("", [""]),
]

WORKING = [
    r"The dose rate constant is $\Lambda = 1.109$ cGy h$^{{-1}}$ U$^{{-1}}$ and $S_K = {a}$ U.",
    r"Step {b}: $r_c = 2XY/(X+Y) = 2 \times 16 \times 14/(16+14) = {a}$ cm",
    "The inverse-square factor is (100/{a})^2 = {b}.",
    r"$$P_{{TP}} = \frac{{273.2 + T}}{{295.2}} \cdot \frac{{101.33}}{{P}} = {a}$$",
    "We use the TMR at depth {b} cm, interpolated between the table entries.",
    "Then the decay factor is exp(-ln2 * t / T_half) = {a}.",
    "Multiplying through gives an intermediate of {a} before the last correction.",
    r"Collimator scatter $S_c = {a}$, phantom scatter $S_p = {b}$.",
]


def _value(rng: random.Random) -> float:
    return round(rng.uniform(0.2, 5000.0), rng.choice([1, 2, 3]))


def _number(v: float, rng: random.Random) -> str:
    s = f"{v:g}" if rng.random() < 0.5 else f"{v:.4g}"
    if v >= 1000 and rng.random() < 0.5:
        s = f"{v:,.0f}".replace(",", rng.choice([",", "{,}", r"\,"]))
    return s


def _working(rng: random.Random) -> str:
    lines = [rng.choice(WORKING).format(a=_value(rng), b=rng.randint(1, 12)) for _ in range(rng.randint(4, 10))]
    return "Let me work through this step by step.\n\n" + "\n".join(lines) + "\n\n"


def _answer(v: float, unit_text: str, rng: random.Random) -> str:
    n = _number(v, rng)
    sp = r"\ " if unit_text.startswith("\\") else " "
    form = rng.random()
    if form < 0.45:
        return rf"The result is $\boxed{{{n}{sp}{unit_text}}}$."
    if form < 0.60:
        return rf"$$\boxed{{X = {_value(rng)} \times {rng.random():.3f} = {n}{sp}{unit_text}}}$$"
    if form < 0.75:
        return f"**Final answer:** {n} {unit_text}"
    if form < 0.90:
        return f"Therefore X = {_value(rng)} / {rng.random():.3f} = {n} {unit_text}."
    return f"So the required quantity comes to about {n} {unit_text}."


def _malformed(v: float, unit_text: str, rng: random.Random) -> str:
    choice = rng.randrange(4)
    if choice == 0:
        return rf"\boxed{{{v:g} - {v * 1.02:g} {unit_text}}}"
    if choice == 1:
        return rf"\boxed{{{v:g}}}" if unit_text else rf"\boxed{{{v:g} furlongs}}"
    if choice == 2:
        return f"Final answer: {v:g} {unit_text} or {v * 1.1:g} {unit_text}"
    return rf"\boxed{{{v:g}\ \text{{bananas}}}}"


def make_mix(n: int, seed: int = 20261001) -> list[tuple[str, tuple[float, str]]]:
    """n (response, reference) pairs; about 70% right, 20% wrong, 10% malformed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        ref_unit, spellings = rng.choice(UNITS)
        v = _value(rng)
        unit_text = rng.choice(spellings)
        kind = rng.random()
        if kind < 0.7:
            ans = _answer(v, unit_text, rng)
        elif kind < 0.9:
            ans = _answer(round(v * rng.choice([0.9, 1.05, 10.0]), 4), unit_text, rng)
        else:
            ans = _malformed(v, unit_text, rng)
        out.append((_working(rng) + ans, (v, ref_unit)))
    return out


def naive_grade(text: str, reference: tuple[float, str], band: float) -> bool:
    """Same extraction and cleaning, then pint parses the string quantity and converts it."""
    ureg = registry()
    cand = find_answer(text)
    if cand is None:
        return False
    try:
        q = ureg.Quantity(clean(cand.text).rstrip("."))
        value = q.to(ureg.parse_units(reference[1].replace(" ", "*"))).magnitude
    except Exception:
        return False
    return abs(value - reference[0]) <= band * abs(reference[0])


def _pass(fn, mix) -> tuple[float, int]:
    t0 = time.process_time()
    passed = sum(1 for text, ref in mix if fn(text, ref))
    return time.process_time() - t0, passed


def _rates(fns, mix, repeat: int) -> list[tuple[float, int]]:
    """Responses per CPU second of each function, the best of `repeat` passes. The passes
    alternate between the functions, so that a neighbour's load on a shared machine falls on
    both sides of the ratio alike rather than on whichever happened to run during it."""
    best = [float("inf")] * len(fns)
    passed = [0] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            dt, passed[i] = _pass(fn, mix)
            best[i] = min(best[i], dt)
    return [(len(mix) / b, p) for b, p in zip(best, passed)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    mix = make_mix(args.n)
    band = 0.01
    ours = lambda text, ref: grade_calculation(text, ref, band).passed  # noqa: E731
    naive = lambda text, ref: naive_grade(text, ref, band)  # noqa: E731
    for fn in (ours, naive):  # warm both: registry, pint's and our caches
        for text, ref in mix[:300]:
            fn(text, ref)
    (ours_rate, ours_passed), (naive_rate, naive_passed) = _rates([ours, naive], mix, args.repeat)
    print(f"responses: {len(mix)} (mean {sum(len(t) for t, _ in mix) / len(mix):.0f} characters)")
    print(f"physbench grader : {ours_rate:10,.0f} responses/s  ({ours_passed} passed)")
    print(f"naive pint parse : {naive_rate:10,.0f} responses/s  ({naive_passed} passed)")
    print(f"ratio            : {ours_rate / naive_rate:10.2f}x  (targets: >= 10x, issue 17; >= 20,000/s, issue 2)")


if __name__ == "__main__":
    main()
