"""`physbench eval SUITE`: run a model on a suite's items, store every graded attempt, print a summary."""

from __future__ import annotations

import json
from typing import Optional

import typer


INTERRUPTED_EARLY = "physbench: interrupted; re-run the same command to resume (what was stored is kept)"


def normalise_key(raw: bytes) -> bytes:
    """Key bytes from a key file: hex text (e.g. 64 hex digits and a newline) is decoded, anything else
    is taken as raw bytes (the same rule as `physbench medphys split --key-file`)."""
    text = raw.strip()
    if text and len(text) % 2 == 0 and all(c in b"0123456789abcdefABCDEF" for c in text):
        return bytes.fromhex(text.decode("ascii"))
    return raw


def _read_key(path: str) -> bytes:
    """The test-split key; an error names the file and why (never its content)."""
    from physbench.core.errors import UserError

    try:
        with open(path, "rb") as fh:
            key = fh.read(1 << 16)
    except OSError as exc:
        raise UserError(f"--key-file {path!r}: cannot read it ({(exc.strerror or type(exc).__name__).lower()})") from None
    if not key.strip():
        raise UserError(f"--key-file {path!r} is empty")
    return normalise_key(key)


def key_for(split: str, key_file: str | None) -> bytes | None:
    """The key of a keyed split from `--key-file`; the public dev split refuses one (before reading it)."""
    from physbench.core.errors import UserError
    from physbench.runner.eval_config import DEV_KEY_ERROR

    if key_file is None:
        return None
    if split == "dev":
        raise UserError(DEV_KEY_ERROR)
    return _read_key(key_file)


def parse_item_options(pairs: list[str] | None) -> tuple[tuple[str, str], ...]:
    """`NAME=VALUE` texts as pairs; a UserError for one without `=` or with an empty name."""
    from physbench.core.errors import UserError

    out = []
    for text in pairs or ():
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise UserError(f"--option takes NAME=VALUE, got {text[:60]!r}")
        out.append((name.strip(), value.strip()))
    return tuple(out)


def arm_options(arm: str | None, data: str | None, library_subset: str | None) -> tuple[tuple[str, str], ...]:
    """`--arm`, `--data` and `--library-subset` as the suite's item options of those names."""
    pairs = (("arm", arm), ("data", data), ("library_subset", library_subset))
    return tuple((name, value) for name, value in pairs if value is not None)


def summary_lines(summary: dict, status: str, wall_s: float, attempted: int, skipped: int,
                  reason: str | None = None) -> list[str]:
    """The short text summary printed at the end of a run."""
    from physbench.report.markdown import interval_text
    from physbench.report.summary import tokens_text

    s = summary
    lines = [f"run {s['run_id']} in {s['run_dir']}: {s['suite']} ({s['split']}) x {s['model']}",
             f"accuracy {interval_text(s)} % ({s['n_correct']}/{s.get('n_scored', s['n_done'])} "
             f"{'graded' if not s.get('n_failed') else 'attempts, failures counted as no credit'}, exact 95% CI)"
             + (f"; {s['n_ungraded']} ungraded (answer not known here)" if s.get("n_ungraded") else "")]
    if len(s.get("by_kind", [])) > 1:
        lines += [f"  {c['name']}: {interval_text(c)} % ({c['n_correct']}/{c['n']})" for c in s["by_kind"]]
    outcomes = ", ".join(f"{k} {v}" for k, v in s["outcomes"].items() if v)
    lines.append(f"outcomes: {outcomes or 'none'}; failed (no reply after retries, no credit): {s['n_errors']}")
    lines.append(f"tokens: {s['tokens']['total']:,} ({tokens_text(s)})")
    from physbench.runner.progress import rate_text

    rate = attempted / wall_s if wall_s > 0 else 0.0
    lines.append(f"wall time {wall_s:.1f} s: {attempted} attempts run now ({rate_text(rate)}/s), "
                 f"{skipped} already done")
    lines += endpoint_lines(s.get("endpoints") or [])
    if status == "stopped":
        lines.append(f"stopped: {reason or 'every recent request failed'}")
        lines.append("fix that cause, then re-run the same command to resume")
    elif status != "completed":
        lines.append("interrupted: re-run the same command to resume")
    elif s["n_errors"]:
        top = (s.get("errors") or [{"error": "unknown error", "count": s["n_errors"]}])[0]
        lines.append(f"{s['n_errors']} attempts got no response; the most frequent error: {top['error']}")
        lines.append("fix that cause, then re-run the same command: only the attempts without a response run again")
    return lines


