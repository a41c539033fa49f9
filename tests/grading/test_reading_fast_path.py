"""The cached fast path of `read_quantity` (a plain number, then a tail whose digits are only
unit exponents) reads every answer exactly as the full reader does, and the fast Grade builder
gives the same grade as the dataclass constructor."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.grading import quantity
from physbench.grading.types import Grade, calculation_grade

TAILS = [
    "", " ", ".", " Gy", " Gy.", "Gy", r"\ \text{cGy/MU}", r"\,\mathrm{cGy\,MU^{-1}}", " cGy MU⁻¹", " cGy MU-1", " MBq h",
    r"\ \text{MBq h}", " MBq·h", " mm Al", " mm W", " cm of concrete", " monitor units", " MU, which rounds", " Gy per fraction",
    " Gy EQD2", r"\ \text{Gy}_{10}", " Gy (α/β = 3 Gy)", " cGy/MU at d_max", r"\ \text{cGy/MU at } d_{\max}", " %", r"\%",
    " (dimensionless)", " rad", " bananas", " Gy/100 MU", " Gy/(100 MU)", " cm²", " cm^2", r" cm^{2}", " cm2", "$", "$.",
    " Gy or maybe", " Gy, i.e.", " Gy → Sv", " µSv", " µ Sv", " μSv", " cGy⁄MU", " Gy/25 fx", "e", "eV", " eV", " e-", " E",
    " Gy ± 2%", ", which", " ,", "**", " Gy**", " MU^{-1} or", " h", " hours", " d", " days", " min", " s", "/MU", " kPa",
    r" \frac{\text{cGy}}{\text{MU}}", r"\;\text{cGy}\cdot\text{MU}^{-1}", " Gy at 10", " W", " mm Pb", "(", ")", " Gy)", "~Gy",
    " Gy x", " Gy *", " Gy ^", " per MU", " a/b", " (a/b)", " Gy_", " MU's", "\u2009Gy", " Gy\n", " Gy;", " Gy?",
]
NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=10**12).map(str),
    st.floats(min_value=0, max_value=1e9, allow_nan=False).map(lambda x: f"{x:.4f}"),
    st.floats(min_value=1e-300, max_value=1e300).map(lambda x: f"{x:.3e}"),
    st.integers(min_value=1000, max_value=10**9).map(lambda n: f"{n:,}"),
    st.integers(min_value=1000, max_value=10**9).map(lambda n: f"{n:,}".replace(",", "{,}")),
    st.integers(min_value=1000, max_value=10**9).map(lambda n: f"{n:,}".replace(",", "\\,")),
    st.sampled_from(["0", "0.0", ".5", "1e-10005", "7e10005", "1" * 70, "+5", "-5", "-0.5", "00.5", "1e5", "2E-3"]),
)


@settings(max_examples=600, deadline=None)
@given(number=NUMBERS, tail=st.sampled_from(TAILS) | st.text(max_size=12), space=st.sampled_from(["", " ", "\t"]))
def test_the_fast_path_reads_exactly_as_the_full_reader(number, tail, space):
    text = space + number + tail
    fast = quantity.read_quantity(text)
    slow = quantity._read_slow(text)
    if fast is None or slow is None:
        assert fast is None and slow is None
        return
    assert fast.value == slow.value or (fast.value is None and slow.value is None)
    assert (fast.unit, fast.expr, fast.error, fast.text) == (slow.unit, slow.expr, slow.error, slow.text)
    assert fast.rest.strip(" .") == slow.rest.strip(" .")
    assert fast.stated is not None and slow.stated is not None
    a, b = fast.stated.unit, slow.stated.unit
    assert (a.expr, a.shown, a.factor, a.invalid) == (b.expr, b.shown, b.factor, b.invalid)
    assert float(fast.stated.text) == float(slow.stated.text.rstrip("."))


def test_the_fast_path_is_taken_for_common_answers():
    quantity._tail.cache_clear()
    for n in ("317", "1.018", "17{,}273", "2,519", "1.2e-3"):
        quantity.read_quantity(n + r"\ \text{cGy/MU}")
    assert quantity._tail.cache_info().hits >= 3


@pytest.mark.parametrize("fields", [
    dict(score=1.0, passed=True, outcome="correct", value=1.0, unit="Gy", rel_error=0.0, detail={"a": 1}),
    dict(score=0.0, passed=False, outcome="format_error", value=None, unit=None, rel_error=None, detail={}),
])
def test_the_fast_grade_builder_equals_the_dataclass_constructor(fields):
    fast, slow = calculation_grade(**fields), Grade(**fields)
    assert fast == slow and fast.to_dict() == slow.to_dict() and type(fast) is Grade
    with pytest.raises(AttributeError):
        fast.score = 0.5  # still frozen
