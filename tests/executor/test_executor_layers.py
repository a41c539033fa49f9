"""Isolation layers: reported, verified by probes where the kernel has them, skipped (with the
reason) where it does not; programs stay contained with the kernel layers switched off."""

from __future__ import annotations

import pytest

from physbench.executor import Executor, ExecutorError, Limits
from physbench.executor.layers import EXPECTED_BLOCKS, KERNEL_LAYERS, REQUIRED

PYTHON_LAYERS = ("static_checks", "proxy_modules", "builtins_allowlist", "runtime_guards", "audit_hook",
                 "line_cap", "rlimits", "wall_clock_kill", "fork_server")


def test_every_layer_is_reported(strict_ex):
    layers = strict_ex.layers
    for name in PYTHON_LAYERS:
        assert layers[name]["active"] is True
    for name in KERNEL_LAYERS:
        assert isinstance(layers[name]["active"], bool) and layers[name]["detail"]


@pytest.mark.parametrize("layer", KERNEL_LAYERS)
def test_active_kernel_layer_stops_what_it_must(strict_ex, layer):
    info = strict_ex.layers[layer]
    if not info["active"]:
        pytest.skip(f"{layer} not available on this host: {info['detail']}")
    assert set(EXPECTED_BLOCKS[layer]) <= set(info["blocks"]), info


def test_scientific_pool_reports_the_same_kernel_layers(strict_ex, scientific_ex):
    # numpy/scipy/sympy start no threads in the warm parent (fork is only safe single-threaded)
    assert scientific_ex.layers["fork_server"]["active"], scientific_ex.layers["fork_server"]
    for layer in KERNEL_LAYERS:
        assert scientific_ex.layers[layer]["active"] == strict_ex.layers[layer]["active"]


@pytest.mark.parametrize("layer", REQUIRED["strict"])
def test_a_missing_required_layer_refuses_to_run(monkeypatch, layer):
    """Fail closed: with one required kernel layer simulated missing, no program runs, and the
    refusal is one line naming the layer and the explicit option."""
    monkeypatch.setenv("PHYSBENCH_SANDBOX_DISABLE", layer)
    with pytest.raises(ExecutorError) as info:
        Executor("strict", workers=1)
    message = str(info.value)
    assert layer in message and "allow_missing_layers" in message and "\n" not in message
    with pytest.raises(ExecutorError):  # naming another layer does not cover this one
        Executor("strict", workers=1, allow_missing_layers=[l for l in KERNEL_LAYERS if l != layer][:1])
    with Executor("strict", workers=1, allow_missing_layers=[layer]) as ex:
        assert ex.layers[layer]["active"] is False
        assert ex.run("def solve():\n    return 6 * 7\n").value == 42


def test_scientific_refuses_without_a_required_layer(monkeypatch):
    monkeypatch.setenv("PHYSBENCH_SANDBOX_DISABLE", "namespaces")
    with pytest.raises(ExecutorError, match="namespaces"):
        Executor("scientific", workers=1)


def test_unknown_layer_names_in_the_option_are_refused():
    with pytest.raises(ValueError):
        Executor("strict", workers=1, allow_missing_layers=["selinux"])


def test_contained_without_kernel_layers(monkeypatch, tmp_path):
    """Where the kernel layers are missing (and the caller knowingly allowed it), the Python
    layers alone still contain programs."""
    monkeypatch.setenv("PHYSBENCH_SANDBOX_DISABLE", ",".join(KERNEL_LAYERS))
    hostile = {
        "import os\ndef solve():\n    return os.listdir('/')\n": "rejected",
        f"def solve():\n    open('{tmp_path}/x', 'w')\n": "rejected",
        "def solve():\n    return ().__class__.__base__\n": "rejected",
        "def solve():\n    while True:\n        pass\n": "line_limit",
        "def solve():\n    return [0] * 10 ** 9\n": "memory",
    }
    with Executor("strict", workers=1, allow_missing_layers=True) as ex:
        for layer in KERNEL_LAYERS:
            assert ex.layers[layer]["active"] is False
            assert "disabled" in ex.layers[layer]["detail"]
        for source, status in hostile.items():
            assert ex.run(source, limits=Limits(wall_s=2)).status == status
        assert ex.run("def solve():\n    return 6 * 7\n").value == 42
    assert list(tmp_path.iterdir()) == []


def test_landlock_read_roots_are_narrow():
    """The program may read the standard library and the policy's packages, not the virtual
    environment as a whole nor the project's source tree."""
    import sys
    from pathlib import Path

    from physbench.executor.layers import read_roots

    import numpy  # noqa: F401  (read_roots lists the packages that are loaded)

    roots = read_roots("scientific")
    src = str(Path(__file__).resolve().parents[2] / "src")
    assert not any(src.startswith(r) or r.startswith(src) for r in roots), roots
    assert sys.prefix not in roots or sys.prefix == sys.base_prefix
    assert any(r.endswith("numpy") for r in roots)
    assert not any(r.endswith("numpy") for r in read_roots("strict"))
