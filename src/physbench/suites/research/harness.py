"""Sandbox-side code appended to the model's program: it calls `answer` and returns plain JSON.

`physbench_plain(answer())` for value types; for a symbolic step `physbench_symbolic(...)` builds
the reference from its text (the sandbox's safe sympify), caps the model expression's size, then
runs the ladder: structural equality, `simplify(a - b) == 0` for small expressions, and
30-digit evaluation at the given sample points; equal only if no sample disagrees (issue 15).
"""

HARNESS = '''

import numpy as physbench_np
import sympy as physbench_sp


def physbench_plain(v, depth=0):
    if depth > 8:
        return {"kind": "too_deep"}
    if isinstance(v, (bool, int, float, complex, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        if len(v) > 1000:
            return {"kind": "too_long"}
        return [physbench_plain(x, depth + 1) for x in v]
    if isinstance(v, (set, frozenset)):
        return {"set": [physbench_plain(x, depth + 1) for x in list(v)[:1000]]}
    if isinstance(v, physbench_sp.Basic):
        if v == physbench_sp.true or v == physbench_sp.false:
            return bool(v)
        if isinstance(v, physbench_sp.Integer):
            return int(v)
        if isinstance(v, physbench_sp.Interval):
            return {"interval": [physbench_plain(v.start, depth + 1), physbench_plain(v.end, depth + 1),
                                 not v.left_open, not v.right_open]}
        if isinstance(v, physbench_sp.FiniteSet):
            return {"set": [physbench_plain(x, depth + 1) for x in list(v.args)[:1000]]}
        if v.is_number:
            z = complex(physbench_sp.N(v, 30))
            return z.real if z.imag == 0 else z
        return {"kind": "expression"}
    if isinstance(v, (physbench_np.ndarray, physbench_np.generic)):
        return physbench_plain(v.tolist(), depth + 1)
    return {"kind": "other"}


def physbench_value():
    return physbench_plain(answer())


def physbench_symbolic(ref_text, specs, points, rtol, max_ops):
    syms = [physbench_sp.Symbol(name, **facts) for name, facts in specs]
    table = dict(zip([s[0] for s in specs], syms))
    ref = physbench_sp.sympify(ref_text, table)
    got = answer(*syms)
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        got = physbench_sp.nsimplify(got) if isinstance(got, float) else physbench_sp.Integer(got)
    if not isinstance(got, physbench_sp.Expr):
        return {"verdict": "bad_kind", "why": "not a SymPy expression"}
    if physbench_sp.count_ops(got) > max_ops or len(str(got)) > 20000:
        return {"verdict": "wrong", "why": "expression too large"}
    rename = dict((s, table[s.name]) for s in got.free_symbols if s.name in table and s not in syms)
    if rename:  # a model that made its own Symbol("p") means the argument p
        got = got.xreplace(rename)
    if got.free_symbols - set(syms):
        return {"verdict": "wrong", "why": "unknown symbols " + ", ".join(sorted(str(s) for s in got.free_symbols - set(syms)))}
    structural = got == ref
    simplified = False
    if not structural and physbench_sp.count_ops(got) + physbench_sp.count_ops(ref) <= 200:
        simplified = physbench_sp.simplify(got - ref) == 0
    agree = 0
    for point in points:
        subs = dict(zip(syms, [physbench_sp.Rational(x) for x in point]))
        a = complex(physbench_sp.N(got.subs(subs), 30))
        b = complex(physbench_sp.N(ref.subs(subs), 30))
        if abs(a - b) > rtol * max(abs(b), 1e-300):
            return {"verdict": "wrong", "why": "differs at " + str(point)}
        agree += 1
    if structural or simplified or agree == len(points):
        rung = "structural" if structural else ("simplify" if simplified else "numeric")
        return {"verdict": "correct", "rung": rung}
    return {"verdict": "wrong", "why": "no rung agreed"}
'''

HARNESS += '''

def physbench_call(*args):
    return physbench_plain(answer(*args))
'''
