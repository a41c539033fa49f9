"""The pipe to the grading process: the event loop's side never blocks, and frames arrive whole and in order."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from physbench.runner.pipe import HEADER, FrameReceiver, FrameSender, PipeClosed, make_pipe
from physbench.runner.sink import WARM_UP_KINDS, warm_up


def _drain(fd: int, out: list[bytes | None]) -> None:
    receiver = FrameReceiver(fd)
    while True:
        frame = receiver.receive()
        out.append(frame)
        if not frame:
            break
    receiver.close()


@pytest.mark.timeout(30)
def test_sending_more_than_the_pipe_holds_inside_the_loop_returns_at_once_and_arrives_later() -> None:
    read_fd, write_fd = make_pipe()
    sender = FrameSender(write_fd)
    frames = [bytes([i % 251]) * (300_000 + i) for i in range(12)]  # ~3.6 MB: several times a pipe's capacity
    received: list[bytes | None] = []

    async def run() -> None:
        for frame in frames:  # nobody reads yet: a blocking write would hang here
            sender.send(frame)
        assert sender.pending > 0
        reader = threading.Thread(target=_drain, args=(read_fd, received))
        reader.start()
        while sender.pending:  # the loop writes the rest as the pipe empties
            await asyncio.sleep(0.001)
        sender.close()
        await asyncio.get_running_loop().run_in_executor(None, reader.join)

    asyncio.run(run())
    assert received[:-1] == frames and received[-1] == b""  # every frame whole, in order, then the sentinel


def test_outside_an_event_loop_a_send_waits_until_written() -> None:
    read_fd, write_fd = make_pipe()
    received: list[bytes | None] = []
    reader = threading.Thread(target=_drain, args=(read_fd, received))
    reader.start()
    sender = FrameSender(write_fd)
    sender.send(b"x" * 2_000_000)
    assert sender.pending == 0
    sender.close()
    reader.join(30)
    assert received == [b"x" * 2_000_000, b""]


def test_a_frame_cut_off_by_a_dying_sender_is_not_delivered() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, HEADER.pack(3) + b"abc" + HEADER.pack(10) + b"half")
    os.close(write_fd)
    receiver = FrameReceiver(read_fd)
    assert receiver.receive() == b"abc"
    assert receiver.receive() is None
    receiver.close()


def test_a_closed_receiver_is_a_pipe_closed_error_not_a_signal_or_a_hang() -> None:
    read_fd, write_fd = make_pipe()
    os.close(read_fd)
    sender = FrameSender(write_fd)
    with pytest.raises(PipeClosed):
        sender.send(b"batch")
    with pytest.raises(PipeClosed):
        sender.send(b"another")
    with pytest.raises(PipeClosed):
        sender.close()


class _Counting:
    def __init__(self, fail: bool = False) -> None:
        self.graded: list[str] = []
        self.fail = fail

    def grade(self, item, answer):
        self.graded.append(item.kind)
        if self.fail:
            raise ValueError("a broken grader")
        return None


def test_warm_up_grades_once_per_kind_and_swallows_a_grader_failure(suite) -> None:
    items = {item.id: item for item in suite.items("dev")}
    kinds = list(dict.fromkeys(item.kind for item in items.values()))
    counting = _Counting()
    warm_up(counting, items)
    assert counting.graded == kinds[:WARM_UP_KINDS] and len(kinds) > 1
    failing = _Counting(fail=True)
    warm_up(failing, items)  # does not raise: the failure is recorded later, on a real answer
    assert failing.graded == kinds[:WARM_UP_KINDS]


@pytest.mark.timeout(60)
def test_a_run_refused_after_the_early_fork_leaves_no_grading_process(tmp_path) -> None:
    """The grading process is forked before the model and store are made; a run that is refused
    then (here: the run directory is a file) ends it, instead of leaving it waiting on its pipe."""
    import multiprocessing

    from physbench.core.errors import UserError
    from physbench.runner.evaluate import EvalConfig, evaluate

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(UserError):
        evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(blocker), quiet=True, grade_inline=False))
    assert [p for p in multiprocessing.active_children() if p.name == "physbench-grader"] == []


def test_a_forked_run_grades_and_stores_every_attempt(tmp_path, suite) -> None:
    from physbench.runner.evaluate import EvalConfig, evaluate
    from physbench.runner.results import open_run

    result = evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(tmp_path / "run"), quiet=True,
                                 grade_inline=False))
    n = len(list(suite.items("dev")))
    assert result.summary["n_done"] == n and result.summary["n_correct"] == n
    with open_run(tmp_path / "run") as reader:
        assert reader.count_done() == n


def test_with_a_grading_process_the_items_are_stored_by_it_not_by_the_event_loop(tmp_path, suite, monkeypatch):
    """Encoding and inserting thousands of items would hold up the first requests; the grading
    process does it before its first attempt row instead (the runner's own write_items is unused)."""
    import sqlite3

    from physbench.runner.evaluate import EvalConfig, evaluate
    from physbench.runner.store import RunStore

    def refuse(self, items):
        raise AssertionError("the runner wrote the items itself")

    monkeypatch.setattr(RunStore, "write_items", refuse)
    evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(tmp_path / "run"), quiet=True, grade_inline=False))
    conn = sqlite3.connect(tmp_path / "run" / "store.sqlite")
    stored = dict(conn.execute("SELECT item_id, item_json FROM items"))
    assert stored == {item.id: item.to_json() for item in suite.items("dev")}


def test_a_one_at_a_time_model_ends_the_early_grading_process_and_grades_inline(tmp_path, suite, monkeypatch):
    """The local model answers one request at a time, so its runs grade in the runner's process: the
    grading process forked before the model was known is ended, and every attempt is still stored."""
    import importlib
    import multiprocessing

    from physbench.models.scripted import OracleModel
    from physbench.runner.evaluate import EvalConfig, evaluate

    evaluate_module = importlib.import_module("physbench.runner.model_check")  # where the run's model is made

    class OneAtATime(OracleModel):
        max_concurrency = 1

    made = []

    def make(spec, suite_, options):
        made.append(OneAtATime(suite_))
        return made[-1]

    monkeypatch.setattr(evaluate_module, "make_model", make)
    result = evaluate(EvalConfig(suite="fixture", model="oracle", run_dir=str(tmp_path / "run"), quiet=True))
    assert made and result.summary["n_done"] == len(list(suite.items("dev")))
    assert [p for p in multiprocessing.active_children() if p.name == "physbench-grader"] == []
