"""Compact letter display: models that the pairwise tests do not separate share a letter.

Insert-and-absorb followed by a sweep of redundant letters (Piepho 2004, J. Comput. Graph. Stat.
13:456), the display the seed uses in its accuracy figure (000 "Statistics", Figure 2a).
"""

from __future__ import annotations

import string
from typing import Iterable, Mapping, Sequence


def compact_letters(names: Sequence[str], different: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Letters for `names` (best first) such that two names share a letter iff no test separated them (Piepho 2004)."""
    order = list(names)
    if len(set(order)) != len(order):
        raise ValueError("names must be unique")
    index = {name: i for i, name in enumerate(order)}
    pairs: set[frozenset[int]] = set()
    for first, second in different:
        if first not in index or second not in index:
            unknown = first if first not in index else second
            raise ValueError(f"unknown name in a pairwise comparison: {unknown!r}")
        if first != second:
            pairs.add(frozenset((index[first], index[second])))

    columns: list[set[int]] = [set(range(len(order)))] if order else []
    for pair in sorted(pairs, key=sorted):
        i, j = sorted(pair)
        split: list[set[int]] = []
        for col in columns:
            if i in col and j in col:                     # insert: the pair must not share this letter
                split.extend([col - {i}, col - {j}])
            else:
                split.append(col)
        columns = _absorb(split)
    columns = _absorb(_sweep(columns, pairs))
    # letters in the order of each column's best-ranked member, so the leader gets "a"
    columns.sort(key=lambda col: sorted(col))
    letters = _alphabet(len(columns))
    return {name: "".join(letters[k] for k, col in enumerate(columns) if index[name] in col) for name in order}


def letters_from_pvalues(
    names: Sequence[str], pvalues: Mapping[tuple[str, str], float], alpha: float = 0.05
) -> dict[str, str]:
    """Compact letters from (already adjusted) pairwise p values: a pair is separated when p < alpha."""
    return compact_letters(names, [pair for pair, p in pvalues.items() if p < alpha])


def _absorb(columns: list[set[int]]) -> list[set[int]]:
    """Drop empty columns, duplicates and columns contained in another column."""
    kept: list[set[int]] = []
    for col in sorted((c for c in columns if c), key=len, reverse=True):
        if not any(col <= other for other in kept):
            kept.append(col)
    return kept


def _sweep(columns: list[set[int]], pairs: set[frozenset[int]]) -> list[set[int]]:
    """Remove a member from a column when every partner it meets there is met in another column too."""
    columns = [set(c) for c in columns]
    for k, col in enumerate(columns):
        for member in sorted(col):
            partners = col - {member}
            needed = any(
                not any(member in other and partner in other for m, other in enumerate(columns) if m != k)
                for partner in partners
            )
            alone_elsewhere = any(member in other for m, other in enumerate(columns) if m != k)
            if not needed and (partners or alone_elsewhere):
                col.discard(member)
    return columns


def _alphabet(count: int) -> list[str]:
    """a..z, then aa..zz, for displays with more than 26 letters."""
    single = list(string.ascii_lowercase)
    double = [x + y for x in single for y in single]
    if count > len(single) + len(double):
        raise ValueError(f"{count} letters are more than the display supports ({len(single) + len(double)})")
    return (single + double)[:count]
