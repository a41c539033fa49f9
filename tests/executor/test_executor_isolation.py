"""Issue 33 item 2: no Python-level road from the `scientific` policy to denied numpy functions,
the real ndarray or raw memory; Landlock reads stop at the policy's packages; every program in a
warm worker starts from its own random state. Each test failed on main before this change."""

from __future__ import annotations

import os
import site
import sysconfig
from pathlib import Path

import pytest

# numpy names the scientific proxy withholds (policy.SCIENTIFIC_DENIED) plus the raw array class
DENIED_NUMPY = ["fromfile", "memmap", "load", "save", "savetxt", "loadtxt", "frombuffer", "ndarray", "lib",
                "ctypeslib", "DataSource", "genfromtxt", "fromregex", "show_config", "info"]


@pytest.mark.parametrize("modules", ["None", "'numpy'", "'math'", "'mpmath'", "'scipy'"])
def test_lambdify_never_looks_up_a_user_function_name_in_numpy(scientific_ex, modules):
    """A user-defined sympy.Function named like a denied numpy function evaluates to nothing."""
    names = ", ".join(repr(n) for n in DENIED_NUMPY)
    src = f"""
import sympy as sp
def solve():
    x = sp.Symbol('x')
    out = []
    for name in [{names}]:
        f = sp.lambdify(x, sp.Function(name)(x), modules={modules})
        try:
            v = f(1.0)
            out.append(name + ' gave ' + repr(v)[:60])
        except NameError as e:
            out.append('refused')
    return out
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value == ["refused"] * len(DENIED_NUMPY), r.value


def test_lambdify_still_translates_the_functions_sympy_prints(scientific_ex):
    src = """
import numpy as np
import sympy as sp
def solve():
    x = sp.Symbol('x')
    e = sp.sin(x) + sp.besselj(0, x) + sp.Abs(x) + sp.acos(x / 2)
    a = float(sp.lambdify(x, e)(0.5))
    b = float(sp.lambdify(x, e, 'math')(0.5))
    c = [float(v) for v in sp.lambdify(x, e)(np.array([0.5, 0.25]))]
    return a, b, c, float(sp.nsolve(sp.cos(x) - x, x, 0.5))
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    a, b, c, root = r.value
    assert abs(a - b) < 1e-12 and abs(c[0] - a) < 1e-12 and abs(root - 0.7390851332151607) < 1e-9


RAW_MEMORY = {
    "tobytes": "o.tobytes()",
    "data": "o.data",
    "view as int": "o.view(np.int64)",
    "view int as object": "np.arange(2).view('O')",
    "structured view": "np.zeros(2, dtype='V16').view([('a', 'O'), ('b', 'O')])",
    "getfield": "o.getfield(np.int64)",
    "setfield": "o.setfield(5, np.int64)",
    "byteswap": "o.byteswap()",
    "bytes()": "bytes(o)",
    "frombuffer of objects": "np.frombuffer(o, dtype=np.int64)",
    "frombuffer as objects": "np.frombuffer(bytes(16), dtype=object)",
    "ndarray over objects": "np.ndarray((2,), np.int64, o)",
    "ndarray as objects": "np.ndarray((2,), 'O', bytes(16))",
    "unbound tobytes": "np.ndarray.tobytes(o)",
    "unbound view": "np.ndarray.view(np.arange(2), 'O')",
    "structured tobytes": "np.array([(1,)], dtype=[('a', 'O')]).tobytes()",
    "scalar void": "np.array([(1,)], dtype=[('a', 'O')])[0].tobytes()",
    "resize without refcheck": "v.base.resize(100, refcheck=False)",
    "resize without refcheck, by mapping": "v.base.resize(100, **{'refcheck': False})",
}


@pytest.mark.parametrize("name", list(RAW_MEMORY))
def test_object_arrays_neither_expose_nor_take_raw_bytes(scientific_ex, name):
    src = f"""
import numpy as np
def solve():
    o = np.array([1, 'a'], dtype='O')
    v = np.zeros(4)[:]
    r = {RAW_MEMORY[name]}
    return 'reached'
"""
    r = scientific_ex.run(src)
    assert r.status in ("raised", "rejected") and r.value is None, (r.status, r.error)


def test_a_match_pattern_cannot_read_raw_memory_attributes(scientific_ex):
    src = "import numpy as np\ndef solve():\n    match np.array([1], dtype='O'):\n" \
          "        case np.ndarray(data=d):\n            return 1\n    return 0\n"
    r = scientific_ex.run(src)
    assert r.status == "rejected" and "raw memory" in r.error


def test_plain_arrays_keep_their_bytes_and_views(scientific_ex):
    src = """
import numpy as np
def solve():
    a = np.arange(4, dtype=np.int64)
    b = np.arange(3.0)
    b.resize(5)
    return a.view(np.int32).tolist()[:2], len(a.tobytes()), a.byteswap().tolist()[1], b.tolist()
"""
    r = scientific_ex.run(src)
    assert r.status == "ok", r.error
    assert r.value == ([0, 0], 32, 1 << 56, [0.0, 1.0, 2.0, 0.0, 0.0])