def endpoint_lines(endpoints: list[dict]) -> list[str]:
    """One line per endpoint of a several-endpoint run, then one naming those that failed."""
    from physbench.models.endpoints import failing

    if not endpoints:
        return []
    lines = [f"  endpoint {e['url']}: {e['requests']} requests, {e['failures']} failed"
             + ("" if e["in_rotation"] else " (out of rotation at the end)") for e in endpoints]
    for e in failing(endpoints):
        lines.append(f"failing endpoint: {e['url']} (last error: {e['last_error']})")
    return lines


def register(app: typer.Typer) -> None:
    """Add `physbench eval`."""

    @app.command("eval")
    def eval_command(
        suite: str = typer.Argument(..., help="Suite name, e.g. medphys."),
        split: str = typer.Option("dev", "--split", help="Which items: dev (public), test or test-half (need --key-file), or "
                                                "targeted:GEN:LEVEL:MODE[:N[:START]] (medphys)."),
        model: Optional[str] = typer.Option(None, "--model",
                                            help="Who answers: openai/NAME (an OpenAI-compatible server), local "
                                                 "(the embedded model, the default), oracle, constant:TEXT, "
                                                 "replay:FILE, none (a protocol that calls no model), or medphys's "
                                                 "nocalc and mode:NAME."),
        base_url: Optional[list[str]] = typer.Option(None, "--base-url",
                                                     help="The OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else "
                                                          "https://api.openai.com/v1), e.g. http://127.0.0.1:8011/v1 "
                                                          "from `physbench mock-server`; repeat it to spread requests "
                                                          "over several servers, or give @FILE with one URL per line."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env",
                                                  help="Variable holding the API key (default OPENAI_API_KEY)."),
        limit: Optional[int] = typer.Option(None, "--limit", help="Only N items (a suite may spread them over its groups)."),
        repeats: Optional[int] = typer.Option(None, "--repeats",
                                              help="Attempts per item (default: the suite's, e.g. 5 for research; else 1)."),
        concurrency: int = typer.Option(16, "--concurrency",
                                        help="Attempts in flight at once (per endpoint with several --base-url)."),
        run_dir: Optional[str] = typer.Option(None, "--run-dir", help="Run directory; the same one resumes a run."),
        temperature: Optional[float] = typer.Option(None, "--temperature",
                                                    help="Sampling temperature (default: the model's)."),
        max_tokens: Optional[int] = typer.Option(None, "--max-tokens",
                                                 help="Output token limit (default: the model's)."),
        # reasoning settings (issue 37 item 5): openai/NAME only, recorded in the manifest's sampling
        reasoning_effort: Optional[str] = typer.Option(None, "--reasoning-effort",
                                                       help="minimal, low, medium or high: sent as the request's "
                                                            "reasoning_effort (default: the server's)."),
        thinking_budget: Optional[int] = typer.Option(None, "--thinking-budget",
                                                      help="Most thinking tokens per call: sent as thinking: "
                                                           "{type: enabled, budget_tokens: N}."),
        protocol: Optional[str] = typer.Option(None, "--protocol",
                                               help="How the model is asked: direct, two-step, checkpoints-self, "
                                                    "checkpoints-oracle, checkpoints-oracle-multiturn, program "
                                                    "(program:vote=K, program:repair=N), agent, or a suite's own "
                                                    "(planning: opengray-agent) (default: the suite's or the arm's, "
                                                    "else direct)."),
        arm: Optional[str] = typer.Option(None, "--arm", help="A clincalc arm (its prompts and its protocol): note-only, "
                                                              "note-only-gold, page-without-formula, open-book-arithmetic, "
                                                              "extract-solve-library, gold-solve-library, "
                                                              "extract-solve-recalled, formulate-solve-tree, program-solve, "
                                                              "program-solve-syntax, blind-program-solve, blind-vote, "
                                                              "blind-repair, blind-repair-vote, gold-first-program, "
                                                              "gold-first-arithmetic, extract-first-program, "
                                                              "extract-first-arithmetic, official-direct, "
                                                              "official-zero-shot, official-one-shot."),
        data: Optional[str] = typer.Option(None, "--data", help="A suite's data file: for clincalc a MedCalc-Bench "
                                                                "Verified CSV or parquet (your copy of the test split), "
                                                                "one-shot (shipped) or hub."),
        library_subset: Optional[str] = typer.Option(None, "--library-subset",
                                                     help="Restrict clincalc's library to the calculator ids "
                                                          "listed in FILE."),
        key_file: Optional[str] = typer.Option(None, "--key-file", help="Secret key of the test split."),
        timeout: float = typer.Option(600.0, "--timeout", help="Seconds per request before it counts as timed out."),
        max_attempts: Optional[int] = typer.Option(None, "--max-attempts",
                                                   help="Tries per model call on transient faults (default: the "
                                                        "suite's paper's policy, else 6)."),
        retry_delay: float = typer.Option(1.0, "--retry-delay", help="Base seconds of the exponential backoff."),
        max_retry_after: float = typer.Option(120.0, "--max-retry-after",
                                              help="Longest server Retry-After honoured, in seconds."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Base sampling seed, varied per item and repeat."),
        price_table: Optional[str] = typer.Option(None, "--price-table",
                                                  help="JSON of USD per million tokens by model."),
        label: Optional[str] = typer.Option(None, "--label",
                                            help="The run's name in reports and the viewer (default: the model "
                                                 "spec, cut to 32 characters)."),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
        quiet: bool = typer.Option(False, "--quiet", help="No progress display."),
        option: Optional[list[str]] = typer.Option(None, "--option",
                                                   help="A suite's item option NAME=VALUE (repeatable), "
                                                        "e.g. mode=checkpoints-oracle for research."),
        system: Optional[str] = typer.Option(None, "--system",
                                             help="The planning system: controller, arithmetic, interpreter or "
                                                  "agent (its protocol too; same as --option system=NAME)."),
    ) -> None:
        """Run a model on a suite; every graded attempt goes to the run's store at once."""
        from physbench.cli import interrupted

        try:
            from physbench.core.seeds import check_seed
            from physbench.runner.evaluate import EvalConfig, evaluate
        except KeyboardInterrupt:
            typer.echo(INTERRUPTED_EARLY, err=True)
            raise interrupted() from None
        if seed is not None:
            check_seed(seed)
        item_options = (arm_options(arm, data, library_subset) + parse_item_options(option)
                        + ((("system", system),) if system else ()))
        config = EvalConfig(suite=suite, split=split, model=model, protocol=protocol,
                            base_url=tuple(base_url) if base_url else None,
                            api_key_env=api_key_env, limit=limit, repeats=repeats, concurrency=concurrency,
                            run_dir=run_dir, temperature=temperature, max_tokens=max_tokens, timeout_s=timeout,
                            max_attempts=max_attempts, retry_delay_s=retry_delay, max_retry_after_s=max_retry_after,
                            seed=seed, price_table=price_table,
                            key=key_for(split, key_file), quiet=quiet,
                            item_options=item_options, label=label,
                            reasoning_effort=reasoning_effort, thinking_budget=thinking_budget)
        try:
            result = evaluate(config)
        except KeyboardInterrupt:  # before the run's store was opened, or after its summary was read
            typer.echo(INTERRUPTED_EARLY, err=True)
            raise interrupted() from None
        if as_json:
            out = dict(result.summary, status=result.status, wall_s=result.wall_s, attempted=result.attempted,
                       skipped=result.skipped, **({"stopped_because": result.reason} if result.reason else {}))
            from physbench.report.document import json_safe

            typer.echo(json.dumps(json_safe(out), indent=2, allow_nan=False))  # strict JSON: no bare Infinity
        else:
            for line in summary_lines(result.summary, result.status, result.wall_s, result.attempted, result.skipped,
                                      result.reason):
                typer.echo(line)
        if result.status == "stopped":
            raise typer.Exit(code=1)  # the endpoint failed every recent request: the run measured nothing more
        if result.status != "completed":
            raise interrupted()
        if result.summary["n_done"] == 0 and result.summary["n_errors"]:
            raise typer.Exit(code=1)  # nothing was graded: the run measured nothing
