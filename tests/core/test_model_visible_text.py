"""Issue 33 item 4: a model is never told what it is being tested on.

Every item of every suite is asked through the protocols that run it, by a scripted model that
records what each call shows it: the system, user and tool messages, the names on them and the
tool specifications (never its own replies). No call may show the item's id, its family or
planted-error name, a reference value, or a later step's answer. The walk is suite-independent:
`WALKS` says which item sets and protocols each suite has, and a suite it does not cover fails.

The planning harness's tool results (`get_case_summary`...) are the planning developer's: they are
walked by tests/planning; here the planning items' messages and tool specifications are walked.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from typing import Any, Sequence

import pytest

from physbench.core.errors import UserError
from physbench.core.items import Item, Message, ToolCall
from physbench.core.registry import ENTRY_POINT_GROUP, get_suite
from physbench.models.base import Completion
from physbench.protocols import get_protocol
from physbench.protocols.program import Program
from physbench.runner.evaluate import EvalConfig, load_items

KEY = bytes.fromhex("3c" * 32)
PLAIN_REPLY = "I have worked through it but give no final answer here."


@dataclass
class Shown:
    """What one model call showed the model."""

    label: str
    texts: list[str]


@dataclass
class Recorder:
    """The `Ask` a protocol gets: records each call; replies as the suite's oracle would where that
    takes the protocol further (later checkpoints, a formatting turn), else with plain text."""

    suite: Any
    item: Item
    oracle: bool
    call_tools: bool = False  # at the first call that offers tools, call each once (no arguments)
    calls: list[Shown] = field(default_factory=list)

    async def __call__(self, messages: Sequence[Message], *, tools: Any = None, tool_choice: Any = None,
                       label: str = "", **params: Any) -> Completion:
        texts = [m.content for m in messages if m.role != "assistant"]
        texts += [m.name for m in messages if m.name]
        texts += [json.dumps(t.to_openai(), sort_keys=True) for t in tools or ()]
        self.calls.append(Shown(label, texts))
        if self.call_tools and tools and len(self.calls) == 1:
            asked = tuple(ToolCall(f"call-{n}", t.name, "{}", {}) for n, t in enumerate(tools))
            return Completion("", {"prompt_tokens": 1, "completion_tokens": 1}, "tool_calls", tool_calls=asked)
        return Completion(self._reply(label, messages) or PLAIN_REPLY, {"prompt_tokens": 1, "completion_tokens": 1},
                          "stop")

    def _reply(self, label: str, messages: Sequence[Message]) -> str | None:
        if not self.oracle:
            return None
        turn = getattr(self.suite, "oracle_turn", None)
        if callable(turn):
            text = turn(self.item, label, messages)
            if text:
                return text
        oracle = getattr(self.suite, "oracle", None)
        return oracle(self.item) if callable(oracle) else None


@dataclass(frozen=True)
class Walk:
    """One item set of a suite and a protocol that asks it."""

    suite: str
    protocol: str
    split: str = "dev"
    options: tuple[tuple[str, str], ...] = ()
    limit: int | None = None

    @property
    def name(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.suite}:{self.split}:{self.protocol}" + (f"[{opts}]" if opts else "")


def _clincalc_walks() -> list[Walk]:
    from physbench.suites.clincalc.arms import ARMS

    return [Walk("clincalc", arm, options=(("arm", arm),)) for arm, spec in ARMS.items() if spec.calls_model]


def _planning_walks() -> list[Walk]:
    return [Walk("planning", "agent", options=(("system", "agent"),)),
            Walk("planning", "direct", options=(("system", "interpreter"),))]


WALKS: list[Walk] = [
    Walk("medphys", "direct"),
    Walk("medphys", "direct", split="test"),
    Walk("research", "two-step"),
    Walk("research", "checkpoints-self", options=(("mode", "checkpoints-self"),)),
    Walk("research", "checkpoints-oracle", options=(("mode", "checkpoints-oracle"),)),
    *_clincalc_walks(),
    *_planning_walks(),
]


def items_of(walk: Walk, data: str | None = None) -> list[Item]:
    options = walk.options + ((("data", data),) if data else ())
    config = EvalConfig(suite=walk.suite, split=walk.split, protocol=walk.protocol, limit=walk.limit,
                        key=KEY if walk.split == "test" else None, item_options=options)
    return load_items(config)


def shown(walk: Walk, items: Sequence[Item], call_tools: bool = False) -> list[list[Shown]]:
    """For each item, what every call of its attempts showed the model (one plain and one oracle-led
    attempt; a program protocol only plainly: its programs are not run here). With `call_tools`, one
    attempt that calls every tool the harness offers, so that the tool results are shown too."""
    suite = get_suite(walk.suite)
    out: list[list[Shown]] = []

    async def ask_all() -> None:
        for item in items:
            protocol = get_protocol(walk.protocol, suite)
            out.append([])
            for oracle in (False, True) if not _runs_programs(protocol) and not call_tools else (False,):
                recorder = Recorder(suite, item, oracle, call_tools)
                await protocol.run(item, recorder)
                out[-1].extend(recorder.calls)

    asyncio.run(ask_all())
    return out


def _runs_programs(protocol: Any) -> bool:
    return isinstance(protocol, Program) or isinstance(getattr(protocol, "program", None), Program) \
        or bool(getattr(getattr(protocol, "arm", None), "program", False))


# --- what must never be shown ------------------------------------------------------------------

def _number_forms(value: Any) -> list[str]:
    """Printed forms of a reference number precise enough not to turn up by chance (>= 4 significant digits)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return []
    if x != x or x in (float("inf"), float("-inf")):
        return []
    forms = {repr(x), f"{x:.6g}", f"{x:.5g}", f"{x:.4g}"}
    return sorted(f for f in forms if len(re.sub(r"[^0-9]", "", f.lstrip("0.-"))) >= 4)


