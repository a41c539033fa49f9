"""Issue 33: graders of model programs other than research (clincalc's program arms, through
`protocols.program.execute`) get the program's value as plain data and compare it in the caller;
the program cannot patch what it imports, and its own names do not reach the comparison."""

from __future__ import annotations

from physbench.protocols.program import execute

SPEC = {"policy": "strict", "limits": {}, "call": "solve", "args": []}


def test_a_program_that_patches_a_module_is_rejected_with_its_reason():
    outcome, value, detail = execute("import math\nmath.floor = abs\n\ndef solve():\n    return math.floor(2.5)\n", SPEC)
    assert outcome == "rejected" and value is None and "read-only" in detail["error"]
    outcome, _, detail = execute("import datetime\n\ndef solve():\n    datetime.date.today = None\n    return 1\n", SPEC)
    assert outcome == "rejected" and "'today' of a class" in detail["error"]


def test_redefined_builtins_change_only_the_programs_own_value():
    src = "def round(x, n=0):\n    return 0\n\nfloat = str\nmax = 4\n\ndef solve():\n    return 2.5\n"
    outcome, value, _ = execute(src, SPEC)
    assert outcome is None and value == 2.5


def test_a_returned_set_is_tagged_not_a_list_a_reader_could_take_as_ordered():
    outcome, value, _ = execute("def solve():\n    return {38, 2}\n", SPEC)
    assert outcome is None and value == {"set": [2, 38]}
