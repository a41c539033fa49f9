"""Numeric helpers of the judge: sample points for comparing expressions, stand-ins for
undefined functions, 30-digit evaluation, and one-to-one matching of set elements."""

from __future__ import annotations

import random
from typing import Any

from physbench.suites.research.symbols import Symbols


def perfect_matching(edges: list[list[int]], n: int) -> bool:
    """Whether every left item can take a distinct right item (augmenting paths, breadth-first,
    no recursion)."""
    owner = [-1] * n            # right j -> left i holding it
    holds = [-1] * len(edges)   # left i -> right j it holds
    for start in range(len(edges)):
        came: dict[int, int] = {}  # right j -> left i it was reached from
        queue, head, free = [start], 0, -1
        while head < len(queue) and free < 0:
            i = queue[head]
            head += 1
            for j in edges[i]:
                if j in came:
                    continue
                came[j] = i
                if owner[j] == -1:
                    free = j
                    break
                queue.append(owner[j])
        if free < 0:
            return False
        j = free
        while j != -1:  # flip the path: each left item on it takes the right item it reached
            i = came[j]
            nxt = holds[i]
            owner[j], holds[i] = i, j
            j = nxt
    return True


def sample_points(symbols: Symbols, samples: int, seed: int, specials: bool = True) -> list[dict[str, str]]:
    """Points for the numeric rung, as exact decimal text per symbol. An integer symbol takes every
    integer of a domain of at most 13, else its two ends, 0 and +-1 where inside, then random ones
    (with specials=False: random ones only)."""
    rng = random.Random(seed)
    names = symbols.symbol_names()
    special: dict[str, list[int]] = {}
    for n in names:
        if specials and symbols.assumptions.get(n, {}).get("integer"):
            lo, hi = symbols.integer_range(n)
            special[n] = list(range(lo, hi + 1)) if hi - lo <= 12 else \
                sorted({lo, hi} | ({0, 1, -1} & set(range(lo, hi + 1))))
    rows = max([samples, *(len(v) for v in special.values())])
    points = []
    for r in range(rows):
        point = {}
        for n in names:
            if symbols.assumptions.get(n, {}).get("integer"):
                lo, hi = symbols.integer_range(n)
                vals = special.get(n, [])
                point[n] = str(vals[r] if r < len(vals) else rng.randint(lo, hi))
            else:
                lo_f, hi_f = symbols.sampling_range(n)
                point[n] = f"{rng.uniform(lo_f, hi_f):.6f}"
        points.append(point)
    return points


def stand_ins(sp: Any, e: Any, symbols: Symbols) -> Any:
    """`e` with each undefined-function argument replaced by a fixed smooth function of its arguments."""
    if not symbols.functions:
        return e
    table = {}
    for name in symbols.functions:
        rng = random.Random(name)
        coeffs = [sp.Rational(rng.randint(1, 97), rng.randint(1, 13)) for _ in range(8)]

        def smooth(*args: Any, c: list = coeffs) -> Any:
            return c[0] + sum(c[1 + i % 7] * sp.sin(c[(i + 3) % 8] * a + i + 1) for i, a in enumerate(args))

        table[name] = smooth
    out = e
    for name, fn in table.items():
        out = out.replace(sp.Function(name), fn)
    return out


def evaluate(sp: Any, e: Any, subs: dict[Any, Any]) -> complex | None:
    try:
        z = complex(sp.N(e.subs(subs), 30))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
        return None
    if z != z or abs(z) == float("inf"):
        return None
    return z