def _words(*names: Any) -> list[str]:
    """Identifier-like labels (error modes, families): only those with an underscore or colon, which no
    prompt writes as ordinary words."""
    return [str(n) for n in names if isinstance(n, str) and re.search(r"[_:]", n)]


def _distinctive(text: str) -> list[str]:
    """An answer's text when it could not turn up by chance: not a yes/no, not a short number."""
    if text in ("True", "False") or len(text) < 4:
        return []
    if re.fullmatch(r"[-+0-9.e ]+", text) and len(re.sub(r"[^0-9]", "", text.lstrip("0.-"))) < 4:
        return []
    return [text]


def id_tokens(item_id: str) -> list[str]:
    """The id and tokens derived from it reversibly or by hashing (a task token made so would let a
    model that knows the id scheme enumerate ids and read the answer back)."""
    data = item_id.encode()
    out = [item_id, data.hex(), base64.b64encode(data).decode().rstrip("="),
           base64.urlsafe_b64encode(data).decode().rstrip("=")]
    for name in ("md5", "sha1", "sha256"):
        out.append(hashlib.new(name, data).hexdigest()[:10])
    return out


def secrets(item: Item) -> dict[str, list[str]]:
    """Per label ('any' or a step id): the texts no call may show; a step's answer may be shown only
    after that step was asked (oracle carryover)."""
    out: dict[str, list[str]] = {"any": id_tokens(item.id)}
    meta, ref = item.meta, item.reference
    planted = meta.get("planted")
    if isinstance(planted, dict):  # medphys checks: the error mode's name and how the paper describes it
        out["any"] += _words(planted.get("mode")) + _mode_description(item, str(planted.get("mode")))
    if item.kind == "calculation" and "value" in ref:  # medphys: the result itself
        out["any"] += _number_forms(ref["value"])
    for name in ("family", "decision"):  # planning
        out["any"] += _words(ref.get(name), meta.get(name))
    if "ground_truth" in ref:  # clincalc: the gold answer and its limits, as written
        for v in (ref.get("ground_truth"), ref.get("lower"), ref.get("upper")):
            text = str(v or "")
            out["any"] += [text] if len(re.sub(r"[^0-9]", "", text)) >= 4 else []
            out["any"] += _number_forms(v)
    steps = item.protocol_data.get("steps") or ()
    for step in steps:  # research checkpoints: each step's answer
        expected = str(step.get("expected") or "")
        out[str(step.get("id"))] = _distinctive(expected.split(": ", 1)[-1]) if expected else []
    if item.suite == "research":
        out["any"] += _research_answers(item)
    return out


def _mode_description(item: Item, mode: str) -> list[str]:
    from physbench.suites.medphys.generators import get_generator

    try:
        return [get_generator(str(item.meta.get("generator"))).mode(mode).description]
    except UserError:  # a slip, or a mode the generator no longer has
        return []


def _research_answers(item: Item) -> list[str]:
    """The answers of the challenge (two-step items) as the oracle would write them."""
    from physbench.suites.research.oracle import expected_text

    suite = get_suite("research")
    _, steps = suite.steps_of(item)  # type: ignore[attr-defined]
    if item.kind != "challenge":
        return []
    out = []
    for step in steps:
        out += _distinctive(expected_text(step).split(": ", 1)[-1])
        value = getattr(step.answer, "value", None)
        out += _number_forms(value) if isinstance(value, float) else []
    return out


def leaks(item: Item, calls: list[Shown], common: frozenset[str] = frozenset()) -> list[str]:
    """Every secret a call showed ('call label: secret'), but those in `common` (see `boilerplate`)."""
    return sorted({f"{label}: {value!r}" for label, value in _shown_secrets(item, calls) if value not in common})


def _shown_secrets(item: Item, calls: list[Shown]) -> set[tuple[str, str]]:
    found = set()
    hidden = secrets(item)
    asked: set[str] = set()
    for call in calls:
        text = "\n".join(call.texts)
        step = call.label.split(":", 1)[0]
        asked.add(step)
        for label, values in hidden.items():
            if label != "any" and label in asked and label != step:
                continue  # an earlier step's answer, carried over by design
            found |= {(call.label or "call", v) for v in values if v and _shows(v, text)}
    return found


