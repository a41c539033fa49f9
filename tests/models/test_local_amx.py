"""The local model's loader turns llama.cpp's extra weight buffers off on AMX CPUs (their AMX
matrix product crashes there) and leaves them on elsewhere."""

from types import SimpleNamespace

import pytest

from physbench.models import local


class _Params(SimpleNamespace):
    pass


def _module() -> SimpleNamespace:
    return SimpleNamespace(llama_model_default_params=lambda: _Params(use_extra_bufts=True))


@pytest.mark.parametrize("amx", [True, False])
def test_extra_buffers_are_off_only_on_amx_cpus(monkeypatch: pytest.MonkeyPatch, amx: bool) -> None:
    monkeypatch.setattr(local, "_has_amx", lambda: amx)
    module = _module()
    original = module.llama_model_default_params
    with local._no_extra_buffers_on_amx(module):
        assert module.llama_model_default_params().use_extra_bufts is (not amx)
    assert module.llama_model_default_params is original  # restored after loading
