"""How each clincalc arm asks the model (003_* Appendix A.1), with Table 16's decoding and token caps.

Every answer says which route produced it in `detail["route"]`: `reply` (the model's text, scored
from its final-answer line), `library` (the validated library's value), `program` (a value the
executor returned) or `tree` (a Formulate-Solve tree's value). The seed (42 + repeat) is recorded
and never sent to the model.

Each arm's calls carry the paper's temperature and token cap, unless the user gave `--temperature`
or `--max-tokens`: the runner hands those to `settle_sampling`, they then win over the arm's values
for every call, and what each kind of call will send goes into the run's manifest.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping

from physbench.core.items import Message
from physbench.protocols.base import Answer, Ask
from physbench.protocols.program import Program
from physbench.suites.clincalc import arms, prompts
from physbench.suites.clincalc.item_data import item_data, item_formulas, item_library  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.protocols.base import Protocol

RECALLED_SAMPLES = 3  # recalled Extract-Solve: three sampled note-only answers (Appendix A.1)
VOTES = 5             # Blind + vote: five sampled programs (Appendix A.1)
VOTE_REPAIRS = 3      # Blind + repair + vote: at most three corrective turns in all, so five to eight calls
                      # per case (Appendix A.1); they go to the failed samples in sample order


Sampling = dict[str, Any]  # {"temperature": t, "max_tokens": n}


class Settled:
    """An arm's per-call settings (`defaults`: call -> (temperature, max_tokens)) with the user's on top."""

    user: Mapping[str, Any] = {}

    def defaults(self) -> dict[str, tuple[float, int]]:
        return {}

    def sampling(self, call: str) -> Sampling:
        """What one kind of call sends: the user's temperature and cap where given, else the arm's."""
        temperature, max_tokens = self.defaults()[call]
        return {"temperature": self.user.get("temperature", temperature),
                "max_tokens": self.user.get("max_tokens", max_tokens)}

    def settle_sampling(self, user: Mapping[str, Any]) -> dict[str, Sampling]:
        """Take the user's `temperature` / `max_tokens` (absent: not given); return every call's settings."""
        self.user = {k: v for k, v in user.items() if k in ("temperature", "max_tokens") and v is not None}
        return {call: self.sampling(call) for call in self.defaults()}


EXTRACTION = {"extraction": (arms.GREEDY, arms.EXTRACTION_TOKENS)}


_data = item_data


def _seed(ask: Ask) -> int:
    return arms.seed_of(getattr(ask, "repeat", 0) or 0)


def _calc(item: "Item") -> int:
    return int(item.reference["calc_id"])


def library_value(calc_id: int, entities: Any, subset: frozenset[int] | None,
                  formulas: str | None = None) -> tuple[Any, str]:
    """(plain answer, '') from the library, or (None, why); never raises on extracted entities."""
    from physbench.suites.clincalc.library import library_answer
    from physbench.suites.clincalc.scoring import plain_answer

    if not isinstance(entities, Mapping):
        return None, "the extraction is not a JSON object"
    try:
        value, why = library_answer(calc_id, entities, subset, formulas)
    except Exception as exc:  # a function raising on odd extracted values is an abstention (Appendix A.1)
        return None, f"the calculator raised {type(exc).__name__}"
    return (None, why) if value is None else (plain_answer(value), "")


async def extract_solve(item: "Item", ask: Ask, messages: Any, sampling: Sampling) -> tuple[Any, str]:
    """One (greedy) extraction call, then the library: (value, '') or (None, why)."""
    from physbench.suites.clincalc.extraction import read_extraction

    reply = await ask(messages, label="extraction", **sampling)
    entities = read_extraction(reply.text)
    if entities is None:
        return None, "no JSON object of variables in the extraction"
    return library_value(_calc(item), entities, item_library(item), item_formulas(item))


def _extraction_messages(item: "Item") -> tuple[Message, Message]:
    system, user = _data(item)["extraction"]
    return Message("system", system), Message("user", user)


class Reply(Settled):
    """One greedy call whose text is the answer; the note-only arms swap in the seed's worked example."""

    single_reply = True  # the integrations may ask it: a note-only arm's item carries one worked example

    def __init__(self, name: str, max_tokens: int = arms.NOTE_TOKENS, reseed: bool = False) -> None:
        self.name, self.max_tokens, self.reseed = name, max_tokens, reseed

    def defaults(self) -> dict[str, tuple[float, int]]:
        return {"answer": (arms.GREEDY, self.max_tokens)}

    def messages(self, item: "Item", seed: int) -> Any:
        if not self.reseed or "case" not in _data(item):
            return item.messages
        data = _data(item)
        example = prompts.worked_example(seed, str(data.get("note_key", "")))
        return item.messages[0], Message("user", prompts.note_only_user(example, str(data["case"])))

    async def run(self, item: "Item", ask: Ask) -> Answer:
        seed = _seed(ask)
        reply = await ask(self.messages(item, seed), label="answer", **self.sampling("answer"))
        return Answer(reply.text, reply.finish_reason, detail={"route": "reply", "seed": seed})


