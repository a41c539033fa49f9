"""The pure-Python Clopper-Pearson interval agrees with scipy's Beta quantile, and `physbench eval`
no longer imports scipy.special (about 0.4 s) for its summary (issue 17: import only what the path needs)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scipy.special import betaincinv

from physbench.report.intervals import exact_interval


@pytest.mark.parametrize("n", [1, 2, 7, 30, 55, 600, 1201, 20000, 100000])
def test_the_interval_matches_scipy_to_1e_12(n):
    for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        lo, hi = exact_interval(k, n)
        assert lo == pytest.approx(0.0 if k == 0 else betaincinv(k, n - k + 1, 0.025), abs=1e-12)
        assert hi == pytest.approx(1.0 if k == n else betaincinv(k + 1, n - k, 0.975), abs=1e-12)


def test_known_values_and_bad_counts():
    assert exact_interval(0, 0) == (None, None)
    lo, hi = exact_interval(12, 12)
    assert hi == 1.0 and lo == pytest.approx(0.7353515, abs=1e-6)  # (0.025)^(1/12)
    with pytest.raises(ValueError):
        exact_interval(5, 3)


def test_an_eval_summary_does_not_import_scipy_special(tmp_path):
    code = ("import sys; from physbench.cli import main\n"
            "try:\n    main(['eval', 'medphys', '--model', 'oracle', '--limit', '1', '--run-dir', sys.argv[1], '--quiet'])\n"
            "except SystemExit:\n    pass\n"
            "print('scipy.special' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr
