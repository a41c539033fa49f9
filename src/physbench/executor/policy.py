"""What a sandboxed program may name: modules, builtins and attributes, per policy.

The seed executor (003_* Table 17) allows the standard calendar, datetime, math and time modules
and a short allow-list of arithmetic, container and type helpers; `scientific` adds numpy, scipy
and sympy as CritPt does (002_* section 3.2). Everything here is data; `static.py` enforces the
names before a program runs and `proxies.py` builds the modules it sees.
"""

from __future__ import annotations

# importable names per policy (dotted names are submodules reachable by `import a.b`)
STRICT_MODULES = ("math", "datetime", "time", "calendar")
SCIENTIFIC_SUBMODULES = {
    "numpy": ("linalg", "fft", "random", "polynomial", "emath"),
    "scipy": ("constants", "fft", "integrate", "interpolate", "linalg", "optimize", "special", "stats"),
    "sympy": (),
    "cmath": (),
}
# `symbolic`: the scientific policy's sympy and cmath without numpy and scipy, for programs whose
# template imports nothing else (most CritPt answers); its warm parent starts in about the time
# `import sympy` takes
SYMBOLIC_SUBMODULES = {"sympy": (), "cmath": ()}


def library_modules(policy: str) -> dict[str, tuple[str, ...]]:
    """The non-standard modules a policy offers, each with its importable submodules."""
    return {"scientific": SCIENTIFIC_SUBMODULES, "symbolic": SYMBOLIC_SUBMODULES}.get(policy, {})


def allowed_modules(policy: str) -> frozenset[str]:
    """Every module name a program under `policy` may import, submodules as dotted names."""
    names = set(STRICT_MODULES)
    for top, subs in library_modules(policy).items():
        names.add(top)
        names.update(f"{top}.{s}" for s in subs)
    return frozenset(names)


# builtins a program sees; no getattr/setattr/vars/dir/globals/locals/type/object/super/compile/
# exec/eval/open/input/breakpoint/help/memoryview/__import__ (the import statement goes through
# the sandbox's own importer, which only hands out proxies)
SAFE_BUILTINS = (
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex", "dict",
    "divmod", "enumerate", "filter", "float", "format", "frozenset", "hex", "int", "isinstance",
    "issubclass", "iter", "len", "list", "map", "max", "min", "next", "oct", "ord", "pow", "print",
    "range", "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip",
    "True", "False", "None", "Ellipsis", "NotImplemented",
    # exceptions a program may raise or catch
    "Exception", "ArithmeticError", "AssertionError", "AttributeError", "FloatingPointError",
    "IndexError", "KeyError", "LookupError", "NameError", "NotImplementedError", "OverflowError",
    "RecursionError", "RuntimeError", "StopIteration", "TypeError", "ValueError", "ZeroDivisionError",
)

# attribute names never allowed, whatever object they are read from: frames and code objects
# (the classic escape from a generator or traceback to a module's globals), format walks, file
# I/O methods of numpy arrays and friends, and names that only matter for escaping
FRAME_ATTRS = frozenset({
    "gi_frame", "gi_code", "gi_yieldfrom", "gi_running", "gi_suspended",
    "cr_frame", "cr_code", "cr_await", "cr_origin", "cr_running", "cr_suspended",
    "ag_frame", "ag_code", "ag_await", "ag_running",
    "f_back", "f_builtins", "f_code", "f_globals", "f_locals", "f_trace", "f_trace_lines",
    "f_trace_opcodes", "f_lasti", "f_lineno",
    "tb_frame", "tb_next", "tb_lasti", "tb_lineno",
})
FRAME_PREFIXES = ("co_", "gi_", "cr_", "ag_", "tb_")
DENIED_ATTRS = frozenset({
    "format_map",
    "tofile", "dump", "dumps", "load", "loads", "save", "savez", "savez_compressed", "savetxt",
    "loadtxt", "genfromtxt", "fromfile", "fromregex", "memmap", "DataSource", "ctypes", "ctypeslib", "cffi",
    "parse_expr", "preview", "init_printing", "init_session", "var",
    "sys", "os", "modules", "builtins", "environ", "getenv", "putenv", "system", "popen", "subprocess",
    "importlib", "mro",
})
# not denied as an attribute: `open` (sympy's `Interval.open` builds an open interval, CritPt's
# templates use it; the builtin stays unavailable, no file opener is offered by any proxy, and
# Landlock with the audit hook limits what any library could open)

# scientific modules: every public attribute is offered except modules not listed above and
# these names (file I/O, code generation, string parsing, pagers, plotting, config printing)
SCIENTIFIC_DENIED = {
    "numpy": frozenset({
        "load", "save", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile",
        "fromregex", "memmap", "DataSource", "ctypeslib", "lib", "show_config", "show_runtime", "info",
        "lookfor", "source", "get_include", "seterrcall", "geterrcall", "test", "f2py", "distutils",
        "add_docstring", "add_newdoc", "add_newdoc_ufunc", "deprecate", "deprecate_with_doc",
        "safe_eval", "recfromcsv", "recfromtxt", "disp", "byte_bounds", "setbufsize",
    }),
    "cmath": frozenset(),
    "scipy": frozenset({
        "LowLevelCallable", "show_config", "test", "set_backend", "set_global_backend",
        "register_backend", "skip_backend", "load_npz", "save_npz",
    }),
    "sympy": frozenset({
        "init_printing", "init_session", "preview", "var", "pager_print", "print_gtk",
        "source", "timed", "test", "doctest", "plot", "plot_implicit", "plot_parametric", "plot3d",
        "plot3d_parametric_line", "plot3d_parametric_surface", "plot_backends", "plotting",
        "interactive", "parse_expr", "ufuncify", "autowrap", "binary_function", "rust_code",
    }),
}

# the function a caller asks the sandbox to call must be a plain public name
CALL_NAME_PATTERN = r"[A-Za-z][A-Za-z0-9_]*"


def denied_attribute(name: str) -> str | None:
    """Why an attribute name may not be used in a program, or None when it may."""
    if name.startswith("_"):
        return "names starting with an underscore are not allowed"
    if name in FRAME_ATTRS or name.startswith(FRAME_PREFIXES):
        return "frame, generator and code attributes are not allowed"
    if name in DENIED_ATTRS:
        return "not allowed in the sandbox"
    return None
