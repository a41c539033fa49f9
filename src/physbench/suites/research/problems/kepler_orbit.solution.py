"""Reference solution of kepler_orbit.json: a bound orbit in V = -k/r.

Orbit equation r(phi) = p / (1 + e cos phi) with p = L^2/(m k) and e = sqrt(1 + 2 E L^2/(m k^2))
(Goldstein, Classical Mechanics 3rd ed., eqs. 3.55-3.57); period T = 2 pi sqrt(m a^3 / k) with
a = -k/(2E) (Kepler's third law, Goldstein eq. 3.71).
"""

import math

import sympy as sp

M, K, E, L = 2.0, 3.0, -0.5, 1.5


def checkpoint_1():
    E_ = sp.Symbol("E", negative=True)
    L_, m, k = sp.symbols("L m k", positive=True)
    return sp.sqrt(1 + 2 * E_ * L_**2 / (m * k**2))


def checkpoint_2():
    e = math.sqrt(1 + 2 * E * L**2 / (M * K**2))
    return "ellipse" if e < 1 else ("parabola" if e == 1 else "hyperbola")


def checkpoint_3():
    p = L**2 / (M * K)
    e = math.sqrt(1 + 2 * E * L**2 / (M * K**2))
    return p / (1 + e)


def challenge():
    a = -K / (2 * E)
    return 2 * math.pi * math.sqrt(M * a**3 / K)


if __name__ == "__main__":
    print(checkpoint_1(), checkpoint_2(), repr(checkpoint_3()), repr(challenge()))
