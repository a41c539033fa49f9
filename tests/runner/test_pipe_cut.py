"""A cut pipe (Ctrl-C, issue 36 item 2): the frame being written is finished, later ones are dropped,
so the grading process never reads half a frame and the runner never waits for a backlog."""

from __future__ import annotations

import asyncio
import threading

from physbench.runner.pipe import FrameReceiver, FrameSender, make_pipe


def test_a_cut_finishes_the_frame_being_written_and_drops_the_rest():
    read_fd, write_fd = make_pipe()
    sender = FrameSender(write_fd)
    frames = [bytes([n]) * (3 << 20) for n in range(1, 5)]  # 3 MiB each: far more than the pipe holds

    async def queue() -> None:
        for frame in frames:
            sender.send(frame)  # the pipe takes part of the first; the rest waits in the buffer
        sender._unwatch()

    asyncio.run(queue())
    assert sender.pending > 3 * (3 << 20)
    got: list[bytes | None] = []
    reader = threading.Thread(target=lambda: got.extend(iter(FrameReceiver(read_fd).receive, None)))
    reader.start()
    sender.cut()
    sender.close()
    reader.join(10)
    assert got == [frames[0], b""]  # the first frame whole, then the end-of-run sentinel


def test_nothing_is_sent_after_a_cut():
    read_fd, write_fd = make_pipe()
    sender = FrameSender(write_fd)
    sender.send(b"one")
    sender.cut()
    sender.send(b"two")
    sender.close()
    receiver = FrameReceiver(read_fd)
    assert [receiver.receive(), receiver.receive(), receiver.receive()] == [b"one", b"", None]