class ExtractSolve(Settled):
    """Extract-Solve library: abstains outside the library (no call) or on an invalid extraction."""

    name = "extract-solve-library"

    def defaults(self) -> dict[str, tuple[float, int]]:
        return dict(EXTRACTION)

    async def run(self, item: "Item", ask: Ask) -> Answer:
        detail: dict[str, Any] = {"route": "library", "seed": _seed(ask)}
        subset = item_library(item)
        if subset is not None and _calc(item) not in subset:
            return Answer("", "stop", outcome="abstained", detail={**detail, "why": "outside the library"})
        value, why = await extract_solve(item, ask, item.messages, self.sampling("extraction"))
        if value is None:
            return Answer("", "stop", outcome="abstained", detail={**detail, "why": why})
        return Answer("", "stop", value=value, detail=detail)


def _answer_key(text: str, calc_id: int) -> str | None:
    from physbench.suites.clincalc.scoring import parse_reply, plain_answer

    parsed = parse_reply(text, calc_id)
    return None if parsed is None else json.dumps(plain_answer(parsed))


class Recalled(Settled):
    """Extract-Solve library, recalled: three sampled note-only answers; two agreeing win, else the
    library through one extraction (inside the library), else the majority or the first sample."""

    name = "extract-solve-recalled"

    def defaults(self) -> dict[str, tuple[float, int]]:
        return {"sample": (arms.SAMPLED, arms.NOTE_TOKENS), **EXTRACTION}

    async def run(self, item: "Item", ask: Ask) -> Answer:
        calc, seed = _calc(item), _seed(ask)
        samples = [await ask(item.messages, label=f"sample-{k + 1}", **self.sampling("sample"))
                   for k in range(RECALLED_SAMPLES)]
        keys = [_answer_key(s.text, calc) for s in samples]
        counts = Counter(k for k in keys if k is not None)
        top = next((k for k in keys if k is not None and counts[k] == max(counts.values()) and counts[k] >= 2), None)
        votes = {"answers": keys, "seed": seed}
        if top is not None and None not in keys:
            chosen = samples[keys.index(top)]
            return Answer(chosen.text, chosen.finish_reason, detail={"route": "reply", "step": "agreed", **votes})
        subset = item_library(item)
        if subset is None or calc in subset:
            value, why = await extract_solve(item, ask, _extraction_messages(item), self.sampling("extraction"))
            if value is None:
                return Answer("", "stop", outcome="abstained", detail={"route": "library", "why": why, **votes})
            return Answer("", "stop", value=value, detail={"route": "library", **votes})
        chosen = samples[keys.index(top)] if top is not None else samples[0]
        return Answer(chosen.text, chosen.finish_reason,
                      detail={"route": "reply", "step": "majority" if top else "first", **votes})


class FormulateTree(Settled):
    """Formulate-Solve tree: one greedy structured reply, its expression tree evaluated exactly."""

    name = "formulate-solve-tree"

    def defaults(self) -> dict[str, tuple[float, int]]:
        return {"tree": (arms.GREEDY, arms.TREE_TOKENS)}

    async def run(self, item: "Item", ask: Ask) -> Answer:
        from physbench.suites.clincalc.scoring import kind_of
        from physbench.suites.clincalc.tree import evaluate_reply

        detail: dict[str, Any] = {"route": "tree", "seed": _seed(ask)}
        if kind_of(_calc(item)) in ("date", "gestational_age"):  # date cases abstain before any call
            return Answer("", "stop", outcome="abstained", detail={**detail, "why": "date case"})
        reply = await ask(item.messages, label="tree", **self.sampling("tree"))
        result = await asyncio.to_thread(evaluate_reply, reply.text)
        try:
            number = result.number
        except OverflowError:
            number = None
        if number is None:
            return Answer(reply.text, reply.finish_reason, outcome="abstained",
                          detail={**detail, "why": result.abstain or "too_large", "detail": result.detail})
        return Answer(reply.text, reply.finish_reason, value=number, detail={**detail, "exact": result.exact})


