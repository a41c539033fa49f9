"""The research suite object (SUITE): challenges and checkpoints of a problem set (issues 15, 37).

Modes (item option `mode`, implied by the protocol): `challenge` (one item per problem, asked
with the two-step protocol by default: the solution, then the formatting turn) and the checkpoint
modes (one item per problem with checkpoints; protocol_data {"steps": [...]}):
`checkpoints-self` (one conversation, each checkpoint after the model's own earlier replies),
`checkpoints-oracle` (each checkpoint asked on its own, after the setup and the earlier
checkpoints with their expert answers, as CritPt's code does) and `checkpoints-oracle-multiturn`
(one conversation with the expert answer at the head of each later turn).
Item options: `problems` (a shipped set's name or a folder), `prompts` (a wording file),
`max_wall_s` / `max_memory_mb` (ceilings on what problem files may ask for).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from physbench.core.errors import UserError
from physbench.suites.research.oracle import expert_answer, oracle_code
from physbench.suites.research.problem import Ceilings, Problem, Step, load_set
from physbench.suites.research.prompts import Prompts, load_prompts

NAME = "research"
CHECKPOINT_MODES = ("checkpoints-self", "checkpoints-oracle", "checkpoints-oracle-multiturn")
MODES = ("challenge", *CHECKPOINT_MODES)
DEFAULT_REPEATS = 5   # 002_* Section 4: five runs per configuration


def _make_item(**fields: Any) -> Any:
    from physbench.core.items import Item, Message

    fields["messages"] = tuple(Message(role, content) for role, content in fields["messages"])
    return Item(**fields)


def format_turn(step: Step, prompts: Prompts | None = None) -> str:
    return (prompts or Prompts()).format_turn(step.template)


def _ceilings(max_wall_s: Any, max_memory_mb: Any) -> Ceilings:
    try:
        c = Ceilings(float(max_wall_s) if max_wall_s is not None else Ceilings.wall_s,
                     int(max_memory_mb) if max_memory_mb is not None else Ceilings.memory_mb)
    except (TypeError, ValueError):
        raise UserError("research options max_wall_s and max_memory_mb must be numbers") from None
    if not (1 <= c.wall_s <= 3600 and 64 <= c.memory_mb <= 262_144):
        raise UserError("research option max_wall_s must be 1-3600 and max_memory_mb 64-262144")
    return c


def oracle_prompt(p: Problem, index: int, prompts: Prompts) -> str:
    """Checkpoint `index` asked on its own: the setup, each earlier checkpoint with its expert
    answer, then this one (the structure of CritPt's oracle carryover)."""
    parts = [p.setup]
    for earlier in p.checkpoints[:index]:
        parts += [earlier.question, prompts.expert_answer(expert_answer(earlier))]
    if index:
        parts.append(prompts.next)
    parts.append(p.checkpoints[index].question)
    return "\n\n".join(x.strip() for x in parts if x.strip())


class ResearchSuite:
    name = NAME
    item_options = ("problems", "mode", "prompts", "max_wall_s", "max_memory_mb")
    default_repeats = DEFAULT_REPEATS

    def __init__(self) -> None:
        self._sets: dict[tuple[str, Ceilings], dict[str, Problem]] = {}

    def problems(self, folder: str | None = None, ceilings: Ceilings = Ceilings()) -> dict[str, Problem]:
        key = (folder or "", ceilings)
        if key not in self._sets:
            self._sets[key] = {p.id: p for p in load_set(folder, ceilings)}
        return self._sets[key]

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              problems: str | None = None, mode: str = "challenge", prompts: str | None = None,
              max_wall_s: Any = None, max_memory_mb: Any = None, **_: Any) -> Iterable[Any]:
        """One item per problem in file order (problems without checkpoints have no checkpoint
        item); `split` and `key` do not change a fixed problem set."""
        if mode not in MODES:
            raise UserError(f"unknown research mode {mode!r}; choose one of {', '.join(MODES)}")
        wording = load_prompts(prompts)
        ceilings = _ceilings(max_wall_s, max_memory_mb)
        n = 0
        for problem in self.problems(problems, ceilings).values():
            if mode != "challenge" and not problem.checkpoints:
                continue
            if limit is not None and n >= limit:
                return
            n += 1
            yield self._item(problem, mode, problems, wording, ceilings)

    def protocols(self) -> dict[str, Any]:
        """`challenge`: the two-step protocol on the challenges (002_* Section 3.1); `agent`: the
        Python tool loop, then the formatting turn (the "with coding tools" setting)."""
        from physbench.protocols.two_step import TwoStep
        from physbench.suites.research.tools import ToolsThenFormat

        return {"challenge": lambda _suite: TwoStep(), "agent": lambda suite, **limits: ToolsThenFormat(suite, **limits)}

    def harness(self, item: Any) -> Any:
        """A fresh Python session for the `agent` protocol ("with coding tools")."""
        from physbench.suites.research.tools import PythonSession

        return PythonSession()

    def default_protocol(self, options: Any) -> str:
        """Two-step for challenges (the paper's default), the mode's own protocol for checkpoints."""
        mode = dict(options).get("mode", "challenge")
        return mode if mode in CHECKPOINT_MODES else "two-step"

    def default_item_options(self, protocol: str) -> dict[str, str]:
        """The item mode a protocol asks for: checkpoints for the checkpoint protocols, else challenges."""
        return {"mode": protocol if protocol in MODES else "challenge"}

    def _item(self, p: Problem, mode: str, folder: str | None, prompts: Prompts, ceilings: Ceilings) -> Any:
        system = p.system_prompt or prompts.system
        ref = {"problem": p.id, "mode": mode, "problems": folder}
        if ceilings != Ceilings():
            ref["ceilings"] = [ceilings.wall_s, ceilings.memory_mb]
        params = {"problem": p.id, "mode": mode, **({"prompts_sha256": prompts.sha256} if prompts.sha256 else {})}
        steps = [p.challenge] if mode == "challenge" else list(p.checkpoints)
        meta: dict[str, Any] = {"areas": list(p.areas), "title": p.title}
        capped = [{"step": s.id, "asked": list(s.asked_limits), "used": [s.wall_s, s.memory_mb]}
                  for s in steps if s.asked_limits]
        if capped:
            meta["limits_capped"] = capped
        if mode == "challenge":
            first = f"{p.setup}\n\n{p.challenge.question}"
            return _make_item(id=f"{p.id}/challenge", suite=NAME, kind="challenge",
                              messages=[("system", system), ("user", first)],
                              reference={**ref, "steps": ["challenge"]}, params=params, meta=meta,
                              protocol_data={"format": format_turn(p.challenge, prompts),
                                             "tools_note": prompts.system_tools_note})
        data = [{"id": s.id, "ask": s.question, "format": format_turn(s, prompts),
                 "expected": prompts.expert_answer(expert_answer(s)) + "\n\n" + prompts.next,
                 "alone": oracle_prompt(p, i, prompts)} for i, s in enumerate(p.checkpoints)]
        # the setup opens the conversation; the protocol adds each checkpoint's question after it
        return _make_item(id=f"{p.id}/{mode}", suite=NAME, kind=mode,
                          messages=[("system", system), ("user", p.setup)],
                          reference={**ref, "steps": [s.id for s in p.checkpoints]}, params=params, meta=meta,
                          protocol_data={"steps": data})

    def steps_of(self, item: Any) -> tuple[Problem, list[Step]]:
        ref = item.reference
        ceilings = Ceilings(*ref["ceilings"]) if ref.get("ceilings") else Ceilings()
        p = self.problems(ref.get("problems"), ceilings)[ref["problem"]]
        return p, [p.step(s) for s in ref["steps"]]

    def grade(self, item: Any, answer: Any) -> Any:
        """Challenge: grade answer.text; checkpoints: answer.steps, one per checkpoint. Never raises.
        Steps with unknown answers are `ungraded`: the item's score counts only graded steps."""
        from physbench.grading.types import Grade
        from physbench.suites.research.grader import grade_steps

        _, steps = self.steps_of(item)
        if item.kind == "challenge":
            replies: Sequence[object] = [getattr(answer, "text", None)]
        else:
            given = {getattr(s, "step", None): s for s in getattr(answer, "steps", None) or ()}
            ordered = list(getattr(answer, "steps", None) or ())
            replies = [_step_text(given.get(s.id, ordered[i] if i < len(ordered) else None))
                       for i, s in enumerate(steps)]
        grades = grade_steps(steps, replies)
        per = [{"step": s.id, **g.to_dict()} for s, g in zip(steps, grades)]
        graded = [g for g in grades if g.outcome != "ungraded"]
        if not graded:
            return Grade(score=0.0, passed=False, outcome="ungraded", detail={"steps": per})
        n_ok = sum(g.correct for g in graded)
        first_bad = next((g.outcome for g in graded if not g.correct), "correct")
        return Grade(score=n_ok / len(graded), passed=n_ok == len(graded), outcome=first_bad, detail={"steps": per})

    def oracle_turn(self, item: Any, label: str, messages: Sequence[Any] = ()) -> str | None:
        """A perfect reply to one turn, by the protocols' labels: `solve`/`format` (two-step) or
        `<step-id>:solve`/`<step-id>:format` (checkpoints)."""
        _, steps = self.steps_of(item)
        step_id, _, part = label.rpartition(":") if ":" in label else ("", "", label)
        step = next((s for s in steps if s.id == step_id), steps[0])
        if part == "format":
            return oracle_code(step)
        return f"Working through the problem gives the result.\n\nFinal Answer: {expert_answer(step)}"

    @property
    def report(self) -> Any:
        """This suite's report sections and viewer fields (imported when a report asks)."""
        from physbench.suites.research.report import REPORT

        return REPORT

    def oracle(self, item: Any) -> str | None:
        _, steps = self.steps_of(item)
        return oracle_code(steps[0])


def _step_text(step_answer: Any) -> object:
    """The formatting reply of one step: an Answer-like object's `.text`, or the string itself."""
    return step_answer if isinstance(step_answer, str) else getattr(step_answer, "text", None)


SUITE = ResearchSuite()
