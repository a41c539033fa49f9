"""The SymPy vocabulary the research grader accepts, as data shared by the parent and the sandbox.

Reference expression text may call FUNCTIONS and name CONSTANTS; a model's returned expression
(its `srepr` text) may use SREPR_CALLS and CONSTANTS. Everything else is refused before any
SymPy object is built. Each name exists at the top level of sympy >= 1.12 and is offered by the
executor's `scientific` proxy (a test checks both).
"""

from __future__ import annotations

import keyword

# elementary and special functions, usable in reference text and in returned expressions
FUNCTIONS = frozenset("""
exp log sin cos tan cot sec csc asin acos atan acot asec acsc atan2 sinh cosh tanh coth sech csch
asinh acosh atanh acoth Abs sign re im arg conjugate floor ceiling frac Min Max Heaviside DiracDelta
KroneckerDelta LeviCivita factorial factorial2 binomial RisingFactorial FallingFactorial gamma
lowergamma uppergamma loggamma digamma polygamma beta erf erfc erfi erfinv fresnels fresnelc Ei
expint Si Ci Shi Chi li Li zeta dirichlet_eta polylog lerchphi LambertW besselj bessely besseli
besselk hankel1 hankel2 jn yn airyai airybi airyaiprime airybiprime elliptic_k elliptic_e
elliptic_f elliptic_pi legendre assoc_legendre hermite laguerre assoc_laguerre chebyshevt chebyshevu
gegenbauer jacobi Ynm sinc Piecewise Mod And Or Not
""".split())

# only in reference text: helpers that build the nodes above (sqrt(x) is Pow(x, 1/2), Lt is
# StrictLessThan, ...)
TEXT_HELPERS = frozenset("sqrt cbrt root Rational Integer Float Lt Le Gt Ge Eq Ne".split())

# node classes that `srepr` prints for returned values (besides FUNCTIONS)
STRUCTURE = frozenset("""
Add Mul Pow Integer Rational Float Symbol Dummy Tuple ExprCondPair Equality Unequality
StrictLessThan LessThan StrictGreaterThan GreaterThan ImmutableDenseMatrix MutableDenseMatrix
FiniteSet Interval Union
""".split())

SREPR_CALLS = FUNCTIONS | STRUCTURE

# singletons that srepr prints as bare names
CONSTANTS = frozenset("pi E I oo zoo nan EulerGamma Catalan GoldenRatio TribonacciConstant true false "
                      "EmptySet".split())

# the symbol assumptions a step may give its arguments (sympy's assumption keys)
ASSUMPTIONS = frozenset("""
real positive negative nonnegative nonpositive nonzero zero integer rational irrational finite
complex imaginary even odd prime extended_real extended_positive extended_negative
extended_nonnegative extended_nonpositive commutative
""".split())

# keyword arguments srepr prints (Float precision, Dummy index) besides assumptions
SREPR_KEYWORDS = ASSUMPTIONS | {"precision", "dummy_index"}

_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_plain_identifier(name: object) -> bool:
    """A name a symbol or argument may have: ASCII letters, digits, '_', not first, no keyword."""
    return (isinstance(name, str) and 0 < len(name) <= 40 and name[0].isalpha() and name.isascii()
            and set(name) <= _IDENT_CHARS and not keyword.iskeyword(name))
