"""Statistics for benchmark runs: exact intervals, Newcombe differences, exact tests, letters, bootstraps,
paired gaps over cases and seeds, intraclass correlation, agreement across seeds, weighted aggregates.

Every function names its method and source in its docstring and returns a small named tuple that
also unpacks as a plain one, e.g. `lo, hi = clopper_pearson(148, 150)`,
`d, lo, hi = youden(75, 75, 1, 75)`. Bad counts raise ValueError with one readable line.
"""

from physbench.stats.agreement import Consistency, RepeatRuns, cohen_kappa, consistency, repeat_runs
from physbench.stats.alarms import RealAlarms, alarm_share, real_alarms
from physbench.stats.bootstrap import case_bootstrap, cluster_bootstrap, patient_bootstrap
from physbench.stats.differences import newcombe_diff, youden
from physbench.stats.gaps import (
    GapRow, PairedGap, paired_case_bootstrap, paired_cluster_bootstrap, paired_differences, paired_gaps,
    paired_sign_flip, seed_averaged_differences,
)
from physbench.stats.icc import ICC, design_effect, effective_n, icc_oneway
from physbench.stats.letters import compact_letters, letters_from_pvalues
from physbench.stats.paired import PairedCounts, delta_youden, mover_diff, newcombe_paired_diff
from physbench.stats.permutation import SignFlip, sign_flip, sign_flip_test
from physbench.stats.proportions import clopper_pearson, exact_proportion, wilson
from physbench.stats.repeats import SeedAccuracy, SeedAgreement, seed_accuracy, seed_agreement
from physbench.stats.results import Diff, Estimate, Interval
from physbench.stats.tests_exact import StratifiedTest, holm, mcnemar_exact, stratified_exact_test
from physbench.stats.weighting import (
    BootEstimate, DecisionAccuracy, FamilyAccuracy, TaskTable, decision_accuracy, decision_accuracy_difference,
)

__all__ = [
    "BootEstimate", "Consistency", "DecisionAccuracy", "Diff", "Estimate", "FamilyAccuracy", "GapRow", "ICC",
    "Interval", "PairedCounts", "PairedGap", "RealAlarms", "RepeatRuns", "SeedAccuracy", "SeedAgreement",
    "SignFlip", "StratifiedTest", "TaskTable",
    "alarm_share", "case_bootstrap", "clopper_pearson", "cluster_bootstrap", "cohen_kappa", "compact_letters",
    "consistency", "decision_accuracy", "decision_accuracy_difference", "delta_youden", "design_effect",
    "effective_n", "exact_proportion", "holm", "icc_oneway", "letters_from_pvalues", "mcnemar_exact",
    "mover_diff", "newcombe_diff", "newcombe_paired_diff", "paired_case_bootstrap", "paired_cluster_bootstrap",
    "paired_differences", "paired_gaps", "paired_sign_flip", "patient_bootstrap", "real_alarms", "repeat_runs",
    "seed_accuracy", "seed_agreement", "seed_averaged_differences", "sign_flip", "sign_flip_test",
    "stratified_exact_test", "wilson", "youden",
]
