"""The planning suite object the runner finds by name (entry point `physbench.suites`).

One item per task and system. ``system`` picks who decides: ``agent`` (the full LLM agent: the
`agent` protocol drives ``harness(item)``), ``interpreter`` (one strict-JSON reply, then the
controller), ``controller`` and ``arithmetic`` (no model: the suite's own protocols of those
names run them on a harness). The item's reference is the proven decision with its certificate's
summary; the grade's outcome is the decision's (correct, wrong, no_decision, technical_failure)
and its detail carries the three policies of Table S14 and the plan's dose endpoints.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from physbench.grading.outcomes import truncated
from physbench.runner.retry import DeclaredRetries

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.protocols.base import Answer
    from physbench.suites.planning.harness import PlanningHarness
    from physbench.suites.planning.metrics import Case
    from physbench.suites.planning.pool import PooledHarness

SYSTEMS = ("agent", "interpreter", "controller", "arithmetic")
# the agent system runs as the paper ran it (paper_agent.py); the core's generic `agent` loop stays beside it
PROTOCOL_OF = {"agent": "opengray-agent", "interpreter": "direct", "controller": "controller", "arithmetic": "arithmetic"}
SYSTEM_OF = {**{protocol: system for system, protocol in PROTOCOL_OF.items()}, "agent": "agent"}
SPLITS = ("dev", "test", "reserved", "all")
# the development patients the paper's tables name (Tables S2, S3: set D); the rest are held out
DEV_PATIENTS = ("pt_258", "pt_269", "pt_289", "pt_302", "pt_306", "pt_307", "pt_320", "pt_339")
# the reserved (evaluation) patients the paper's tables name, 17 of its 30: Table S3 (set R: pt_248),
# S8 (the evaluation's technical failures), S11 (reserved overlap tasks), S13 and S17 (the evaluation's
# feasible controls), S15 (pt_267); and S4's stored witnesses (pt_242, pt_249 only there), which are
# those of the evaluation's feasible controls (Table 1; S15: "values of the reserved evaluation")
RESERVED_PATIENTS = ("pt_242", "pt_245", "pt_248", "pt_249", "pt_251", "pt_252", "pt_256", "pt_264", "pt_267",
                     "pt_275", "pt_278", "pt_283", "pt_287", "pt_292", "pt_299", "pt_304", "pt_334")
OUTCOMES = ("correct", "wrong", "no_decision", "technical_failure")
_CASES: "OrderedDict[str, Case]" = OrderedDict()
_CASES_KEPT = 4  # dose influences are tens of MB each
_CONTROLLER: "OrderedDict[str, dict[str, Any]]" = OrderedDict()


@lru_cache(maxsize=1)
def shipped_tasks() -> tuple[dict[str, Any], ...]:
    from physbench.suites.planning.tasks import build_tasks

    return tuple(build_tasks()[0])


def user_tasks(dij: str, witnesses: str | None = None) -> list[dict[str, Any]]:
    """The tasks of the shipped patients that a folder of OpenKBP-Opt matrices covers, planned on
    those matrices; feasible controls only from a witness table found on them (`planning
    witnesses --dij DIR --out FILE`). A matrix that is not its patient's is refused (UserError)."""
    from physbench.core.errors import UserError
    from physbench.suites.planning.influence import dij_patients
    from physbench.suites.planning.openkbp import shipped_ids
    from physbench.suites.planning.tasks import build_tasks

    ids = dij_patients(dij, shipped_ids())
    if not ids:
        raise UserError(f"dij: {dij!r} holds no <patient>/dij.npz for a shipped patient")
    table: dict[str, Any] = {}
    if witnesses:
        try:
            table = json.loads(open(witnesses, encoding="utf-8").read()).get("patients", {})
        except (OSError, ValueError, AttributeError, RecursionError) as exc:
            raise UserError(f"witnesses: cannot read {witnesses!r} ({type(exc).__name__})") from None
    return build_tasks(ids, witnesses=table if isinstance(table, dict) else {}, dij=dij)[0]


