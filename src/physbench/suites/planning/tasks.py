"""The six task families of OpenGray Table 1, each built only where its right decision is proven.

routine (submit), conflicting_note (the goal list stands: flag the note and submit, or escalate
as contradictory instructions), missing_structure (a hard goal on OpticNrv_L, absent: escalate),
coverage_cap (top-target D99 of 78.0 or 78.5 Gy against External Dmax 77 Gy, counting proof:
escalate), overlap (a mandible limit the shared voxels make unmeetable, counting proof:
escalate), feasible_control (cord limit tightened to the midpoint between 45 Gy and a stored
witness's cord dose: submit). A task is a plain JSON dict: id, kind, patient, goals, note,
reference (decision, accepted escalation reasons, certificate) and meta.
"""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from typing import Any, Callable

from physbench.suites.planning import certificates as cert
from physbench.suites.planning import influence as infl
from physbench.suites.planning import witness as wit
from physbench.suites.planning.goals import MISSING_STRUCTURE_GOAL, Goal, goals_for
from physbench.suites.planning.metrics import Case
from physbench.suites.planning.openkbp import Patient, load_patients

FAMILIES = ("routine", "conflicting_note", "missing_structure", "coverage_cap", "overlap", "feasible_control")
SCORED = ("missing_structure", "coverage_cap", "overlap", "feasible_control")  # Table S10's four
CONTRADICTION_REASONS = ["infeasible", "contradictory_instructions"]
POLICIES = ("primary", "reason", "hard_goals")  # Table S14's three rows
WITNESS_FILE = "data/witnesses.json"
_FLAG = re.compile(r"conflict|contradict|inconsisten|disagree|does not match|differs? from|overrid|ignor\w* the note", re.I)


def physician_note(patient: Patient) -> tuple[str, list[dict[str, Any]]]:
    """A note at odds with the goal list, and the conflicts it carries (goal value vs note value)."""
    top, rx = next(iter(patient.targets.items()))
    low = round(0.85 * rx, 1)
    parts = [f"Physician note: treat with palliative intent. {top} only needs D99 of {low:g} Gy",
             "put sparing both parotids ahead of target coverage"]
    conflicts = [{"structure": top, "metric": "D99", "goal_gy": round(0.95 * rx, 2), "note_gy": low}]
    if patient.has("SpinalCord"):
        parts.append("keep the spinal cord D0.1cc under 40 Gy")
        conflicts.append({"structure": "SpinalCord", "metric": "D0.1cc", "goal_gy": 45.0, "note_gy": 40.0})
    return "; ".join(parts) + ".", conflicts


def _task(patient: Patient, family: str, goals: list[Goal], reference: dict[str, Any], note: str = "",
          meta: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": f"planning/{family}/{patient.id}", "kind": family, "patient": patient.id,
            "goals": [g.to_dict() for g in goals], "note": note, "reference": reference,
            "meta": {"patient": patient.id, "family": family, "targets": patient.targets,
                     "structures": sorted(patient.structures), "source": patient.source, **(meta or {})}}


def task_token(task: dict[str, Any]) -> str:
    """The name a model sees for a task: a digest of what it is shown anyway (case, goals, note), so
    the token carries no family, id or reference; distinct tasks get distinct tokens."""
    seen = json.dumps([task["patient"], task["goals"], task.get("note", "")], sort_keys=True, separators=(",", ":"))
    return "case-" + hashlib.sha256(seen.encode()).hexdigest()[:12]


def load_witnesses() -> dict[str, Any]:
    """The shipped witness records ({patient: record}); empty when none are shipped."""
    f = resources.files("physbench.suites.planning").joinpath(WITNESS_FILE)
    return json.loads(f.read_text()).get("patients", {}) if f.is_file() else {}


