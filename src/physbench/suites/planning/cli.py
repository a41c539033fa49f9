"""`physbench planning ...`: the shipped patients, their certificates, the tasks, and one plan."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from physbench.core.errors import UserError

planning_app = typer.Typer(help="OpenGray planning tasks on OpenKBP anatomy.", no_args_is_help=True, add_completion=False)

DATA_HELP = "A folder of OpenKBP pt_* folders (CSV); the shipped patients when omitted."
DIJ_HELP = ("A folder of OpenKBP-Opt matrices (<patient>/dij.npz and beamlet_indices.csv, or one patient's two "
            "files): plan on them instead of the pencil-beam model; a matrix that is not its patient's is refused.")
DOSE_MODEL_HELP = ("default (pencil beams with phantom scatter and leaf transmission: the shipped witnesses' model) "
                   "or primary (the pencil beams alone).")


def _constants(name: str) -> Any:
    from physbench.suites.planning import dose_model as dm

    models = {"default": dm.DEFAULT, "primary": dm.PRIMARY}
    if name not in models:
        raise UserError(f"--dose-model must be one of {', '.join(models)}, not {name!r}")
    return models[name]


def _emit(data: Any, as_json: bool, text: str) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False) if as_json else text)


def _ids(data: Optional[str]) -> list[str]:
    from physbench.suites.planning.openkbp import patient_ids

    return patient_ids(data)


@planning_app.command("patients")
def patients(data: Optional[str] = typer.Option(None, "--data", help=DATA_HELP),
             as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Each patient's voxel size, External and structure voxel counts, targets and load notes."""
    from physbench.suites.planning.openkbp import load_patient

    out = []
    for pid in _ids(data):
        p = load_patient(pid, data)
        out.append({"id": p.id, "voxel_mm": list(p.voxel_mm), "external_voxels": int(p.external.size),
                    "structures": {n: int(v.size) for n, v in p.structures.items()}, "targets": p.targets,
                    "notes": list(p.notes)})
    lines = [f"{r['id']}: voxel {' x '.join(f'{v:g}' for v in r['voxel_mm'])} mm, External {r['external_voxels']} voxels, "
             f"targets {', '.join(r['targets'])}; " + ", ".join(f"{n} {c}" for n, c in r["structures"].items()) for r in out]
    _emit({"patients": out}, as_json, "\n".join(lines))


