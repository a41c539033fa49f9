"""The package's top level stays light: the executor's warm parent imports it before every fork."""

import subprocess
import sys

import physbench


def test_version_is_read_on_first_use():
    assert isinstance(physbench.__version__, str) and physbench.__version__


def test_the_executor_parent_modules_do_not_pull_in_metadata_or_sockets():
    code = ("import sys, physbench.executor.zygote, physbench.executor.child; "
            "print(sorted(m for m in ('importlib.metadata', 'email', 'zipfile') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-s", "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
