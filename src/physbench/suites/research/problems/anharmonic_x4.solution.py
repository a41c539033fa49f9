"""Reference solution of anharmonic_x4.json: Rayleigh-Schroedinger perturbation theory for
H = p^2/2 + x^2/2 + lam x^4 (hbar = m = omega = 1), with exact matrix elements of x in the
number basis, x = (a + a^dagger)/sqrt(2) (Sakurai, Modern QM, eq. 2.3.24; second-order
coefficient -21/8 as in Bender & Wu 1969, Phys. Rev. 184, 1231).
"""

import sympy as sp

M = 16  # enough levels: x^4 connects n to n +- 4 only


def _x4():
    x = sp.zeros(M, M)
    for n in range(M - 1):
        x[n, n + 1] = x[n + 1, n] = sp.sqrt(sp.Integer(n + 1) / 2)
    return x ** 4


def checkpoint_1():
    return _x4()[0, 0]


def checkpoint_2():
    n = sp.Symbol("n", integer=True, nonnegative=True)
    vals = [_x4()[k, k] for k in range(4)]
    poly = sp.interpolate(list(zip(range(4), vals)), n)
    return sp.factor(poly)


def checkpoint_3():
    x4 = _x4()
    return [int(k) for k in range(1, 8) if x4[k, 0] != 0]


def challenge():
    x4 = _x4()
    return sp.nsimplify(sum(x4[k, 0] ** 2 / (0 - k) for k in range(1, 8)))


if __name__ == "__main__":
    print(checkpoint_1(), checkpoint_2(), checkpoint_3(), challenge())
