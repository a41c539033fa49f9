"""The planning tools as JSON: names, descriptions, JSON-schema parameters, and argument checks.

The nine tools follow the anchor's contract (get_case_summary, set_objectives, optimize,
get_metrics, get_dvh, normalize, compare_to_goals, submit, escalate). ``TOOL_DEFINITIONS`` is
what an OpenAI-style tool-calling loop sends; ``parse_arguments`` turns a model's argument text
into a checked dict or a one-line error, bounded in size and never evaluated.
"""

from __future__ import annotations

from typing import Any

from physbench.core.tools import ToolSpec
from physbench.core.tools import parse_arguments as read_arguments

ESCALATION_REASONS = ("infeasible", "missing_structure", "contradictory_instructions", "unit_ambiguity", "other")
TERM_TYPES = ("min_dose", "max_dose", "mean_dose", "uniform_dose", "dvh_max")  # the anchor's five
MAX_TERMS = 64
MAX_TEXT = 4000

_STR = {"type": "string", "maxLength": 200}
_PLAN = {"type": "string", "description": "a plan_id returned by optimize or normalize", "maxLength": 64}
_METRIC = {"type": "string", "description": "Dmean, Dmax, D<p> such as D99, or D<v>cc such as D0.1cc", "maxLength": 32}
_ANY_METRIC = {"type": "string", "maxLength": 32, "description": "Dmean, Dmax, D<p> (D99), D<v>cc (D0.1cc), "
               "V<x>Gy (percent of the volume at x Gy or more), CI (Paddick) or HI (D5/D95) of a target"}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


TOOL_DEFINITIONS: list[dict[str, Any]] = [
    {"name": "get_case_summary",
     "description": "Describe the case: structures (volumes, voxel counts, voxels shared with each target, "
                    "distances to targets), prescriptions, beams, the goal list, the physician note, the "
                    "acceptability rules, the objective terms the optimizer accepts and the remaining budget.",
     "parameters": _obj({}, [])},
    {"name": "set_objectives",
     "description": "Register an optimization objective: terms (structure, term, level in Gy, priority 0-1000). "
                    "min_dose penalizes voxels below level, max_dose voxels above it, mean_dose a mean above it, "
                    "uniform_dose any difference from level, dvh_max (with volume_fraction v) dose above level "
                    "in more than the fraction v of the volume. Returns an objective_id; does not optimize.",
     "parameters": _obj({"objectives": {"type": "array", "minItems": 1, "maxItems": MAX_TERMS, "items": _obj({
         "structure": _STR, "term": {"type": "string", "enum": list(TERM_TYPES)},
         "level": {"type": "number", "minimum": 0, "maximum": 1000},
         "priority": {"type": "number", "minimum": 0, "maximum": 1000},
         "volume_fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1,
                             "description": "dvh_max only: the fraction of the volume allowed above level (0-1)"}},
         ["structure", "term", "level", "priority"])}},
         ["objectives"])},
    {"name": "optimize",
     "description": "Optimize the beamlet weights for an objective_id, warm-started from the last plan. "
                    "Uses one of the optimization budget. Returns a plan_id and every goal's achieved value.",
     "parameters": _obj({"objective_id": {"type": "string", "maxLength": 64}}, ["objective_id"])},
    {"name": "get_metrics",
     "description": "Values of (structure, metric) pairs for a plan, each with its unit; targets are merged "
                    "with higher-dose targets.",
     "parameters": _obj({"plan_id": _PLAN, "metrics": {"type": "array", "minItems": 1, "maxItems": 64,
                                                        "items": _obj({"structure": _STR, "metric": _ANY_METRIC},
                                                                      ["structure", "metric"])}},
                        ["plan_id", "metrics"])},
    {"name": "get_dvh",
     "description": "Cumulative dose-volume histogram of one structure for a plan.",
     "parameters": _obj({"plan_id": _PLAN, "structure": _STR,
                         "n_points": {"type": "integer", "minimum": 5, "maximum": 500}}, ["plan_id", "structure"])},
    {"name": "normalize",
     "description": "Scale every beamlet of a plan so that one structure metric equals a value (Gy). "
                    "Returns a new plan_id; free of the optimization budget.",
     "parameters": _obj({"plan_id": _PLAN, "structure": _STR, "metric": _METRIC,
                         "value": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000}},
                        ["plan_id", "structure", "metric", "value"])},
    {"name": "compare_to_goals",
     "description": "Goal-by-goal table (achieved, met, margin) for a plan, and whether it would be rejected.",
     "parameters": _obj({"plan_id": _PLAN}, ["plan_id"])},
    {"name": "submit",
     "description": "Submit a plan as the final answer, with a note for the reviewer, and end the task.",
     "parameters": _obj({"plan_id": _PLAN, "note": {"type": "string", "maxLength": MAX_TEXT}}, ["plan_id"])},
    {"name": "escalate",
     "description": "Stop and request review: the case cannot or should not be planned as given. Ends the task.",
     "parameters": _obj({"reason": {"type": "string", "enum": list(ESCALATION_REASONS)},
                         "explanation": {"type": "string", "maxLength": MAX_TEXT}}, ["reason"])},
]
TOOL_NAMES = tuple(t["name"] for t in TOOL_DEFINITIONS)
TOOL_SPECS: tuple[ToolSpec, ...] = tuple(ToolSpec(t["name"], t["description"], t["parameters"]) for t in TOOL_DEFINITIONS)
TERMINAL_TOOLS = ("submit", "escalate")
_SCHEMAS = {t["name"]: t["parameters"] for t in TOOL_DEFINITIONS}


def openai_tools() -> list[dict[str, Any]]:
    """The definitions in the OpenAI chat-completions ``tools`` shape."""
    return [t.to_openai() for t in TOOL_SPECS]


class ToolArgumentError(ValueError):
    """Arguments that do not fit a tool's schema (reported to the caller, never raised further)."""


def parse_arguments(tool: str, arguments: str | dict[str, Any] | None) -> dict[str, Any]:
    """A checked argument dict for ``tool`` from JSON text or a dict; ToolArgumentError otherwise."""
    if tool not in _SCHEMAS:
        raise ToolArgumentError(f"unknown tool {str(tool)[:60]!r}; tools: {', '.join(TOOL_NAMES)}")
    if isinstance(arguments, str) or arguments is None:
        args, why = read_arguments(arguments or "")  # the core's bounded JSON reading
        if why is not None:
            raise ToolArgumentError(why)
    else:
        args = arguments
    _check(args, _SCHEMAS[tool], "arguments")
    return args


def _check(value: Any, schema: dict[str, Any], where: str) -> None:
    """A small JSON-schema subset: object, array, string, number, integer, enum, bounds."""
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            raise ToolArgumentError(f"{where} must be an object")
        props = schema.get("properties", {})
        extra = [k for k in value if k not in props]
        if extra and schema.get("additionalProperties") is False:
            raise ToolArgumentError(f"{where}: unexpected field {str(extra[0])[:40]!r}")
        for k in schema.get("required", []):
            if k not in value:
                raise ToolArgumentError(f"{where}: missing field {k!r}")
        for k, v in value.items():
            _check(v, props[k], f"{where}.{k}")
    elif kind == "array":
        if not isinstance(value, list):
            raise ToolArgumentError(f"{where} must be an array")
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 10**6):
            raise ToolArgumentError(f"{where} must hold {schema.get('minItems', 0)} to {schema.get('maxItems')} items")
        for i, v in enumerate(value):
            _check(v, schema["items"], f"{where}[{i}]")
    elif kind == "string":
        if not isinstance(value, str) or len(value) > schema.get("maxLength", MAX_TEXT):
            raise ToolArgumentError(f"{where} must be a string of at most {schema.get('maxLength', MAX_TEXT)} characters")
    elif kind in ("number", "integer"):
        ok = isinstance(value, int if kind == "integer" else (int, float)) and not isinstance(value, bool)
        if not ok or value != value or value in (float("inf"), float("-inf")):
            raise ToolArgumentError(f"{where} must be a finite {kind}")
        if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
            raise ToolArgumentError(f"{where} must lie in [{schema.get('minimum')}, {schema.get('maximum')}]")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            raise ToolArgumentError(f"{where} must be above {schema['exclusiveMinimum']}")
    if "enum" in schema and value not in schema["enum"]:
        raise ToolArgumentError(f"{where} must be one of {', '.join(map(str, schema['enum']))}")