class LibraryFirst(Settled):
    """Library-first hybrid (Tables 15, 23): the library where it answers (on the gold variables, or on
    an extraction), the fallback arm everywhere else."""

    def __init__(self, name: str, first: str, fallback: "Reply | ArmProgram", route: str) -> None:
        self.name, self.first, self.fallback, self.route = name, first, fallback, route

    def defaults(self) -> dict[str, tuple[float, int]]:
        return {**(EXTRACTION if self.first == "extract" else {}), **self.fallback.defaults()}

    def settle_sampling(self, user: Mapping[str, Any]) -> dict[str, Sampling]:
        self.fallback.settle_sampling(user)
        return super().settle_sampling(user)

    async def run(self, item: "Item", ask: Ask) -> Answer:
        from physbench.suites.clincalc.dataset import parse_entities

        subset, calc = item_library(item), _calc(item)
        why = "outside the library"
        if subset is None or calc in subset:
            if self.first == "gold":
                value, why = library_value(calc, parse_entities(str(item.reference["entities"]), item.id), subset,
                                           item_formulas(item))
            else:
                value, why = await extract_solve(item, ask, _extraction_messages(item), self.sampling("extraction"))
            if value is not None:
                return Answer("", "stop", value=value, detail={"route": "library", "seed": _seed(ask)})
        answer = await self.fallback.run(item, ask)
        return replace(answer, detail={**answer.detail, "route": self.route, "library_why": why, "seed": _seed(ask)})


class ArmProgram(Settled, Program):
    """The core `program` protocol with an arm's name, decoding and token cap; records the seed."""

    def __init__(self, name: str, max_tokens: int, vote: int = 1, repair: int = 0) -> None:
        super().__init__(vote=vote, repair=repair, temperature=arms.GREEDY, max_tokens=max_tokens,
                         vote_temperature=arms.SAMPLED)
        self.name, self.cap = name, max_tokens

    def defaults(self) -> dict[str, tuple[float, int]]:
        """One greedy program call (and its repairs), or the sampled votes (and theirs)."""
        return {"sample": (arms.SAMPLED, self.cap)} if self.vote > 1 else {"program": (arms.GREEDY, self.cap)}

    def settle_sampling(self, user: Mapping[str, Any]) -> dict[str, Sampling]:
        settled = super().settle_sampling(user)
        ((call, chosen),) = settled.items()
        if call == "sample":
            self.vote_temperature = chosen["temperature"]
        else:
            self.temperature = chosen["temperature"]
        self.max_tokens = chosen["max_tokens"]
        return settled

    async def _one(self, item: "Item", ask: Ask, spec: dict[str, Any], label: str, turns: list,
                   **params: Any) -> Any:
        """A sample with its repairs; with votes, the repairs share VOTE_REPAIRS per case (a copy of the
        protocol without repairs runs once they are spent: the shared protocol object is not touched)."""
        runner: Program = self
        if self.vote > 1 and self.repair:
            left = VOTE_REPAIRS - sum(":repair-" in t.label for t in turns)
            if left < self.repair:
                runner = copy.copy(self)
                runner.repair = max(left, 0)
        return await Program._one(runner, item, ask, spec, label, turns, **params)

    async def run(self, item: "Item", ask: Ask) -> Answer:
        answer = await super().run(item, ask)
        return replace(answer, detail={**answer.detail, "seed": _seed(ask)})


_program = ArmProgram


def make(name: str, subset: str | None = None) -> "Protocol":
    """The protocol of arm `name` (its own name, not an alias), with the paper's settings."""
    from physbench.core.errors import UserError
    from physbench.suites.clincalc.gold_library import GoldLibrary

    if subset is not None and name != "gold-solve-library":
        raise UserError(f"arm {name!r} takes no subset option; give --library-subset FILE instead")
    simple: dict[str, Any] = {
        "note-only": lambda: Reply(name, reseed=True),
        "note-only-gold": lambda: Reply(name, reseed=True),
        "page-without-formula": lambda: Reply(name),
        "open-book-arithmetic": lambda: Reply(name),
        "extract-solve-library": ExtractSolve,
        "gold-solve-library": lambda: GoldLibrary(subset),
        "extract-solve-recalled": Recalled,
        "formulate-solve-tree": FormulateTree,
        "program-solve": lambda: _program(name, arms.PROGRAM_TOKENS),
        "program-solve-syntax": lambda: _program(name, arms.PROGRAM_TOKENS),
        "blind-program-solve": lambda: _program(name, arms.BLIND_TOKENS),
        "blind-vote": lambda: _program(name, arms.BLIND_TOKENS, vote=VOTES),
        "blind-repair": lambda: _program(name, arms.BLIND_TOKENS, repair=1),
        "blind-repair-vote": lambda: _program(name, arms.BLIND_TOKENS, vote=VOTES, repair=1),
        "gold-first-program": lambda: LibraryFirst(name, "gold", _program("program-solve", arms.PROGRAM_TOKENS),
                                                   "program"),
        "gold-first-arithmetic": lambda: LibraryFirst(name, "gold", Reply("open-book-arithmetic"), "reply"),
        "extract-first-program": lambda: LibraryFirst(name, "extract",
                                                      _program("program-solve", arms.PROGRAM_TOKENS), "program"),
        "extract-first-arithmetic": lambda: LibraryFirst(name, "extract", Reply("open-book-arithmetic"), "reply"),
        "official-direct": lambda: Reply(name),
        "official-zero-shot": lambda: Reply(name),
        "official-one-shot": lambda: Reply(name),
    }
    return simple[name]()  # type: ignore[no-any-return]
