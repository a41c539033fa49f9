"""The attack corpus (tests/executor/attacks/*.txt) is contained.

Every hostile program is rejected or stopped with an expected status, writes no file, returns
no secret from the caller's environment, and ends within its wall-clock limit plus 1 s.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from physbench.executor import STATUSES, Limits

SECRET_NAME = "PHYSBENCH_TEST_SECRET"  # set by conftest.py before the pools start

ATTACKS = Path(__file__).parent / "attacks"
STOPPED = ("timeout", "memory", "line_limit", "output_limit")
LIMITS = Limits(wall_s=2.0, cpu_s=2.0)


def load_corpus() -> list[tuple[str, str, str, tuple[str, ...], str]]:
    """(category, name, policy, acceptable statuses, source) for every program in the corpus."""
    cases = []
    for path in sorted(ATTACKS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        policy = lines[0].split(":", 1)[1].strip()
        header, body = None, []
        for line in lines[1:] + ["### end | end"]:
            if line.startswith("### "):
                if header:
                    name, expect = (p.strip() for p in header[4:].split("|", 1))
                    statuses = tuple(s for e in expect.split("|") for s in (STOPPED if e.strip() == "stopped"
                                                                           else (e.strip(),)))
                    cases.append((path.stem, name, policy, statuses, "\n".join(body) + "\n"))
                header, body = line, []
            else:
                body.append(line)
    return cases


CORPUS = load_corpus()


def test_corpus_is_large_and_well_formed():
    assert len(CORPUS) >= 60
    assert len({c[0] for c in CORPUS}) >= 12
    for category, name, policy, statuses, source in CORPUS:
        assert policy in ("strict", "scientific"), (category, name)
        assert set(statuses) <= set(STATUSES), (category, name, statuses)
        assert source.strip(), (category, name)


def _run_category(ex, cases, tmp_path, secret):
    canaries, jobs = [], []
    for i, (_, name, _, _, source) in enumerate(cases):
        canary = tmp_path / f"canary-{i}"
        canary.mkdir()
        canaries.append(canary)
        jobs.append((source.replace("CANARY_DIR", str(canary)).replace("SECRET_NAME", SECRET_NAME), ()))
    start = time.monotonic()
    results = ex.map(jobs, limits=LIMITS)
    elapsed = time.monotonic() - start
    failures = []
    for (category, name, _, statuses, _), canary, r in zip(cases, canaries, results):
        problems = []
        if r.status not in statuses:
            problems.append(f"status {r.status} not in {statuses} ({r.error})")
        if list(canary.iterdir()):
            problems.append(f"wrote {[p.name for p in canary.iterdir()]}")
        if secret in json.dumps(r.to_dict()):
            problems.append("leaked the secret")
        if r.wall_s > LIMITS.wall_s + 1.0:
            problems.append(f"ran {r.wall_s:.2f} s")
        if problems:
            failures.append(f"{category}/{name}: {'; '.join(problems)}")
    assert not failures, "\n".join(failures)
    # two workers: the whole batch cannot take longer than its programs' limits in sequence
    assert elapsed <= len(cases) * (LIMITS.wall_s + 1.0)


@pytest.mark.parametrize("category", sorted({c[0] for c in CORPUS if c[2] == "strict"}))
def test_strict_attacks_are_contained(category, strict_ex, tmp_path, secret):
    _run_category(strict_ex, [c for c in CORPUS if c[0] == category], tmp_path, secret)


def test_scientific_attacks_are_contained(scientific_ex, tmp_path, secret):
    _run_category(scientific_ex, [c for c in CORPUS if c[2] == "scientific"], tmp_path, secret)


def test_strict_attacks_also_contained_under_scientific(scientific_ex, tmp_path, secret):
    """The scientific pool has more modules; the strict corpus must still be contained there."""
    cases = [c for c in CORPUS if c[2] == "strict" and c[0] in ("subclass_walks", "frames", "builtins",
                                                                   "module_leaks", "format_strings")]
    _run_category(scientific_ex, cases, tmp_path, secret)


def test_secret_is_not_in_the_sandbox_environment(strict_ex, secret):
    """The zygote was started with a scrubbed environment: the secret is not even there to steal."""
    for pid in strict_ex.worker_pids():
        environ = Path(f"/proc/{pid}/environ").read_bytes()
        assert secret.encode() not in environ
        assert SECRET_NAME.encode() not in environ
    assert os.environ[SECRET_NAME] == secret