def select(tasks: Iterable[dict[str, Any]], split: str, family: str | None = None) -> list[dict[str, Any]]:
    """The tasks of a split (dev: the paper's named development patients; test: the others; reserved:
    the paper's named reserved patients, a part of test; all)."""
    from physbench.suites.planning.tasks import FAMILIES

    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}")
    if family is not None and family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}")
    chosen = {"dev": DEV_PATIENTS, "reserved": RESERVED_PATIENTS}.get(split)
    keep = (lambda p: p in chosen) if chosen else (lambda p: p not in DEV_PATIENTS) if split == "test" \
        else (lambda p: True)
    return [t for t in tasks if keep(t["patient"]) and (family is None or t["kind"] == family)]


def of_patients(tasks: list[dict[str, Any]], patients: str, split: str) -> list[dict[str, Any]]:
    """The tasks of the comma-separated patient ids ``patients`` (a part of a split, for a quick run)."""
    wanted = [p.strip() for p in patients.split(",") if p.strip()]
    have = {t["patient"] for t in tasks}
    missing = [p for p in wanted if p not in have]
    if not wanted or missing:
        raise ValueError(f"patients: {', '.join(missing) or repr(patients)} not among the patients of split {split!r}"
                         f" ({', '.join(sorted(have)) or 'none'})")
    return [t for t in tasks if t["patient"] in wanted]


def reference_of(task: Mapping[str, Any]) -> dict[str, Any]:
    """The proven decision and its certificate's summary (a witness's weights stay in the package)."""
    ref = json.loads(json.dumps(task["reference"]))
    cert = ref.get("certificate")
    if isinstance(cert, dict):
        cert.pop("weights_b64", None)
        cert.pop("structures", None)
    return {**ref, "family": task["kind"], "patient": task["patient"]}


def item_fields(task: dict[str, Any], system: str) -> dict[str, Any]:
    """Everything an Item of ``task`` for ``system`` holds, as plain JSON."""
    from physbench.suites.planning.interpreter import agent_messages, interpreter_messages
    from physbench.suites.planning.openkbp import load_shipped

    if system not in SYSTEMS:
        raise ValueError(f"system must be one of {', '.join(SYSTEMS)}")
    messages = interpreter_messages(task, load_shipped(task["patient"])) if system == "interpreter" else agent_messages(task)
    return {"id": task["id"], "suite": "planning", "kind": task["kind"], "messages": messages,
            "reference": reference_of(task),
            "params": {"patient": task["patient"], "family": task["kind"], "system": system, "goals": task["goals"],
                       "note": task.get("note", ""), **({"dij": task["dij"]} if task.get("dij") else {})},
            "meta": {**task["meta"], "system": system}}


def task_of(item: Any) -> dict[str, Any]:
    """The task dict an item was made from (what the harness and the policies read)."""
    p = item.params
    return {"id": item.id, "kind": item.kind, "patient": p["patient"], "goals": [dict(g) for g in p["goals"]],
            "note": p.get("note", ""), "reference": json.loads(json.dumps(item.reference)), "meta": dict(item.meta),
            **({"dij": str(p["dij"])} if p.get("dij") else {})}


def case_for(patient_id: str, dij: str | None = None) -> "Case":
    """The patient's Case on the cached pencil-beam influence, or on the user's OpenKBP-Opt matrix
    in the folder ``dij`` (the last few kept in memory)."""
    from physbench.suites.planning.influence import influence_for, load_openkbp_opt
    from physbench.suites.planning.metrics import Case
    from physbench.suites.planning.openkbp import load_shipped

    key = f"{patient_id}|{dij or ''}"
    if key in _CASES:
        _CASES.move_to_end(key)
        return _CASES[key]
    p = load_shipped(patient_id)
    case = Case(p, lambda p=p: load_openkbp_opt(dij, p) if dij else influence_for(p))
    _CASES[key] = case
    while len(_CASES) > _CASES_KEPT:
        _CASES.popitem(last=False)
    return case


def new_harness(task: dict[str, Any]) -> "PlanningHarness":
    from physbench.suites.planning.harness import PlanningHarness

    return PlanningHarness(task, case_for(task["patient"], task.get("dij")))


def run_system(name: str, task: dict[str, Any]) -> dict[str, Any]:
    """A no-model system (controller, arithmetic) on a fresh harness: its tool log and result."""
    from physbench.suites.planning.systems import SYSTEMS as RUN

    h = new_harness(task)
    RUN[name](h)
    return {"tool_log": list(h.log), "result": h.result()}


