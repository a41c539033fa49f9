"""Values cross the boundary as tagged JSON: round-trips, caps, never a pickle."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.executor.values import BadValue, decode, encode

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
keys = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
trees = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.tuples(c, c)
                     | st.dictionaries(keys, c, max_size=4), max_leaves=20)


@given(trees)
@settings(max_examples=200, deadline=None)
def test_json_safe_values_round_trip(value):
    assert decode(encode(value, 10**6)) == value


@given(st.recursive(st.integers() | st.floats() | st.text(), lambda c: st.lists(c) | st.tuples(c),
                    max_leaves=30))
@settings(max_examples=100, deadline=None)
def test_encode_never_raises_anything_but_bad_value(value):
    try:
        encode(value, 200)
    except BadValue:
        pass


def test_dates_become_iso_strings_and_timedeltas_iso_durations():
    assert decode(encode(dt.date(2024, 2, 29), 100)) == "2024-02-29"
    assert decode(encode(dt.datetime(2024, 1, 2, 3, 4), 100)) == "2024-01-02T03:04:00"
    assert decode(encode(dt.timedelta(days=280), 100)) == "P280D"
    assert decode(encode(dt.timedelta(hours=1, seconds=4.5), 100)) == "PT1H4.5S"


def test_complex_and_nan_survive():
    c, nan = decode(encode((complex(1, 2), math.nan), 100))
    assert c == complex(1, 2) and math.isnan(nan)


@pytest.mark.parametrize("make", [lambda: {print}, lambda: print, object, lambda: b"bytes",
                                  lambda: 2 ** 20000, lambda: {print: 3}, lambda: "x" * 200],
                         ids=["set-of-functions", "function", "object", "bytes", "huge-int", "function-key",
                              "long-str"])
def test_unsafe_or_oversized_values_are_refused(make):
    with pytest.raises(BadValue):
        encode(make(), 100)


def test_depth_limit():
    x: list = []
    for _ in range(40):
        x = [x]
    with pytest.raises(BadValue):
        encode(x, 10**6)


def test_sets_and_sympy_text_come_back_as_what_they_were():
    """Issue 33/37: sets (of tuples) cross the boundary; sympy text is tagged, never a plain string."""
    import sympy as sp

    from physbench.executor.values import SymPyText

    x = sp.Symbol("x")
    back = decode(encode(({(1, "a"), (2, "b")}, frozenset({3}), sp.sin(x), "sin(x)", sp.Integer(7), sp.true), 10_000))
    assert back[0] == frozenset({(1, "a"), (2, "b")}) and back[1] == frozenset({3})
    assert isinstance(back[2], SymPyText) and back[2] == "sin(Symbol('x'))"
    assert type(back[3]) is str and back[4] == 7 and type(back[4]) is int and back[5] is True
    assert decode(encode({x: 1}, 1000)) == {SymPyText("Symbol('x')"): 1}


def test_symbol_arguments_are_built_only_on_request():
    from physbench.executor.values import SymbolArg, decode_args, decode_tree, encode_args

    wire = encode_args((SymbolArg("k", (("integer", True),)), SymbolArg("tr", (), True), 3))
    k, tr, three = decode_args(wire)
    assert k.is_integer and str(tr(k)) == "tr(k)" and three == 3
    with pytest.raises(ValueError):
        decode_tree(wire)  # the caller's side never builds sympy objects from the wire