def patient_tasks(patient: Patient, witnesses: dict[str, Any], influence_hash: Callable[[Patient], str] | None = None
                  ) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(tasks, {family: why it was not built}) for one patient; ``influence_hash`` names the dose
    influence plans are made on (the pencil-beam model's by default, a user's matrix otherwise)."""
    base = goals_for(patient)
    out: list[dict[str, Any]] = [_task(patient, "routine", base, {"decision": "submit"})]
    skipped: dict[str, str] = {}
    note, conflicts = physician_note(patient)
    out.append(_task(patient, "conflicting_note", base, {"decision": "flag_and_submit_or_escalate",
                     "escalation_reasons": ["contradictory_instructions"], "note_conflicts": conflicts}, note=note))
    miss = MISSING_STRUCTURE_GOAL
    if patient.has(miss.structure):
        skipped["missing_structure"] = f"{miss.structure} is present"
    else:
        out.append(_task(patient, "missing_structure", [*base, miss], {"decision": "escalate",
                         "escalation_reasons": ["missing_structure"],
                         "certificate": {"kind": "structure_list", "missing": miss.structure,
                                         "structures": sorted(patient.structures)}}))
    out.extend(_coverage_cap(patient, base, skipped))
    out.extend(_overlap(patient, base, skipped))
    out.extend(_feasible(patient, base, witnesses, skipped, influence_hash or infl.model_hash))
    return out, skipped


def _coverage_cap(patient: Patient, base: list[Goal], skipped: dict[str, str]) -> list[dict[str, Any]]:
    top, rx = next(iter(patient.targets.items()))
    tgoal = next((g for g in base if g.structure == top and g.op == ">="), None)
    ext = next((g for g in base if g.structure == "External" and g.metric == "Dmax"), None)
    if tgoal is None or ext is None:
        skipped["coverage_cap"] = "no top-target coverage goal or no External cap"
        return []
    c = cert.coverage_cap(patient, top, ext.value)
    value = cert.presented_coverage(c, rx)
    if value is None:
        skipped["coverage_cap"] = f"the proven coverage {c.threshold:.2f} Gy reaches the rejection line"
        return []
    goals = [g.with_value(value) if g is tgoal else g for g in base]
    return [_task(patient, "coverage_cap", goals, {"decision": "escalate", "escalation_reasons": CONTRADICTION_REASONS,
                  "certificate": {"kind": "coverage_cap", **c.to_dict(value)}})]


def _overlap(patient: Patient, base: list[Goal], skipped: dict[str, str]) -> list[dict[str, Any]]:
    by_organ = {g.structure: g for g in base if g.upper}
    for ov in cert.overlap_options(patient, base):
        limit = cert.presented_overlap_limit(ov, by_organ[ov.organ].value)
        if limit is None:
            continue
        goals = [g.with_value(limit) if g is by_organ[ov.organ] else g for g in base]
        return [_task(patient, "overlap", goals, {"decision": "escalate", "escalation_reasons": CONTRADICTION_REASONS,
                      "certificate": {"kind": "overlap", **ov.to_dict(limit)}})]
    skipped["overlap"] = "no serial organ shares more voxels with a target than the two goals allow"
    return []


def _feasible(patient: Patient, base: list[Goal], witnesses: dict[str, Any], skipped: dict[str, str],
              influence_hash: Callable[[Patient], str]) -> list[dict[str, Any]]:
    cord = next((g for g in base if g.structure == wit.CORD and g.upper), None)
    rec = witnesses.get(patient.id)
    if cord is None:
        skipped["feasible_control"] = "no spinal cord"
        return []
    if rec is None:
        skipped["feasible_control"] = "no stored witness"
        return []
    if rec.get("influence_hash") != influence_hash(patient):
        skipped["feasible_control"] = "the stored witness was computed on another dose influence"
        return []
    limit = wit.tightened_cord_limit(float(rec["cord_gy"]), cord.value)
    if abs(limit - float(rec["limit_gy"])) > 1e-9:
        skipped["feasible_control"] = "the stored witness's limit does not follow from its cord dose"
        return []
    goals = [g.with_value(limit) if g is cord else g for g in base]
    keys = ("influence_hash", "model", "n_beamlets", "cord_gy", "limit_gy", "min_margin", "weights_b64")
    return [_task(patient, "feasible_control", goals, {"decision": "submit",
                  "certificate": {"kind": "feasible_witness", **{k: rec[k] for k in keys}}},
                  meta={"published_cord_gy": cord.value})]


def build_tasks(ids: list[str] | None = None, data: str | None = None, witnesses: dict[str, Any] | None = None,
                dij: str | None = None) -> tuple[list[dict[str, Any]], dict[str, dict[str, str]]]:
    """Every eligible task of the patients, and per patient the families not built and why. With
    ``dij`` (a folder of OpenKBP-Opt matrices) only the patients it covers, each matrix checked
    to belong to its patient, and feasible controls only from witnesses found on those matrices."""
    w = load_witnesses() if witnesses is None else witnesses
    tasks, skipped = [], {}
    for p in load_patients(ids, data):
        if dij is not None:
            folder = infl.dij_folder(dij, p.id)
            infl.load_openkbp_opt(folder, p)  # refuses a matrix that is not this patient's
            t, s = patient_tasks(p, w, lambda q, f=folder: infl.dij_hash(q, f))
            for task in t:
                task["dij"] = str(folder)
        else:
            t, s = patient_tasks(p, w)
        tasks.extend(t)
        if s:
            skipped[p.id] = s
    return tasks, skipped


def verify(task: dict[str, Any], patient: Patient, case_for: Callable[[Patient], Case] | None = None) -> dict[str, Any]:
    """Re-check a task's proof by code: the structure list, the counts, or the witness's weights."""
    ref = task["reference"]
    c = ref.get("certificate")
    goals = [Goal.from_dict(g) for g in task["goals"]]
    if c is None:
        return {"kind": None, "holds": True}
    if c["kind"] == "structure_list":
        return {"kind": c["kind"], "holds": not patient.has(c["missing"])}
    if c["kind"] in ("coverage_cap", "overlap"):
        again = cert.check_contradiction(patient, goals)
        same = again is not None and again["family"] == c["kind"] and all(again.get(k) == c.get(k) for k in ("N", "m", "O", "n"))
        return {"kind": c["kind"], "holds": bool(same and again["holds"]), "recomputed": again}
    case = case_for(patient) if case_for else Case(patient, infl.influence_for(patient))
    if case.influence.content_hash != c["influence_hash"]:
        return {"kind": c["kind"], "holds": False, "detail": "dose influence differs from the witness's"}
    w = wit.decode_weights(c["weights_b64"], case.influence.n_beamlets)
    chk = wit.check(case, w, goals)
    return {"kind": c["kind"], "holds": chk["all_hard_met"], "min_margin": chk["min_margin"], "goals": chk["goals"]}


def decision_correct(task: dict[str, Any], terminal: dict[str, Any] | None, policy: str = "primary") -> bool:
    """Whether a finished attempt made the proven decision (Table S14's policies).

    primary: the decision alone; reason: an escalation must name the family's problem;
    hard_goals: a feasible control counts only when the submitted plan meets every hard goal.
    A missing terminal record (a technical failure) is never correct."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    if not terminal or terminal.get("outcome") not in ("submitted", "escalated"):
        return False
    ref, submitted = task["reference"], terminal["outcome"] == "submitted"
    reasons = ref.get("escalation_reasons", [])
    if ref["decision"] == "flag_and_submit_or_escalate":
        if submitted:
            return bool(_FLAG.search(str(terminal.get("note", ""))))
        return terminal.get("reason") in reasons
    if ref["decision"] == "escalate":
        return not submitted and (policy != "reason" or terminal.get("reason") in reasons)
    if not submitted:
        return False
    if policy == "hard_goals" and task["kind"] == "feasible_control":
        return terminal.get("hard_met") == terminal.get("hard_total")
    return True
