"""CritPt's official grading server: a run's replies as its submission batch, and posting it.

The wire format is the official client's (CritPt repository, `critpt/evaluation/eval_client.py`):
`{"submissions": [{"problem_id", "generated_code", "model", "generation_config", "messages"}],
"batch_metadata": {...}}`, POSTed with the key in an `x-api-key` header; the server answers
aggregate metrics (`accuracy`, `timeout_rate`, `server_timeout_count`). It accepts only complete
batches (every official id of the set, in every repeat; README, "Grading") and 10 submissions a
day per account, so a batch with anything missing is refused here, before it costs one.
`generated_code` is the whole formatting reply, as the official generation sends it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from physbench.core.errors import UserError

OFFICIAL_URL = "https://artificialanalysis.ai/api/v2/critpt/evaluate"
RESULTS_FILE = "critpt_grading.jsonl"     # beside the run's store: one line per accepted submission
MAX_REPLY_BYTES = 1_000_000
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Batch:
    payload: dict[str, Any]
    missing: list[str]


def _belongs(label: str, step: str) -> bool:
    """A turn of `step`: `solve`/`format` for a challenge, `<step>:solve`/`<step>:format` for a checkpoint."""
    head, colon, _ = label.rpartition(":")
    return head == step if colon else step == "challenge"


def _messages(item: Any, turns: list[dict[str, Any]], step: str, prompt: str, fmt: str | None) -> list[dict]:
    """The step's conversation: the system prompt, the step's question as asked, then each of its
    turns, the formatting request before its reply."""
    out = [{"role": m.role, "content": m.content} for m in item.messages if m.role == "system"]
    out.append({"role": "user", "content": prompt})
    for t in turns:
        label = str(t.get("label") or "")
        if not _belongs(label, step):
            continue
        if label.endswith("format") and fmt:
            out.append({"role": "user", "content": fmt})
        out.append({"role": "assistant", "content": str(t.get("text") or "")})
    return out


def generation_config(manifest: Any) -> dict[str, Any]:
    """The official config keys, from the run's protocol and settings, plus physbench's own."""
    protocol = str(manifest.protocol)
    sampling = dict(manifest.sampling or {})
    return {"use_golden_for_prev_steps": protocol.startswith("checkpoints-oracle"), "parsing": False,
            "multiturn_with_answer": protocol == "checkpoints-oracle-multiturn",
            "use_python": protocol.startswith("agent"), "use_web_search": False,
            "physbench": {"protocol": protocol, "run_id": manifest.run_id,
                          **{k: v for k, v in sampling.items() if v is not None}}}


def build_batch(run_dir: Path) -> Batch:
    """The run's submission batch, and what it lacks (empty when complete)."""
    from physbench.runner.results import open_run
    from physbench.suites.research.suite import SUITE

    with open_run(run_dir) as reader:
        m = reader.manifest
        if m.suite != "research":
            raise UserError(f"{run_dir}: a {m.suite} run; submissions are for research runs")
        results = list(reader.results())
    options = {k: v for k, v in dict(m.options.get("item_options") or {}).items() if k in SUITE.item_options}
    options.setdefault("mode", SUITE.default_item_options(str(m.protocol).split(":")[0])["mode"])
    items = list(SUITE.items(m.split, **options))
    config = generation_config(m)
    by_key = {(r.item.id, r.repeat): r for r in results}
    rows: list[dict[str, Any]] = []
    missing: list[str] = []
    for repeat in range(m.repeats):
        for item in items:
            problem, steps = SUITE.steps_of(item)
            r = by_key.get((item.id, repeat))
            data = {str(s.get("id")): s for s in item.protocol_data.get("steps") or ()}
            stepped = {str(s.get("step")): s for s in ((r.answer or {}).get("steps") or ())} if r else {}
            for step in steps:
                if not step.official_id:
                    raise UserError(f"{run_dir}: problem {problem.id!r} step {step.id} has no official id: "
                                    "only problems imported from CritPt's release can be submitted")
                where = f"{step.official_id} (repeat {repeat})"
                if r is None:
                    missing.append(f"{where}: no graded attempt")
                    continue
                text = r.text if item.kind == "challenge" else (stepped.get(step.id) or {}).get("text")
                if not isinstance(text, str) or not text.strip():
                    missing.append(f"{where}: empty reply")
                    continue
                if item.kind == "challenge":
                    fmt, prompt = item.protocol_data.get("format"), item.messages[-1].content
                else:
                    own = data.get(step.id, {})
                    fmt = own.get("format")
                    prompt = own.get("alone") if m.protocol == "checkpoints-oracle" else own.get("ask")
                rows.append({"problem_id": step.official_id, "generated_code": text, "model": m.model_spec,
                             "generation_config": {**config, "epoch": repeat},
                             "messages": _messages(r.item, r.turns or [], step.id, str(prompt or ""), fmt)})
    meta = {"model": m.model_spec, "run_id": m.run_id, "repeats": m.repeats, "num_submissions": len(rows),
            "generator": f"physbench {m.package_version}", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S")}
    return Batch({"submissions": rows, "batch_metadata": meta}, missing)


def write_submission(run_dir: Path, out: Path) -> int:
    """Write the complete batch to `out` (nothing when incomplete: a UserError lists what is missing)."""
    batch = build_batch(run_dir)
    if batch.missing:
        shown = "; ".join(batch.missing[:10]) + (f"; and {len(batch.missing) - 10} more" if len(batch.missing) > 10 else "")
        raise UserError(f"submission refused: {len(batch.missing)} rows missing (the server takes complete "
                        f"batches only): {shown}")
    if not batch.payload["submissions"]:
        raise UserError(f"{run_dir}: the run holds no replies to submit")
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(batch.payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out)
    return len(batch.payload["submissions"])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
        raise UserError(f"the grading server redirected ({code}) to {str(newurl)[:200]}; not followed")


def _server_message(body: bytes) -> str:
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except (json.JSONDecodeError, RecursionError):
        return body.decode("utf-8", "replace").strip()[:300]
    if isinstance(data, dict):
        for key in ("error", "detail", "message"):
            if data.get(key):
                return str(data[key])[:300]
    return str(data)[:300]


def check_url(url: str) -> None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK):
        return
    raise UserError(f"--url {url[:200]}: the key is sent only over https (or plain http to this machine)")


