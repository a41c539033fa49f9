"""The language systems' prompts, and the interpreter system: one strict-JSON reading of the case,
then the controller (OpenGray, "Four systems").

The interpreter reads a reduced case summary (structure names and volumes, prescriptions, the
goal list, the physician note, the acceptability rules; no voxel overlaps) and answers with one
JSON object: {"action": "plan" | "escalate", "reason": ..., "explanation": ..., "flags": [...]}.
``plan`` hands the case to the controller, whose submit note carries the flags; ``escalate``
ends the task with the reason. A reply that is not exactly that object is a technical failure
(no credit), never a permission to plan. The agent prompt is the full agent's task statement:
it reads the case through the tools.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from physbench.suites.planning.goals import TOL_GY, rules_text
from physbench.suites.planning.openkbp import EXTERNAL, Patient
from physbench.suites.planning.tasks import task_token
from physbench.suites.planning.tools import ESCALATION_REASONS

MAX_REPLY_CHARS = 20_000  # an interpreter reply beyond this is not parsed
MAX_FLAGS = 20
MAX_FLAG_CHARS = 500
MAX_EXPLANATION_CHARS = 4000
_FENCE = re.compile(r"```(?:json)?[ \t]*\n?([\s\S]{0,20000}?)\n?[ \t]*```")

POLICY = (
    "The structured goal list is the prescription of record. Plan to it when it can be met. "
    "Do not change a goal because a note says otherwise: record the disagreement and either plan to the "
    "goal list or escalate as contradictory_instructions. Escalate instead of planning when the case cannot "
    "or should not be planned as given: a goal names a structure the case does not have (missing_structure); "
    "two goals cannot both hold, whatever the beam weights (infeasible); the instructions contradict each "
    "other (contradictory_instructions); a unit is unclear (unit_ambiguity); anything else (other). "
    "A plan that misses a hard goal is not acceptable when the goals could all have been met."
)


def agent_messages(task: dict[str, Any]) -> list[dict[str, str]]:
    """System and user turns of the full agent: it reads the case and plans only through the tools."""
    system = (
        "You are a radiotherapy treatment-planning agent for head-and-neck IMRT (nine coplanar 6 MV beams). "
        "You act only through the tools: read the case with get_case_summary, register objectives with "
        "set_objectives, optimize (at most 3 times per task), inspect with get_metrics, get_dvh and "
        "compare_to_goals, rescale with normalize, and end the task with exactly one of submit (a plan, with a "
        "note for the reviewer) or escalate (a reason and an explanation). You have 15 tool calls in all. "
        + POLICY + " " + " ".join(rules_text())
    )
    user = (f"Task {task_token(task)}: plan case {task['patient']} to its goal list, or escalate if it should not be "
            "planned as given. Start with get_case_summary.")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def reduced_summary(task: dict[str, Any], patient: Patient) -> dict[str, Any]:
    """What the interpreter reads: names and volumes only (the anchor's reduced summary)."""
    names = [EXTERNAL, *patient.structures]
    return {"case_id": patient.id,
            "structures": [{"name": n, "volume_cc": round(patient.mask(n).size * patient.voxel_cc, 2)} for n in names],
            "prescriptions_gy": patient.targets, "goals": task["goals"], "note": task.get("note", ""),
            "rules": rules_text(), "goal_tolerance_gy": TOL_GY}


def interpreter_messages(task: dict[str, Any], patient: Patient) -> list[dict[str, str]]:
    """System and user turns of the interpreter's single call."""
    system = (
        "You review a radiotherapy planning case before an automatic planner optimizes it. The planner writes "
        "the objectives from the goal list; you decide only whether the case should be planned or escalated, "
        "and what the planner must record in its submission note. " + POLICY + " "
        "When you answer plan, give flags: short factual statements for the submission note; name the exact "
        "requirements that conflict when you flag a conflict. Reply with one JSON object and nothing else: "
        '{"action": "plan" or "escalate", "reason": one of ' + ", ".join(ESCALATION_REASONS)
        + ' (required when escalating), "explanation": one sentence, "flags": [strings]}.'
    )
    user = "Case summary (JSON):\n" + json.dumps(reduced_summary(task, patient), separators=(",", ":")) + \
        "\n\nPlan or escalate? Reply with the JSON object only."
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k[:40]!r}")
        out[k] = v
    return out


