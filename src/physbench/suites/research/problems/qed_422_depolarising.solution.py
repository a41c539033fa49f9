"""Reference solution of qed_422_depolarising.json: every stored answer, by enumeration.

The [[4,2,2]] code has stabilisers XXXX and ZZZZ (Gottesman, "Stabilizer codes and quantum error
correction", 1997, section 3.5 / the 4-qubit code). Each qubit suffers X, Y or Z with p/3 each
(depolarising channel, Nielsen & Chuang eq. 8.102). A Pauli error is detected iff it
anticommutes with a stabiliser; it is a logical error iff it commutes with both and is not in
the stabiliser group {IIII, XXXX, YYYY, ZZZZ}.
"""

import itertools

import sympy as sp

P = "IXYZ"
STAB_GROUP = {"IIII", "XXXX", "YYYY", "ZZZZ"}


def _anticommute(a: str, b: str) -> bool:
    odd = sum(1 for x, y in zip(a, b) if x != "I" and y != "I" and x != y)
    return odd % 2 == 1


def _undetected(e: str) -> bool:
    return not _anticommute(e, "XXXX") and not _anticommute(e, "ZZZZ")


def checkpoint_1():
    return all(not _undetected(e) for e in ("".join(t) for t in itertools.product(P, repeat=4))
               if sum(c != "I" for c in e) == 1)


def checkpoint_2():
    return sum(1 for t in itertools.product(P, repeat=4) if sum(c != "I" for c in t) == 2
               and _undetected("".join(t)))


def checkpoint_3():
    p = sp.Symbol("p", real=True)
    total = sp.Integer(0)
    for t in itertools.product(P, repeat=4):
        e = "".join(t)
        if e != "IIII" and e in STAB_GROUP:
            w = sum(c != "I" for c in e)
            total += (p / 3) ** w * (1 - p) ** (4 - w)
    return sp.expand(total)


def challenge():
    p = sp.Symbol("p", real=True)
    total = sp.Integer(0)
    for t in itertools.product(P, repeat=4):
        e = "".join(t)
        if _undetected(e) and e not in STAB_GROUP:
            w = sum(c != "I" for c in e)
            total += (p / 3) ** w * (1 - p) ** (4 - w)
    return sp.expand(total)


if __name__ == "__main__":
    for f in (checkpoint_1, checkpoint_2, checkpoint_3, challenge):
        print(f.__name__, f())
