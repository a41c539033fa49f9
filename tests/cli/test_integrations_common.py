"""The integrations (Inspect tasks, verifiers environments) ask one prompt and grade one reply:
they take exactly the protocols whose answer is that, and refuse the rest with a message."""

from __future__ import annotations

import pytest

from physbench.integrations.common import suite_items


@pytest.mark.parametrize(("suite", "options"), [
    ("medphys", {}),
    ("clincalc", {"arm": "open-book"}),
    ("clincalc", {"arm": "note-only"}),
    ("research", {"mode": "challenge"}),
    ("planning", {"system": "interpreter"}),
])
def test_one_prompt_one_reply_protocols_load(suite, options):
    assert len(suite_items(suite, "dev", 2, options)) == 2


@pytest.mark.parametrize(("suite", "options", "protocol"), [
    ("clincalc", {"arm": "program"}, "program-solve"),
    ("clincalc", {"arm": "extract-solve-library"}, "extract-solve-library"),
    ("clincalc", {"arm": "blind-vote"}, "blind-vote"),
    ("planning", {"system": "agent"}, "opengray-agent"),
])
def test_programs_tools_and_several_calls_are_refused_with_the_way_to_run_them(suite, options, protocol):
    with pytest.raises(ValueError) as info:
        suite_items(suite, "dev", 2, options)
    message = str(info.value)
    assert repr(protocol) in message and f"physbench eval {suite}" in message


def test_the_inspect_task_refuses_a_program_arm():
    inspect_tasks = pytest.importorskip("physbench.integrations.inspect_tasks")
    with pytest.raises(ValueError, match="program-solve"):
        inspect_tasks.clincalc(arm="program", limit=2)
