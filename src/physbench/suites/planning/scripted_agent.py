"""A scripted agent for the `opengray-agent` loop, written as a replay file, so the agent system runs
end to end (eval, grading, report) with no language model.

Per task it does what a careful agent could do from the case summary in its first message: escalate
when the summary's numbers prove a contradiction (systems.arithmetic_checks), otherwise register the
controller's goal template, optimize once and submit that plan. It never reads the note.

    python -m physbench.suites.planning.scripted_agent --split reserved --out agent.jsonl
    physbench eval planning --system agent --split reserved --model replay:agent.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from physbench.suites.planning.harness import PlanningHarness
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.openkbp import load_shipped
from physbench.suites.planning.systems import arithmetic_checks, template

NOTE = "Scripted agent: one optimization of the goal template; the note was not read."


def _no_influence() -> Any:
    raise RuntimeError("the case summary needs no dose influence")


def _turn(k: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"content": "", "tool_calls": [{"id": f"s{k}", "name": name, "arguments": json.dumps(arguments)}]}


def responses(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The agent's replies on ``task``, one tool call each (the loop fetched the summary already)."""
    summary = PlanningHarness(task, Case(load_shipped(task["patient"]), _no_influence)).get_case_summary()
    esc = arithmetic_checks(summary)
    if esc is not None:
        return [_turn(0, "escalate", esc)]
    terms = [t.spec() for t in template(summary)]
    if not terms:
        return [_turn(0, "escalate", {"reason": "other", "explanation": "no goal the optimizer can take"})]
    return [_turn(0, "set_objectives", {"objectives": terms}), _turn(1, "optimize", {"objective_id": "obj_1"}),
            _turn(2, "submit", {"plan_id": "plan_1", "note": NOTE})]


def replay_lines(tasks: list[dict[str, Any]]) -> list[str]:
    """One replay line per task (every repeat gets the same replies)."""
    return [json.dumps({"id": t["id"], "responses": responses(t)}, separators=(",", ":")) for t in tasks]


def main(argv: list[str] | None = None) -> int:
    from physbench.suites.planning.suite import select, shipped_tasks

    ap = argparse.ArgumentParser(prog="python -m physbench.suites.planning.scripted_agent",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="dev", help="dev, test, reserved or all (as eval's --split)")
    ap.add_argument("--family", default=None, help="one task family only")
    ap.add_argument("--out", required=True, help="the replay file to write")
    args = ap.parse_args(argv)
    try:
        tasks = select(shipped_tasks(), args.split, args.family)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    tmp = out.with_name(out.name + ".part")
    try:
        tmp.write_text("".join(line + "\n" for line in replay_lines(tasks)), encoding="utf-8")
        tmp.replace(out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        print(f"error: cannot write {args.out!r} ({exc.strerror or type(exc).__name__})", file=sys.stderr)
        return 2
    print(f"{len(tasks)} tasks -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