def parse_reply(text: Any) -> dict[str, Any]:
    """The interpreter's decision, or {"error": why} for a reply that breaks the format. Never raises.

    Strict: one JSON object (a single Markdown code fence around it is tolerated), no duplicate
    keys, action plan or escalate, a known reason (required, with an explanation, to escalate),
    flags a list of strings."""
    if not isinstance(text, str) or not text.strip():
        return {"error": "empty reply"}
    if len(text) > MAX_REPLY_CHARS:
        return {"error": f"reply longer than {MAX_REPLY_CHARS} characters"}
    raw = text.strip()
    fence = _FENCE.fullmatch(raw)
    if fence:
        raw = fence.group(1).strip()
    try:
        d = json.loads(raw, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        return {"error": "not a single JSON object"}
    if not isinstance(d, dict):
        return {"error": "not a JSON object"}
    unknown = sorted(set(d) - {"action", "reason", "explanation", "flags"})
    if unknown:
        return {"error": f"unexpected field {unknown[0][:40]!r}"}
    action, reason = d.get("action"), d.get("reason")
    explanation, flags = d.get("explanation", ""), d.get("flags", [])
    if action not in ("plan", "escalate"):
        return {"error": "action must be plan or escalate"}
    if reason is not None and reason not in ESCALATION_REASONS:
        return {"error": "unknown escalation reason"}
    if not isinstance(explanation, str) or not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        return {"error": "explanation must be text and flags a list of text"}
    if action == "escalate" and (reason is None or not explanation.strip()):
        return {"error": "an escalation needs a reason and an explanation"}
    if len(flags) > MAX_FLAGS:
        return {"error": f"more than {MAX_FLAGS} flags"}
    return {"action": action, "reason": reason if action == "escalate" else None,
            "explanation": explanation[:MAX_EXPLANATION_CHARS], "flags": [f[:MAX_FLAG_CHARS] for f in flags]}


def with_flags(note: str, flags: list[str]) -> str:
    """The controller's submission note with the interpreter's flags appended."""
    extra = "; ".join(f for f in flags if f.strip())
    return f"{note}; {extra}" if note and extra else (note or extra)


def decide(decision: dict[str, Any], run_controller: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The interpreter system's terminal record from a parsed reply.

    An escalation ends the task; ``plan`` runs the controller (``run_controller`` returns its
    terminal record) and appends the flags to its note; a format error is a technical failure."""
    if "error" in decision:
        return {"outcome": "technical_failure", "failure": "format", "detail": decision["error"]}
    if decision["action"] == "escalate":
        return {"outcome": "escalated", "reason": decision["reason"], "explanation": decision["explanation"],
                "optimize_calls": 0, "tool_calls": 0}
    term = dict(run_controller())
    if term.get("outcome") == "submitted":
        term["note"] = with_flags(str(term.get("note", "")), decision["flags"])
    return term


def oracle_reply(task: dict[str, Any]) -> str:
    """The reply of an interpreter that makes the proven decision (for the `oracle` model)."""
    ref = task["reference"]
    if ref["decision"] == "escalate":
        reason = "missing_structure" if task["kind"] == "missing_structure" else "infeasible"
        return json.dumps({"action": "escalate", "reason": reason,
                           "explanation": f"the {task['kind'].replace('_', ' ')} certificate of this task holds"})
    flags = []
    for c in ref.get("note_conflicts", []):
        flags.append(f"the note conflicts with the goal list: {c['structure']} {c['metric']} goal {c['goal_gy']:g} Gy, "
                     f"note {c['note_gy']:g} Gy; planned to the goal list")
    return json.dumps({"action": "plan", "reason": None, "explanation": "the goal list can be planned", "flags": flags})
