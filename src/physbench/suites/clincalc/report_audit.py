"""The audit-group tables of the clincalc report (003_* Tables 12, 13), as JSON-ready data.

Table 11's formula audit (formula_audit.py) flags 16 calculators, four replaced by a guideline.
Table 12 recomputes each paired gap on three calculator sets (all, not replaced, no issue
identified) so a reader can see whether a comparison leans on the disputed formulas; Table 13 gives
each run's accuracy inside each audit group. Intervals resample calculators (10,000 draws, seeds kept
together), as the report's other gap tables do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

import numpy as np

from physbench.stats import cluster_bootstrap, paired_cluster_bootstrap, seed_accuracy
from physbench.suites.clincalc.formula_audit import audit_group
from physbench.suites.clincalc.report_stats import N_BOOT, STAT_SEED, ArmRuns, aligned, families, finite

# Table 12's calculator sets: name, label, the audit groups it keeps (None: every calculator)
GAP_SETS: tuple[tuple[str, str, tuple[str, ...] | None], ...] = (
    ("all", "all calculators", None),
    ("not_replaced", "not replaced by a guideline", ("other_concern", "no_issue")),
    ("no_issue", "no issue identified", ("no_issue",)),
)
# Table 13's groups: the paper's three, and the 16 flagged ones together
ACCURACY_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("replaced", "replaced by a guideline", ("replaced",)),
    ("other_concern", "another concern", ("other_concern",)),
    ("flagged", "flagged (either of the above)", ("replaced", "other_concern")),
    ("no_issue", "no issue identified", ("no_issue",)),
)


def restrict(a: ArmRuns, groups: tuple[str, ...] | None) -> ArmRuns:
    """The run on the cases whose calculator falls in one of `groups` (all of them for None)."""
    if groups is None:
        return a
    keep = [i for i, c in enumerate(a.calculators) if audit_group(c) in groups]
    return replace(a, cases=[a.cases[i] for i in keep], right=a.right[keep], outcomes=[a.outcomes[i] for i in keep],
                   calculators=[a.calculators[i] for i in keep], kinds=[a.kinds[i] for i in keep])


def _set_gap(a: ArmRuns, b: ArmRuns, groups: tuple[str, ...] | None) -> dict[str, Any] | None:
    """The gap A - B on one calculator set with its cluster interval (None below two shared calculators)."""
    pair = aligned(restrict(a, groups), restrict(b, groups))
    if pair is None or len(set(pair[2])) < 2:
        return None
    first, second, calcs = pair
    gap = paired_cluster_bootstrap(first, second, calcs, n_boot=N_BOOT, seed=STAT_SEED)
    return {"calculators": gap.clusters, "cases": gap.cases, "seeds": int(first.shape[1]), "gap": gap.gap,
            "cluster_ci": [gap.lo, gap.hi]}


def audit_gap_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 12: every pair of the gap table (same families, same order), on each of the three sets."""
    out = []
    for family, members in families(arms).items():
        for i, x in enumerate(members):
            for y in members[i + 1:]:
                a, b = arms[x], arms[y]
                for name, label, groups in GAP_SETS:
                    cell = _set_gap(a, b, groups)
                    if cell is not None:
                        out.append({"family": family, "first": a.label, "second": b.label, "first_arm": a.arm,
                                    "second_arm": b.arm, "set": name, "set_label": label, **cell,
                                    "n_boot": N_BOOT})
    return out


def _group_accuracy(a: ArmRuns, name: str, label: str, groups: tuple[str, ...]) -> dict[str, Any] | None:
    part = restrict(a, groups)
    observed = ~np.isnan(part.right)
    rows = observed.any(axis=1)
    if not rows.any() or not observed.any(axis=0).all():
        return None
    right, calcs = part.right[rows], [c for c, k in zip(part.calculators, rows) if k]
    acc = seed_accuracy(right)
    ci = None
    if len(set(calcs)) >= 2:
        est = cluster_bootstrap(right, calcs, n_boot=N_BOOT, seed=STAT_SEED)
        ci = [est.lo, est.hi]
    return {"run": a.label, "arm": a.arm, "model": a.model, "group": name, "group_label": label,
            "calculators": len(set(calcs)), "cases": int(rows.sum()), "seeds": acc.seeds, "accuracy": acc.mean,
            "seed_sd": finite(acc.sd), "cluster_ci": ci}


def audit_accuracy_rows(arms: Sequence[ArmRuns]) -> list[dict[str, Any]]:
    """Table 13: each run's accuracy (mean over seeds, seed SD, calculator-cluster interval) per audit group."""
    return [row for a in arms for name, label, groups in ACCURACY_GROUPS
            if (row := _group_accuracy(a, name, label, groups)) is not None]
