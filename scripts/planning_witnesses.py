"""Search a feasible witness for every shipped patient with a spinal cord and store it in the package.

For each patient: build (or read from the cache) the pencil-beam dose influence, run the
witness search (physbench.suites.planning.witness.find), re-check the plan from its float32
weights against every hard goal with the tightened cord limit, and record it in
src/physbench/suites/planning/data/witnesses.json with the influence's content hash. A patient
without a witness is recorded with the reason. Records of other patients are kept, so the run
can be split:

    .venv/bin/python scripts/planning_witnesses.py [pt_241 pt_242 ...]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from physbench.suites.planning import dose_model, influence, openkbp, witness
from physbench.suites.planning.goals import goals_for
from physbench.suites.planning.metrics import Case

OUT = Path(__file__).resolve().parents[1] / "src/physbench/suites/planning/data/witnesses.json"


def main(argv: list[str]) -> int:
    ids = argv or openkbp.shipped_ids()
    store = json.loads(OUT.read_text()) if OUT.is_file() else {}
    store.setdefault("model", dose_model.MODEL_VERSION)
    patients, failed = store.setdefault("patients", {}), store.setdefault("no_witness", {})
    for pid in ids:
        p = openkbp.load_shipped(pid)
        if not p.has(witness.CORD):
            failed[pid] = "no spinal cord"
            patients.pop(pid, None)
            continue
        t0 = time.perf_counter()
        case = Case(p, influence.influence_for(p))
        found = witness.find(case, goals_for(p))
        dt = time.perf_counter() - t0
        if found is None:
            failed[pid] = "the search found no plan meeting every hard goal"
            patients.pop(pid, None)
            print(f"{pid}: no witness ({dt:.1f} s)", flush=True)
        else:
            failed.pop(pid, None)
            patients[pid] = {"influence_hash": case.influence.content_hash, "model": dose_model.MODEL_VERSION,
                             "n_beamlets": case.influence.n_beamlets, "cord_gy": round(found.cord_gy, 4),
                             "limit_gy": found.limit_gy, "min_margin": found.check["min_margin"],
                             "hard_goals": sum(1 for g in found.check["goals"]), "solves": found.solves,
                             "weights_b64": witness.encode_weights(found.w)}
            print(f"{pid}: cord {found.cord_gy:.2f} Gy -> limit {found.limit_gy:.1f} Gy, min margin "
                  f"{found.check['min_margin']:.3f} Gy, {found.solves} solves, {dt:.1f} s", flush=True)
        store["patients"] = dict(sorted(patients.items(), key=lambda kv: int(kv[0][3:])))
        store["no_witness"] = dict(sorted(failed.items(), key=lambda kv: int(kv[0][3:])))
        OUT.write_text(json.dumps(store, indent=1, sort_keys=False) + "\n")
    print(f"{len(store['patients'])} witnesses, {len(store['no_witness'])} patients without one")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