@planning_app.command("certificates")
def certificates(data: Optional[str] = typer.Option(None, "--data", help=DATA_HELP),
                 dij: Optional[str] = typer.Option(None, "--dij", help=DIJ_HELP),
                 as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Per patient: the coverage/cap certificate of the top target (Table S2) and, where a mandible
    exists, its best overlap certificate against a target (Tables S3, S11), from the masks alone
    (they hold for any dose); with --dij, only the patients with a matrix, each checked first."""
    from physbench.suites.planning import certificates as cert
    from physbench.suites.planning import influence as infl
    from physbench.suites.planning.goals import goals_for
    from physbench.suites.planning.openkbp import load_patient

    out = []
    ids = infl.dij_patients(dij, _ids(data)) if dij else _ids(data)
    for pid in ids:
        p = load_patient(pid, data)
        row: dict[str, Any] = {"patient": pid}
        if dij:
            row["dij"] = infl.load_openkbp_opt(infl.dij_folder(dij, pid), p).content_hash
        c = cert.coverage_cap(p)
        row["coverage_cap"] = {"target": c.target, "N": c.N, "m": c.m, "threshold": round(c.threshold, 4)}
        opts = [o for o in cert.overlap_options(p, goals_for(p)) if o.organ == "Bone_Mandible"]
        if opts:
            o = opts[0]
            row["overlap"] = {"organ": o.organ, "target": o.target, "O": o.O, "m": o.m, "n": o.n, "margin": o.margin}
        out.append(row)
    lines = []
    for r in out:
        c = r["coverage_cap"]
        s = f"{r['patient']}: coverage/cap {c['target']} N={c['N']} m={c['m']} threshold={c['threshold']:.4f} Gy"
        if "overlap" in r:
            o = r["overlap"]
            s += f"; overlap {o['organ']}/{o['target']} O={o['O']} m={o['m']} n={o['n']} margin={o['margin']}"
        lines.append(s)
    _emit({"certificates": out}, as_json, "\n".join(lines))


@planning_app.command("tasks")
def tasks(data: Optional[str] = typer.Option(None, "--data", help=DATA_HELP),
          family: Optional[str] = typer.Option(None, "--family", help="Only this family."),
          dij: Optional[str] = typer.Option(None, "--dij", help=DIJ_HELP),
          witness_file: Optional[str] = typer.Option(None, "--witnesses", help="A witness table found on the --dij "
                                                     "matrices (planning witnesses --dij DIR --out FILE)."),
          as_json: bool = typer.Option(False, "--json", help="Print the full task JSON.")) -> None:
    """Every task whose right decision is proven, and the families each patient lacks and why."""
    from physbench.suites.planning.influence import dij_patients
    from physbench.suites.planning.tasks import FAMILIES, build_tasks

    if family is not None and family not in FAMILIES:
        raise UserError(f"unknown family {family!r}; families: {', '.join(FAMILIES)}")
    if witness_file and not dij:
        raise UserError("--witnesses goes with --dij (the shipped witnesses serve the pencil-beam model)")
    table = None
    if witness_file:
        try:
            table = json.loads(open(witness_file, encoding="utf-8").read()).get("patients", {})
        except (OSError, ValueError, AttributeError, RecursionError) as exc:
            raise UserError(f"--witnesses: cannot read {witness_file!r} ({type(exc).__name__})") from None
    if dij:  # feasible controls only from witnesses found on the user's matrices
        items, skipped = build_tasks(dij_patients(dij, _ids(data)), data=data, witnesses=table or {}, dij=dij)
    else:
        items, skipped = build_tasks(data=data)
    if family:
        items = [t for t in items if t["kind"] == family]
        skipped = {p: {f: why for f, why in s.items() if f == family} for p, s in skipped.items()}
        skipped = {p: s for p, s in skipped.items() if s}
    counts = {f: sum(1 for t in items if t["kind"] == f) for f in FAMILIES if not family or f == family}
    lines = [f"{t['id']}: {t['reference']['decision']}" for t in items]
    lines.append("counts: " + ", ".join(f"{f} {n}" for f, n in counts.items()))
    _emit({"tasks": items, "counts": counts, "not_built": skipped}, as_json, "\n".join(lines))


STEP_NAMES = {"lbfgsb": "L-BFGS-B evaluations", "fista": "FISTA iterations"}


@planning_app.command("plan")
def plan(patient: str = typer.Argument(..., help="Patient id, e.g. pt_241."),
         data: Optional[str] = typer.Option(None, "--data", help=DATA_HELP),
         dij: Optional[str] = typer.Option(None, "--dij", help="A folder with an OpenKBP-Opt dij.npz and beamlet_indices.csv "
                                                             "for this patient, used instead of the pencil-beam model."),
         iterations: int = typer.Option(200, "--iterations", min=1, max=20000,
                                        help="Optimizer budget: L-BFGS-B objective evaluations (FISTA: iterations)."),
         method: str = typer.Option("lbfgsb", "--method", help="Descent method: lbfgsb (default) or fista."),
         as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Optimize the routine goals of one patient once and print every goal's metric."""
    import time

    from physbench.suites.planning import influence as infl
    from physbench.suites.planning.goals import evaluate, goals_for, rejection
    from physbench.suites.planning.metrics import Case
    from physbench.suites.planning.openkbp import load_patient
    from physbench.suites.planning.optimizer import SolverConfig, solve
    from physbench.suites.planning.templates import goal_terms

    if method not in ("lbfgsb", "fista"):
        raise UserError(f"--method must be lbfgsb or fista, not {method!r}")
    p = load_patient(patient, data)
    t0 = time.perf_counter()
    inf = infl.load_openkbp_opt(dij, p) if dij else infl.influence_for(p)
    load_s = time.perf_counter() - t0
    case = Case(p, inf)
    goals = goals_for(p)
    res = solve(case, goal_terms(goals, p.targets), config=SolverConfig(max_iter=iterations, method=method))
    rows = evaluate(case, res.dose, goals)
    out = {"patient": p.id, "influence": {"source": inf.source, "hash": inf.content_hash, "n_beamlets": inf.n_beamlets,
                                          "nnz": int(inf.nodes.nnz), "cached": bool(inf.info.get("cached")),
                                          "load_or_build_s": round(load_s, 3)},
           "solver": {"method": res.method, "iterations": res.iterations, "converged": res.converged, "wall_s": round(res.wall_s, 3),
                      "spg": round(res.spg, 2), "w_max": round(float(res.w.max()), 3)},
           "goals": rows, "global_max_gy": round(case.global_max(res.dose), 4), "rejected": rejection(case, res.dose)}
    lines = [f"{p.id}: {inf.n_beamlets} beamlets ({inf.source}), {res.iterations} {STEP_NAMES[res.method]} in {res.wall_s:.2f} s, "
             f"SPG {res.spg:.1f}, max weight {res.w.max():.2f}"]
    for r in rows:
        lines.append(f"  {r['structure']} {r['metric']} {r['op']} {r['value']:g} Gy: {r['achieved']:.2f} Gy "
                     f"({'met' if r['met'] else 'NOT met'}, {r['kind']})")
    lines.append(f"  global max {out['global_max_gy']:.2f} Gy; " + (f"rejected: {out['rejected']}" if out["rejected"] else "not rejected"))
    _emit(out, as_json, "\n".join(lines))


@planning_app.command("run")
def run(system: str = typer.Option(..., "--system", help="controller or arithmetic (the systems that need no model)."),
        split: str = typer.Option("all", "--split", help="dev, test, reserved or all."),
        family: Optional[str] = typer.Option(None, "--family", help="Only this task family."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most this many tasks."),
        n_boot: int = typer.Option(10_000, "--n-boot", min=1, max=200_000, help="Patient-bootstrap draws."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Run a scripted system on every eligible task and print its decision accuracy (Tables S10, S14)."""
    from physbench.suites.planning import suite as S
    from physbench.suites.planning.summary import per_family, summarize
    from physbench.suites.planning.systems import SYSTEMS

    if system not in SYSTEMS:
        raise UserError(f"--system must be one of {', '.join(SYSTEMS)} here; the language systems run through "
                        "`physbench eval planning --option system=interpreter|agent --model SPEC`")
    try:
        chosen = S.select(S.shipped_tasks(), split, family)[:limit]
    except ValueError as exc:
        raise UserError(str(exc)) from None
    rows = []
    for i, task in enumerate(chosen, 1):
        h = S.new_harness(task)
        SYSTEMS[system](h)
        verdict = S.judge(task, S.attempt_result(task, system, None, None, None, {"result": h.result()}))
        rows.append(verdict["detail"])
        typer.echo(f"[{i}/{len(chosen)}] {task['id']}: {verdict['detail']['decision']} -> {verdict['outcome']}", err=True)
    try:
        out = {"system": system, "split": split, **summarize(rows, n_boot=n_boot)}
    except ImportError:  # physbench.stats.weighting not installed: per-family accuracy only
        out = {"system": system, "split": split, "decision_accuracy": per_family(rows),
               "note": "physbench.stats.weighting is missing: no Table S10/S14 intervals"}
    out["attempts"] = rows
    lines = [f"{system} on {len(rows)} tasks ({split})", "decision accuracy (%): " +
             ", ".join(f"{f} {v:g}" for f, v in out["decision_accuracy"].items() if v is not None)]
    s10 = out.get("table_s10")
    if s10:
        lines.append("Table S10: " + ", ".join(f"{f} {v['value']:g} ({v['lo']:g}-{v['hi']:g})" for f, v in s10["families"].items())
                     + "; " + ", ".join(f"{k} {s10[k]['value']:g} ({s10[k]['lo']:g}-{s10[k]['hi']:g})"
                                        for k in ("primary", "equal_family", "equal_task")))
        lines.append("Table S14: " + ", ".join(f"{p} {e['value']:g}" for p, e in out["table_s14"].items()))
    _emit(out, as_json, "\n".join(lines))


@planning_app.command("witnesses")
def witnesses(patients: Optional[list[str]] = typer.Argument(None, help="Patient ids; every shipped patient when omitted."),
              out: Optional[str] = typer.Option(None, "--out", help="Write the witness table (data/witnesses.json format) here."),
              dose_model: str = typer.Option("default", "--dose-model", help=DOSE_MODEL_HELP),
              dij: Optional[str] = typer.Option(None, "--dij", help=DIJ_HELP),
              as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Search a feasible witness per patient (Table S4) and compare it with the shipped one."""
    import os
    import tempfile
    from pathlib import Path

    from physbench.suites.planning import influence as infl
    from physbench.suites.planning import witness as wit
    from physbench.suites.planning.goals import goals_for
    from physbench.suites.planning.metrics import Case
    from physbench.suites.planning.openkbp import load_shipped, shipped_ids
    from physbench.suites.planning.tasks import load_witnesses

    ids = patients or shipped_ids()
    unknown = [p for p in ids if p not in shipped_ids()]
    if unknown:
        raise UserError(f"unknown patient {unknown[0]!r}; shipped: {shipped_ids()[0]} ... {shipped_ids()[-1]}")
    if out and not Path(out).parent.is_dir():
        raise UserError(f"--out: no folder {str(Path(out).parent)!r}")
    constants = _constants(dose_model)
    if dij:
        ids = infl.dij_patients(dij, ids)
        cases = [Case(p, infl.load_openkbp_opt(infl.dij_folder(dij, p.id), p)) for p in (load_shipped(i) for i in ids)]
    else:
        cases = [Case(p, lambda p=p: infl.influence_for(p, constants)) for p in (load_shipped(i) for i in ids)]
    found = wit.table(cases, goals_for)
    shipped = load_witnesses()
    rows = {pid: {k: r[k] for k in ("cord_gy", "limit_gy", "min_margin", "solves")} | {"matches_shipped": shipped.get(pid) == r}
            for pid, r in found["patients"].items()}
    if out:
        target = Path(out)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(found, f, indent=1)
            os.replace(tmp, target)  # nothing half-written
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    lines = [f"{pid}: cord {r['cord_gy']:.2f} Gy, limit {r['limit_gy']:g} Gy, margin {r['min_margin']:.4f} Gy, "
             f"{'matches' if r['matches_shipped'] else 'DIFFERS FROM'} the shipped witness" for pid, r in rows.items()]
    lines += [f"{pid}: no witness ({why})" for pid, why in found["no_witness"].items()]
    _emit({"patients": rows, "no_witness": found["no_witness"], "written": out}, as_json, "\n".join(lines))


@planning_app.command("beam-data")
def beam_data(dose_model: str = typer.Option("default", "--dose-model", help=DOSE_MODEL_HELP),
              as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The dose model's 6 MV beam data in water beside published ranges: d_max, PDD(10), TPR(10),
    TPR20/10, the 80-20 % penumbra at 10 cm (of the whole model and of the primary kernel alone) and
    the dose 3 cm outside the field edge."""
    from physbench.suites.planning.beam_data import measure

    m = measure(c=_constants(dose_model))
    pub = m["published_6mv"]
    rng = lambda k: f"{pub[k][0]:g}-{pub[k][1]:g}"  # noqa: E731
    pen, out = m["penumbra_80_20_mm"], m["out_of_field_3cm_pct"]
    extra = " with scatter and leaf transmission" if m["beam_component"] else ""
    lines = [f"model {m['model']}{extra}, voxel {' x '.join(f'{v:g}' for v in m['voxel_mm'])} mm, node step "
             f"{'x'.join(map(str, m['node_step']))}; 10 x 10 cm field, one beam, water (published 6 MV in brackets)",
             f"d_max {m['d_max_mm']:g} mm [{rng('d_max_mm')}]",
             f"PDD(10) at SSD 100 cm {m['pdd10_pct']:g} % [{rng('pdd10_pct')}]",
             f"TPR(10) {m['tpr_10']:g} [{rng('tpr_10')}], TPR20/10 {m['tpr20_10']:g} [{rng('tpr20_10')}]",
             f"80-20 % penumbra at 10 cm: {pen['leaf_travel']:g} mm along leaf travel, {pen['across_leaves']:g} mm "
             f"across leaves, {pen['kernel']:g} mm of the primary kernel alone [{rng('penumbra_80_20_mm')}]",
             f"dose 3 cm outside the 50 % edge at 10 cm: {out['leaf_travel']:g} % / {out['across_leaves']:g} % "
             f"of the central axis [{rng('out_of_field_3cm_pct')}]"]
    _emit(m, as_json, "\n".join(lines))


@planning_app.command("mcp")
def mcp(task: str = typer.Argument(..., help="The task's id, e.g. planning/overlap/pt_258 (never shown to the agent)."),
        record: Optional[str] = typer.Option(None, "--record", help="Append the calls to this replay file "
                                             "(grade it with eval planning --system agent --model replay:FILE).")) -> None:
    """Serve one task's harness as an MCP server on stdin/stdout (needs the optional mcp package)."""
    from physbench.suites.planning.mcp_server import serve

    serve(task, record)
