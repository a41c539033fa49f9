"""The viewer's Markdown renderer finishes on every reply (issue 33, item 8): a line starting with
`|` and no table rule after it once looped for ever, and a long line after a `| ... |` line made a
regular expression backtrack for minutes. Checked in node, a real JavaScript engine, with fixed
hostile replies (200,000 characters on one line among them) and 300 seeded random ones."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
VIEWER_JS = Path(__file__).resolve().parents[2] / "src" / "physbench" / "report" / "viewer.js"
CHECK = Path(__file__).resolve().parent / "viewer_markdown_check.js"
HANG_S = 300  # not a timing: a renderer that hangs never finishes; this one takes seconds


@pytest.mark.skipif(NODE is None, reason="node (a JavaScript engine) is not installed")
def test_every_reply_renders_and_the_renderer_stops() -> None:
    try:
        done = subprocess.run([NODE, str(CHECK), str(VIEWER_JS), "33", "300"], capture_output=True, text=True,
                              timeout=HANG_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the viewer's Markdown renderer did not finish {HANG_S} s of replies: it hangs on one")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["rendered"] == result["fixed"] + 300
    assert result["lost"] == []