def test_strict_programs_cannot_import_numpy(strict_ex):
    for src in ("import numpy\ndef solve():\n    return 1", "def solve():\n    import numpy.lib\n    return 1"):
        assert strict_ex.run(src).status == "rejected"


def _site_dirs() -> set[str]:
    dirs = set(site.getsitepackages()) | {site.getusersitepackages()}
    for scheme_vars in (None, {"base": os.sys.base_prefix, "platbase": os.sys.base_exec_prefix}):
        paths = sysconfig.get_paths(vars=scheme_vars) if scheme_vars else sysconfig.get_paths()
        dirs |= {paths["purelib"], paths["platlib"]}
    return {os.path.realpath(d) for d in dirs if os.path.isdir(d)} | {"/usr/lib/python3/dist-packages"}


def _beneath(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@pytest.mark.parametrize("policy", ["strict", "scientific", "symbolic"])
def test_landlock_roots_stop_at_the_policys_packages(policy):
    """No read root holds a whole site-packages folder; beneath one, exactly the policy's packages."""
    from physbench.executor.layers import read_roots

    roots = read_roots(policy)
    sites = _site_dirs()
    assert not [(r, s) for r in roots for s in sites if _beneath(s, r)], "a root holds a site-packages folder"
    inside = {Path(r).name for r in roots for s in sites if _beneath(r, s) and r != s}
    want = {"scientific": {"numpy", "scipy", "sympy", "mpmath", "numpy.libs", "scipy.libs"},
            "symbolic": {"sympy", "mpmath"}}.get(policy, set())
    installed = {n for n in want if any(os.path.isdir(os.path.join(s, n)) for s in sites)}
    assert inside == installed, inside
    src = os.path.realpath(Path(__file__).resolve().parents[2] / "src")
    assert not any(_beneath(src, r) or _beneath(r, src) for r in roots)


def test_each_program_in_a_worker_starts_from_fresh_random_state():
    from physbench.executor import Executor

    src = """
import numpy as np
import scipy.stats as st
def solve():
    return float(np.random.random()), float(np.random.default_rng().random()), float(st.norm.rvs())
"""
    with Executor("scientific", workers=1) as ex:
        first, second, third = (ex.run(src) for _ in range(3))
    assert first.ok and second.ok and third.ok
    for i in range(3):
        assert len({first.value[i], second.value[i], third.value[i]}) == 3, (first.value, second.value)


@pytest.fixture(scope="module")
def symbolic_ex():
    from physbench.executor import Executor

    with Executor("symbolic", workers=1) as ex:
        yield ex


def test_the_symbolic_policy_offers_sympy_alone_with_the_same_guards(symbolic_ex):
    """`symbolic` (sympy and cmath, no numpy or scipy) keeps every scientific guard."""
    assert symbolic_ex.run("import numpy\ndef solve():\n    return 1").status == "rejected"
    assert symbolic_ex.run("import scipy.special\ndef solve():\n    return 1").status == "rejected"
    r = symbolic_ex.run("import sympy as sp\nimport cmath\ndef solve():\n    x = sp.Symbol('x')\n"
                        "    return float(sp.lambdify(x, sp.sin(x))(0.5)), sp.integrate(x, (x, 0, 2)), cmath.sqrt(-1)")
    assert r.status == "ok" and abs(r.value[0] - 0.479425538604203) < 1e-12 and r.value[1:] == (2, 1j), r
    names = ", ".join(repr(n) for n in DENIED_NUMPY)
    r = symbolic_ex.run(f"import sympy as sp\ndef solve():\n    x = sp.Symbol('x')\n    out = []\n"
                        f"    for name in [{names}]:\n        try:\n"
                        f"            out.append(repr(sp.lambdify(x, sp.Function(name)(x))(1.0))[:40])\n"
                        f"        except NameError:\n            out.append('refused')\n    return out")
    assert r.status == "ok" and r.value == ["refused"] * len(DENIED_NUMPY), r
    r = symbolic_ex.run("import sympy as sp\nsp.simplify = abs\ndef solve():\n    return 1")
    assert r.status == "rejected" and "read-only" in r.error


@pytest.mark.parametrize("policy", ["symbolic", "scientific"])
def test_classes_the_warm_up_imports_get_the_attribute_guards_too(policy):
    """The warm-up imports modules lazily (sympy's risch integrator, scipy's odr...); their classes
    that serve attributes from data must refuse dunder names like those imported before."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(f"""
        import sys
        from physbench.executor import gadgets, lambdify, proxies, warmup
        gadgets.install_scientific(with_scipy={policy == "scientific"})
        lambdify.use_modules(proxies.build_proxies({policy!r}))
        warmup.run({policy!r})
        bare = []
        for name, module in list(sys.modules.items()):
            if module is None or name.split(".", 1)[0] not in gadgets.LIBRARIES:
                continue
            for value in list(vars(module).values()):
                if isinstance(value, type) and str(value.__module__).split(".", 1)[0] in gadgets.LIBRARIES:
                    hook = value.__dict__.get("__getattr__")
                    if callable(hook) and hasattr(hook, "__code__") and not getattr(hook, "_pb_guard", False):
                        bare.append(value.__module__ + "." + value.__qualname__)
        print(sorted(set(bare)))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
