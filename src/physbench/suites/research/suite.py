"""The research suite object (SUITE): challenges and checkpoints of a problem set (issue 15).

Modes: `challenge` (one item per problem; protocol_data {"format": ...} for the two-step
protocol) and `checkpoints-self` / `checkpoints-oracle` (one item per problem; protocol_data
{"steps": [...]} for the checkpoints protocol, each with an `expected` oracle-carryover text).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from physbench.suites.research.oracle import expected_text, oracle_code
from physbench.suites.research.problem import Problem, Step, load_set

NAME = "research"
MODES = ("challenge", "checkpoints-self", "checkpoints-oracle")
DEFAULT_REPEATS = 5
DEFAULT_SYSTEM = ("You are a research physicist. Work the problem carefully, show your reasoning, and end "
                  "with a clearly stated final answer.")
FORMAT_TURN = ("Now fill in this template with your final answer. Reply with the complete Python code in one "
               "fenced block; use only the imports the template has.\n\n```python\n{template}```")


def _make_item(**fields: Any) -> Any:
    from physbench.core.items import Item, Message

    fields["messages"] = tuple(Message(role, content) for role, content in fields["messages"])
    return Item(**fields)


def format_turn(step: Step) -> str:
    return FORMAT_TURN.format(template=step.template if step.template.endswith("\n") else step.template + "\n")


class ResearchSuite:
    name = NAME
    item_options = ("problems", "mode")
    default_repeats = DEFAULT_REPEATS

    def __init__(self) -> None:
        self._sets: dict[str, dict[str, Problem]] = {}

    def problems(self, folder: str | None = None) -> dict[str, Problem]:
        key = folder or ""
        if key not in self._sets:
            self._sets[key] = {p.id: p for p in load_set(folder)}
        return self._sets[key]

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              problems: str | None = None, mode: str = "challenge", **_: Any) -> Iterable[Any]:
        """One item per problem in file order; `split` and `key` do not change a fixed problem set."""
        if mode not in MODES:
            from physbench.core.errors import UserError

            raise UserError(f"unknown research mode {mode!r}; choose one of {', '.join(MODES)}")
        for n, problem in enumerate(self.problems(problems).values()):
            if limit is not None and n >= limit:
                return
            yield self._item(problem, mode, problems)

    def protocols(self) -> dict[str, Any]:
        """`challenge`: the two-step protocol on the challenges (002_* Section 3.1)."""
        from physbench.protocols.two_step import TwoStep

        return {"challenge": lambda _suite: TwoStep()}

    def default_item_options(self, protocol: str) -> dict[str, str]:
        """The item mode a protocol asks for: checkpoints for the checkpoint protocols, else challenges."""
        return {"mode": protocol if protocol in MODES else "challenge"}

    def _item(self, p: Problem, mode: str, folder: str | None) -> Any:
        system = p.system_prompt or DEFAULT_SYSTEM
        ref = {"problem": p.id, "mode": mode, "problems": folder}
        if mode == "challenge":
            first = f"{p.setup}\n\n{p.challenge.question}"
            return _make_item(id=f"{p.id}/challenge", suite=NAME, kind="challenge",
                              messages=[("system", system), ("user", first)],
                              reference={**ref, "steps": ["challenge"]}, params={"problem": p.id, "mode": mode},
                              meta={"areas": list(p.areas), "title": p.title},
                              protocol_data={"format": format_turn(p.challenge)})
        steps = [{"id": s.id, "ask": s.question, "format": format_turn(s), "expected": expected_text(s)}
                 for s in p.checkpoints]
        first = f"{p.setup}\n\n{p.checkpoints[0].question}"
        return _make_item(id=f"{p.id}/{mode}", suite=NAME, kind=mode,
                          messages=[("system", system), ("user", first)],
                          reference={**ref, "steps": [s.id for s in p.checkpoints]},
                          params={"problem": p.id, "mode": mode},
                          meta={"areas": list(p.areas), "title": p.title}, protocol_data={"steps": steps})

    def steps_of(self, item: Any) -> tuple[Problem, list[Step]]:
        ref = item.reference
        p = self.problems(ref.get("problems"))[ref["problem"]]
        return p, [p.step(s) for s in ref["steps"]]

    def grade(self, item: Any, answer: Any) -> Any:
        """Challenge: grade answer.text; checkpoints: answer.steps, one per checkpoint. Never raises."""
        from physbench.grading.types import Grade
        from physbench.suites.research.grader import grade_steps

        _, steps = self.steps_of(item)
        if len(steps) == 1:
            replies: Sequence[object] = [getattr(answer, "text", None)]
        else:
            given = list(getattr(answer, "steps", None) or ())
            replies = [_step_text(given[i]) if i < len(given) else None for i in range(len(steps))]
        grades = grade_steps(steps, replies)
        per = [{"step": s.id, **g.to_dict()} for s, g in zip(steps, grades)]
        n_ok = sum(g.correct for g in grades)
        first_bad = next((g.outcome for g in grades if not g.correct), "correct")
        return Grade(score=n_ok / len(steps), passed=n_ok == len(steps), outcome=first_bad, detail={"steps": per})

    def oracle_turn(self, item: Any, label: str, messages: Sequence[Any] = ()) -> str | None:
        """A perfect reply to one turn, by the protocols' labels: `solve`/`format` (two-step) or
        `<step-id>:solve`/`<step-id>:format` (checkpoints)."""
        _, steps = self.steps_of(item)
        step_id, _, part = label.rpartition(":") if ":" in label else ("", "", label)
        step = next((s for s in steps if s.id == step_id), steps[0])
        if part == "format":
            return oracle_code(step)
        return f"Working through the problem gives the result.\n\nFinal answer: {expected_text(step)[23:]}"

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