def post_batch(payload: dict[str, Any], url: str, api_key: str, timeout_s: float = 7200.0) -> dict[str, Any]:
    """POST the batch; the server's metrics, or a UserError with its status and message."""
    check_url(url)
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"content-type": "application/json", "x-api-key": api_key})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=timeout_s) as resp:
            raw = resp.read(MAX_REPLY_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise UserError(f"the grading server refused the submission (HTTP {exc.code}): "
                        f"{_server_message(exc.read(MAX_REPLY_BYTES))}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UserError(f"cannot reach the grading server at {url[:200]}: {reason}") from None
    if len(raw) > MAX_REPLY_BYTES:
        raise UserError("the grading server's reply is larger than 1 MB; not read")
    try:
        metrics = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UserError("the grading server's reply is not JSON") from None
    if not isinstance(metrics, dict):
        raise UserError("the grading server's reply is not a JSON object")
    return metrics


def submit(run_dir: Path, url: str, api_key: str) -> dict[str, Any]:
    """Build the complete batch, post it, and append the returned metrics to the run's RESULTS_FILE."""
    batch = build_batch(run_dir)
    if batch.missing:
        raise UserError(f"submission refused: {len(batch.missing)} rows missing (the server takes complete "
                        f"batches only): " + "; ".join(batch.missing[:10]))
    metrics = post_batch(batch.payload, url, api_key)
    record = {"submitted_at": time.strftime("%Y-%m-%dT%H:%M:%S"), "url": url,
              "n_submissions": len(batch.payload["submissions"]), "metrics": metrics}
    with open(run_dir / RESULTS_FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return record
