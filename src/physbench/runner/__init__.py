"""The runner: scheduling with bounded concurrency, retries, grading off the event loop, the run's store."""

from physbench.runner.evaluate import EvalConfig, EvalResult, evaluate
from physbench.runner.records import AttemptRecord
from physbench.runner.results import Result, RunReader, open_run
from physbench.runner.store import RunStore

__all__ = ["AttemptRecord", "EvalConfig", "EvalResult", "Result", "RunReader", "RunStore", "evaluate", "open_run"]