def _shows(secret: str, text: str) -> bool:
    """Whether `text` shows `secret`; a number only as a whole number (283.6 is not shown by 283.67302)."""
    if re.fullmatch(r"[-+]?[0-9][0-9.eE+-]*", secret):
        return re.search(rf"(?<![0-9.]){re.escape(secret)}(?![0-9])", text) is not None
    return secret in text


def boilerplate(values: set[str], texts: Sequence[str]) -> frozenset[str]:
    """Secrets every item of a walk shows alike (a list of escalation reasons in every system prompt):
    they tell no item from another, so they say nothing of one item's answer."""
    return frozenset(v for v in values if len(texts) > 1 and all(v in t for t in texts))


def test_every_suite_is_walked():
    suites = {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} or {"medphys", "clincalc", "research", "planning"}
    assert suites <= {w.suite for w in WALKS}, f"suites not walked: {sorted(suites - {w.suite for w in WALKS})}"


def _check(walk: Walk, items: list[Item], call_tools: bool = False) -> None:
    assert items, f"{walk.name} gave no items"
    calls = shown(walk, items, call_tools)
    found = [_shown_secrets(i, c) for i, c in zip(items, calls)]
    texts = ["\n".join(t for call in c for t in call.texts) for c in calls]
    common = boilerplate({v for pairs in found for _, v in pairs}, texts)
    problems = {i.id: leaked for i, c in zip(items, calls) if (leaked := leaks(i, c, common))}
    assert not problems, f"{walk.name}: {len(problems)} of {len(items)} items show answer-bearing text, e.g. " \
                         f"{sorted(problems.items())[:3]}"


@pytest.mark.parametrize("walk", [w for w in WALKS if w.suite != "planning"], ids=lambda w: w.name)
def test_no_call_shows_the_answer(walk: Walk):
    _check(walk, items_of(walk))


def test_clincalc_synthetic_cases_show_no_answer(tmp_path):
    from physbench.suites.clincalc.synth import write_synth

    data = tmp_path / "synth.csv"
    write_synth(str(data), 2, 0)
    for walk in _clincalc_walks():
        _check(walk, items_of(walk, str(data)))


@pytest.mark.parametrize("walk", _planning_walks(), ids=lambda w: w.name)
def test_planning_messages_and_tool_specs_show_no_answer(walk: Walk):
    _check(walk, items_of(walk))


def test_planning_tool_results_show_no_answer():
    """The planning harness's tool results under an agent that calls every tool once (a few tasks:
    each tool call runs the harness)."""
    walk = Walk("planning", "agent", options=(("system", "agent"),))
    items = items_of(walk)
    families = {}
    for item in items:
        families.setdefault(item.kind, item)
    _check(walk, list(families.values()), call_tools=True)


# --- the walk has teeth --------------------------------------------------------------------------

def _told(item: Item, extra: str) -> Item:
    """The item with `extra` added to its last user message."""
    messages = list(item.messages)
    last = max(i for i, m in enumerate(messages) if m.role == "user")
    messages[last] = Message("user", messages[last].content + "\n" + extra)
    return replace(item, messages=tuple(messages))


def test_the_walk_finds_an_id_a_planted_error_or_a_result_shown_to_the_model():
    walk = Walk("medphys", "direct")
    items = items_of(walk)
    calc = next(i for i in items if i.kind == "calculation")
    planted = next(i for i in items if i.meta.get("planted"))
    told = [_told(calc, f"(The answer is {calc.reference['value']!r}.)"),
            _told(calc, f"[{calc.id}]"),
            _told(calc, f"task {hashlib.sha256(calc.id.encode()).hexdigest()[:12]}"),
            _told(planted, f"hint: {planted.meta['planted']['mode']}")]
    calls = shown(walk, told + items[:20])
    assert all(leaks(i, c) for i, c in zip(told, calls))
    assert not any(leaks(i, c) for i, c in zip(items[:20], calls[len(told):]))


def test_later_turns_are_walked_and_an_answer_before_its_step_is_found():
    walk = Walk("research", "checkpoints-oracle", options=(("mode", "checkpoints-oracle"),))
    item = next(i for i in items_of(walk) if len(secrets(i)) > 2 and any(secrets(i)[k] for k in list(secrets(i))[2:]))
    steps = item.protocol_data["steps"]
    (calls,) = shown(walk, [item])
    assert len(calls) == 2 * 2 * len(steps)  # solve and format of every step, plain and oracle-led
    carried = steps[0]["expected"]
    assert any(carried in "\n".join(c.texts) for c in calls)  # the oracle carryover is seen, and allowed
    assert not leaks(item, calls)
    later = next(s for s in steps[1:] if secrets(item)[s["id"]])
    first = {**steps[0], "ask": steps[0]["ask"] + later["expected"]}
    if isinstance(first.get("alone"), str):  # the official form asks each checkpoint from its own text
        first["alone"] += later["expected"]
    early = replace(item, protocol_data={"steps": [first, *steps[1:]]})
    assert leaks(early, shown(walk, [early])[0])
