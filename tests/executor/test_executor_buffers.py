"""Issue 33 item 2: no array holding Python objects exports its bytes through the buffer protocol
(executor/buffers.py), while plain arrays keep theirs for every consumer and for scipy's compiled
code. The attack corpus (attacks/raw_bytes.txt) holds the refused routes; most of them returned
pointer bytes before buffers.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from physbench.executor import Executor


def _run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_guard_refuses_every_consumer_and_later_subclasses_inherit_it():
    """In a process of its own: object arrays, structured and void scalars and a subclass made after
    the guard was installed export nothing; plain arrays still do."""
    out = _run_python("""
        import numpy as np
        from physbench.executor import buffers
        assert buffers.refuse_object_buffers() > 0 and buffers.calls()
        class Later(np.ndarray):
            pass
        o = np.array([1, 'a'], dtype='O')
        s = np.array([(1,)], dtype=[('a', 'O')])
        refused = 0
        for value in (o, s, s[0], o.view(Later), np.array(['x' * 40], dtype='T')):
            for consume in (bytes, lambda v: b''.join([v]), lambda v: str(v, 'latin-1'),
                            lambda v: int.from_bytes(v, 'little'), memoryview, lambda v: b'%b' % v):
                try:
                    consume(value)
                except (TypeError, SystemError, ValueError):
                    refused += 1
        a = np.arange(3, dtype=np.uint8)
        print(refused, bytes(a).hex(), memoryview(a).tolist(), int.from_bytes(a, 'little'))
    """)
    assert out == "30 000102 [0, 1, 2] 131328"


def test_the_audit_hook_allows_only_the_guards_own_ctypes_calls():
    out = _run_python("""
        import ctypes
        from physbench.executor import audit
        audit.install(frozenset({1}))
        try:
            ctypes.CDLL(None).getpid()
            print('called')
        except audit.SandboxViolation as exc:
            print('refused')
    """)
    assert out == "refused"


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