def controller_result(task: dict[str, Any]) -> dict[str, Any]:
    """The controller's terminal record on a task (deterministic: run once per task and kept)."""
    from physbench.suites.planning.systems import controller

    key = json.dumps([task["id"], task["goals"], task.get("dij")], sort_keys=True)
    if key not in _CONTROLLER:
        h = new_harness(task)
        controller(h)
        _CONTROLLER[key] = h.result()
        while len(_CONTROLLER) > 512:
            _CONTROLLER.popitem(last=False)
    return json.loads(json.dumps(_CONTROLLER[key]))


def failure_record(why: str, detail: str = "") -> dict[str, Any]:
    return {"outcome": "technical_failure", "failure": why, "detail": detail[:500]}


def attempt_result(task: dict[str, Any], system: str, text: str | None, finish_reason: str | None,
                   outcome: str | None, detail: Mapping[str, Any] | None) -> dict[str, Any]:
    """The attempt's terminal record: from the harness result (agent, controller, arithmetic) or
    from the interpreter's reply; a technical failure where neither can be read. Never raises."""
    from physbench.suites.planning.interpreter import decide, parse_reply

    if system == "interpreter":
        if truncated(finish_reason):
            return failure_record("truncated", "the reply hit the token limit")
        return decide(parse_reply(text), lambda: controller_result(task))
    result = (detail or {}).get("result")
    if not isinstance(result, Mapping) or result.get("outcome") not in ("submitted", "escalated", "no_decision"):
        return failure_record(str(outcome or "no_result"), "the attempt left no harness result")
    out = json.loads(json.dumps(result))
    if outcome == "budget_exhausted" and out["outcome"] == "no_decision":
        out["budget_exhausted"] = True
    return out


