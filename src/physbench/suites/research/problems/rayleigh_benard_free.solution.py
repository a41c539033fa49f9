"""Reference solution of rayleigh_benard_free.json.

Linear stability of Rayleigh-Benard convection between stress-free, isothermal plates:
marginal curve Ra(a) = (pi^2 + a^2)^3 / a^2 (Chandrasekhar 1961, Hydrodynamic and Hydromagnetic
Stability, ch. II eq. 118; Drazin & Reid 2004 eq. 2.3.27), minimised at a_c = pi/sqrt(2) with
Ra_c = 27 pi^4 / 4 ~ 657.51.
"""

import math

import sympy as sp
from scipy.optimize import brentq


def checkpoint_1():
    a = sp.Symbol("a", positive=True)
    return (sp.pi**2 + a**2) ** 3 / a**2


def checkpoint_2():
    a = sp.Symbol("a", positive=True)
    (root,) = [r for r in sp.solve(sp.diff(checkpoint_1(), a), a) if r.is_positive]
    return float(root)


def challenge():
    a = checkpoint_2()
    return (float((math.pi**2 + a**2) ** 3 / a**2), a)


def checkpoint_3():
    f = lambda a: (math.pi**2 + a**2) ** 3 / a**2 - 1000.0
    ac = checkpoint_2()
    return [brentq(f, 0.1, ac, xtol=1e-15), brentq(f, ac, 20.0, xtol=1e-15)]


if __name__ == "__main__":
    for f in (checkpoint_1, checkpoint_2, checkpoint_3, challenge):
        print(f.__name__, repr(f()))
