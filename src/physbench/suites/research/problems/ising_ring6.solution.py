"""Reference solution of ising_ring6.json: the N = 6 periodic Ising ring, by enumeration.

E = -J sum_i s_i s_{i+1}; transfer-matrix result Z = (2 cosh K)^N + (2 sinh K)^N with K = J/kT
(Baxter 1982, Exactly Solved Models, eq. 2.1.17 at h = 0).
"""

import itertools
import math

import sympy as sp

N = 6


def _energies():
    for s in itertools.product((1, -1), repeat=N):
        yield -sum(s[i] * s[(i + 1) % N] for i in range(N))


def checkpoint_1():
    return sorted(set(_energies()))


def checkpoint_2():
    return sum(1 for e in _energies() if e == -2)


def checkpoint_3():
    return lambda K: sum(math.exp(-K * e) for e in _energies())


def challenge():
    K = sp.Symbol("K", positive=True)
    return sp.expand(sum(sp.exp(-K * e) for e in _energies()))


if __name__ == "__main__":
    print(checkpoint_1(), checkpoint_2(), checkpoint_3()(0.5), challenge())