def judge(task: dict[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """The decision outcome, the three policies of Table S14, and the plan's numbers."""
    from physbench.suites.planning.tasks import POLICIES, decision_correct

    policies = {p: decision_correct(task, dict(result), p) for p in POLICIES}
    kind = result.get("outcome")
    outcome = "technical_failure" if kind == "technical_failure" else "no_decision" if kind == "no_decision" else \
        "correct" if policies["primary"] else "wrong"
    detail: dict[str, Any] = {"family": task["kind"], "patient": task["patient"], "decision": kind,
                              "reason": result.get("reason"), "correct": policies,
                              "technical_failure": kind == "technical_failure",
                              "optimize_calls": result.get("optimize_calls"), "tool_calls": result.get("tool_calls")}
    if kind == "technical_failure":
        detail["failure"] = {"kind": result.get("failure"), "detail": result.get("detail")}
    if kind == "submitted":
        detail.update(hard_met=result.get("hard_met"), hard_total=result.get("hard_total"),
                      rejected=result.get("rejected"), spg=result.get("spg"), w_max=result.get("w_max"),
                      global_max_gy=result.get("global_max_gy"), note=str(result.get("note", ""))[:2000],
                      endpoints={f"{g['structure']} {g['metric']}": g.get("achieved") for g in result.get("goals", [])},
                      dvh=result.get("dvh") if isinstance(result.get("dvh"), Mapping) else None,
                      unmet_hard=[f"{g['structure']} {g['metric']}" for g in result.get("goals", [])
                                  if g.get("kind") == "hard" and g.get("met") is False])
    return {"outcome": outcome, "score": 1.0 if outcome == "correct" else 0.0, "detail": detail}


class _SystemProtocol:
    """A system that needs no model (controller, arithmetic): it runs on the item's harness."""

    needs_tools = False
    no_model = True

    def __init__(self, name: str, **_: Any):
        self.name = name

    def run_sync(self, item: Any) -> dict[str, Any]:
        return run_system(self.name, task_of(item))

    async def run(self, item: "Item", ask: Any) -> "Answer":
        """The system in a harness worker process (pool.py), off the event loop."""
        from physbench.protocols.base import Answer
        from physbench.suites.planning.pool import PoolError, pool

        p = pool()
        try:
            detail = await p.run("system", p.new_key(), (self.name, task_of(item)))
        except PoolError as exc:
            detail = {"tool_log": [], "result": {"outcome": "worker_lost", "detail": str(exc)}}
        return Answer(text="", finish_reason="stop", outcome=None, detail=detail)


class PlanningSuite:
    """OpenGray tasks on the shipped OpenKBP patients, for the four systems."""

    name = "planning"
    item_options = ("system", "family", "dij", "witnesses", "patients")
    # OpenGray Table S16: no retries; a call that fails is a technical failure (Table S8), no credit
    retry_policy = DeclaredRetries(max_attempts=1, source="OpenGray Table S16 (no retries; failures per Table S8)")

    def default_sampling(self, protocol: str) -> dict[str, Any]:
        """OpenGray Table S16 where the user gives no flag: output limits of 2,048 tokens for the
        interpreter's reply and 8,192 per call of the full agent; provider seeds 0 and 1 (two runs)."""
        base = protocol.split(":", 1)[0]  # a protocol name may carry options (`agent:max_calls=...`)
        if base not in ("direct", "opengray-agent", "agent"):
            return {}
        return {"max_tokens": 2048 if base == "direct" else 8192, "seeds": (0, 1)}

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              system: str = "agent", family: str | None = None, dij: str | None = None, witnesses: str | None = None,
              patients: str | None = None, **options: Any) -> list["Item"]:
        from physbench.core.errors import UserError
        from physbench.core.items import Item, Message

        if options:
            raise UserError(f"unknown planning option {sorted(options)[0]!r}; options: {', '.join(self.item_options)}")
        try:
            chosen = select(user_tasks(dij, witnesses) if dij else shipped_tasks(), split, family)
            if patients is not None:
                chosen = of_patients(chosen, patients, split)
            fields = [item_fields(t, system) for t in chosen[: limit if limit is not None else None]]
        except ValueError as exc:
            raise UserError(str(exc)) from None
        return [Item(id=f["id"], suite=f["suite"], kind=f["kind"], messages=tuple(Message(**m) for m in f["messages"]),
                     reference=f["reference"], params=f["params"], meta=f["meta"]) for f in fields]

    def default_protocol(self, options: Mapping[str, str]) -> str:
        """The protocol that runs a system (`--system` alone picks both): the agent by default."""
        return PROTOCOL_OF.get(options.get("system", "agent"), "direct")

    def default_item_options(self, protocol: str) -> dict[str, str]:
        """The system a protocol stands for: a plain `direct` call is the interpreter's one reply."""
        return {"system": SYSTEM_OF.get(protocol, "agent")}

    def harness(self, item: "Item") -> "PooledHarness":
        """A fresh harness for the `agent` protocol, its state in a worker process (pool.py)."""
        from physbench.suites.planning.pool import PooledHarness

        return PooledHarness(task_of(item))

    def protocols(self) -> dict[str, Any]:
        from physbench.suites.planning.paper_agent import PaperAgent

        return {"controller": lambda _suite, **kw: _SystemProtocol("controller", **kw),
                "arithmetic": lambda _suite, **kw: _SystemProtocol("arithmetic", **kw),
                "opengray-agent": lambda suite, **kw: PaperAgent(suite, **kw)}

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        from physbench.grading.types import Grade

        task = task_of(item)
        system = str(item.params.get("system", "agent"))
        try:
            result = attempt_result(task, system, getattr(answer, "text", None), getattr(answer, "finish_reason", None),
                                    getattr(answer, "outcome", None), getattr(answer, "detail", None))
            verdict = judge(task, result)
        except Exception as exc:  # grading never raises on an attempt: an unreadable one earns nothing
            verdict = judge(task, failure_record("grading_error", f"{type(exc).__name__}: {exc}"))
        return Grade(score=verdict["score"], passed=verdict["outcome"] == "correct", outcome=verdict["outcome"],
                     detail=verdict["detail"])

    @property
    def report(self) -> Any:
        """This suite's report sections and viewer fields (imported when a report asks)."""
        from physbench.suites.planning.report import REPORT

        return REPORT

    def oracle(self, item: "Item") -> str | None:
        """A perfect interpreter's reply (the agent and the scripted systems have no text oracle)."""
        from physbench.suites.planning.interpreter import oracle_reply

        return oracle_reply(task_of(item)) if item.params.get("system") == "interpreter" else None


SUITE = PlanningSuite()
