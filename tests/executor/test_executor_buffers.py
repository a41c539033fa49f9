"""Issue 33 item 2: the methods that copy their arguments' bytes (`b"".join`, `find`, `split`,
`int.from_bytes`, ...) refuse arrays and scalars holding Python objects (guards.BUFFER_METHODS),
while plain arrays keep their bytes for every consumer and for scipy's compiled code, and the same
method names on strings and lists behave as before. The refused routes are in attacks/raw_bytes.txt
(24 of them returned pointer bytes before)."""

from __future__ import annotations

import pytest

from physbench.executor import Executor

PLAIN_BUFFERS = """
import numpy as np
from scipy import integrate, interpolate, optimize, stats
def solve():
    a = np.arange(4, dtype=np.uint8)
    f = np.arange(3.0)
    spline = float(interpolate.CubicSpline([0.0, 1.0, 2.0], [0.0, 1.0, 4.0])(0.5))
    grid = float(interpolate.RegularGridInterpolator(([0.0, 1.0], [0.0, 1.0]), np.eye(2))([[0.5, 0.5]])[0])
    ivp = float(integrate.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], rtol=1e-8).y[0][-1])
    kde = float(stats.gaussian_kde([0.0, 1.0, 2.0])(1.0)[0])
    root = float(optimize.brentq(lambda t: t * t - 2.0, 0.0, 2.0))
    return (bytes(a).hex(), b''.join([a]).hex(), str(a, 'latin-1'), int.from_bytes(a, 'big'),
            np.frombuffer(f.data).tolist(), (b'%b' % a[:2]).hex(), spline, grid, round(ivp, 6), round(kde, 6), root)
"""


SAME_NAMES = """
import numpy as np
def solve():
    words = 'a,b,,c'.split(',')
    return (','.join(words), ' x '.strip(), [1, 2, 1].count(1), (3, 4).index(4), 'abc'.find('c'),
            'aXb'.replace('X', '-'), 'a b'.partition(' '), str.join('+', ['p', 'q']),
            b'-'.join([b'a', b'b']).hex(), b'abc'.find(b'c'), int.from_bytes(b'\\x01\\x00', 'little'),
            len(b'a b'.split()), bytes.maketrans(b'a', b'b').hex()[:4], np.bytes_(b'xy').find(b'y'))
"""


def test_the_same_method_names_keep_working_on_strings_lists_and_plain_bytes(scientific_ex, strict_ex):
    want = ("a,b,,c", "x", 2, 1, 2, "a-b", ("a", " ", "b"), "p+q", "612d62", 2, 1, 2, "0001", 1)
    r = scientific_ex.run(SAME_NAMES)
    assert r.status == "ok", r.error
    assert r.value == want
    r = strict_ex.run(SAME_NAMES.replace("import numpy as np\n", "").replace(", np.bytes_(b'xy').find(b'y')", ""))
    assert r.status == "ok", r.error
    assert r.value == want[:-1]


def test_plain_arrays_keep_their_buffers_for_every_consumer_and_for_scipy(scientific_ex):
    r = scientific_ex.run(PLAIN_BUFFERS)
    assert r.status == "ok", r.error
    hexa, joined, text, number, floats, percent, spline, grid, ivp, kde, root = r.value
    assert (hexa, joined, text, number, floats) == ("00010203", "00010203", "\x00\x01\x02\x03", 66051,
                                                     [0.0, 1.0, 2.0])
    assert percent == "0001"
    assert abs(spline - 0.25) < 1e-12 and abs(grid - 0.5) < 1e-12 and abs(ivp - 0.367879) < 1e-5
    from scipy import stats

    assert abs(kde - round(float(stats.gaussian_kde([0.0, 1.0, 2.0])(1.0)[0]), 6)) < 1e-12
    assert abs(root - 2 ** 0.5) < 1e-9


@pytest.mark.parametrize("modules", ["'numpy'", "'scipy'"])
def test_the_symbolic_policy_hands_out_no_numpy_array(modules):
    """Under `symbolic` numpy is neither loaded in the warm parent nor readable by the program, so
    no array (and no object array) exists there to read bytes from."""
    src = f"import sympy as sp\ndef solve():\n    x = sp.Symbol('x')\n" \
          f"    return str(sp.lambdify(x, sp.Matrix([[x]]), modules={modules})(1.0))\n"
    with Executor("symbolic", workers=1) as ex:
        r = ex.run(src)
    assert r.status == "raised", (r.status, r.value)
