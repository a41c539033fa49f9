"""Help text tidied once for every command: an example for each, metavars that name what is asked
(`--limit N`, not `<int>`), and summaries in the command lists that are whole first sentences rather
than cut with "...". Kept apart from the commands so that each command module stays as it is."""

from __future__ import annotations

from typing import Any

# one runnable example per command (every one runs offline; endpoint ones against `physbench mock-server`)
EXAMPLES: dict[str, str] = {
    "grade": "physbench grade --reference '1.018 cGy/MU' --band 0.5% response.txt",
    "eval": "physbench eval medphys --model oracle --limit 30 --run-dir runs/oracle",
    "report": "physbench report runs/oracle runs/other --out report/",
    "view": "physbench view runs/oracle",
    "demo": "physbench demo --limit 30",
    "export": "physbench export medphys --out medphys-dev.jsonl",
    "export-results": "physbench export-results runs/oracle --out results.jsonl",
    "mock-server": "physbench mock-server --port 8011",
    "medphys list": "physbench medphys list --json",
    "medphys item": "physbench medphys item mu 3 1 --kind worksheet_check",
    "medphys solve": "physbench medphys solve tg51 3 --params tg51.json",
    "medphys split": "physbench medphys split dev --json",
    "medphys commit": "physbench medphys commit --key-file secret.key",
    "medphys verify-commitment": "physbench medphys verify-commitment SHA256 --key-file secret.key",
    "medphys targeted": "physbench medphys targeted mu 3 --mode isocentric_isq_omitted --n 20",
    "medphys audit-cues": "physbench medphys audit-cues",
    "medphys release": "physbench medphys release --key-file secret.key --out release/ --run runs/mine",
    "medphys verify": "physbench medphys verify --draws 200",
    "sandbox run": "physbench sandbox run program.py --policy strict --json",
    "sandbox layers": "physbench sandbox layers",
    "planning patients": "physbench planning patients",
    "planning certificates": "physbench planning certificates",
    "planning tasks": "physbench planning tasks",
    "planning plan": "physbench planning plan PATIENT",
    "planning run": "physbench planning run --system controller",
    "planning witnesses": "physbench planning witnesses",
    "research validate": "physbench research validate src/physbench/suites/research/problems",
    "research list": "physbench research list",
    "research show": "physbench research show PROBLEM",
    "research check": "physbench research check PROBLEM",
    "research grade": "physbench research grade problems/kepler_orbit.json --step checkpoint-1 --responses replies.jsonl",
    "clincalc calculators": "physbench clincalc calculators --json",
    "clincalc compute": "physbench clincalc compute 6 --entities \"{'weight': [68, 'kg'], 'height': [182, 'cm']}\"",
    "clincalc audit": "physbench clincalc audit --data one-shot",
    "clincalc synth": "physbench clincalc synth --out synth.csv",
    "clincalc differential": "physbench clincalc differential --official calculator_implementations --edges",
    "clincalc replay-from-official": "physbench clincalc replay-from-official outputs.jsonl --out replies.jsonl",
    "research import": "physbench research import CritPt/data --out critpt-problems",
    "research submission": "physbench research submission runs/critpt --out submission.json",
    "research submit": "physbench research submit runs/critpt --api-key-env CRITPT_API_KEY",
    "planning beam-data": "physbench planning beam-data --json",
    "planning mcp": "physbench planning mcp TASK --record replies.jsonl",
}

# what an option's value is, where its upper-cased name would say less
METAVARS: dict[str, str] = {
    "limit": "N", "repeats": "K", "concurrency": "C", "run_dir": "DIR", "model": "SPEC", "base_url": "URL",
    "api_key_env": "VAR", "temperature": "T", "max_tokens": "N", "timeout": "SECONDS", "max_attempts": "N",
    "retry_delay": "SECONDS", "max_retry_after": "SECONDS", "seed": "N", "price_table": "FILE", "key_file": "FILE",
    "data": "FILE", "library_subset": "FILE", "option": "NAME=VALUE", "out": "PATH", "port": "PORT",
    "params": "FILE", "config": "FILE", "reply": "TEXT", "label": "NAME", "draws": "N", "per_calculator": "N",
    "benchmark_version": "VERSION", "responses": "FILE", "entities": "TEXT", "doc": "FILE", "problems": "DIR",
    "official": "DIR", "url": "URL", "record": "FILE",
}


# help texts start with a capital, except where they start with a literal value (`dev, test...`)
PROSE_STARTS = frozenset({"a", "an", "the", "print", "problem", "one", "only", "which", "where", "what"})


def _capitalised(text: str) -> str:
    first = text.split(" ", 1)[0].lower()
    return text[:1].upper() + text[1:] if first in PROSE_STARTS and text[:1].islower() else text


def _sentence(text: str) -> str:
    """The first sentence of a help text, whole (up to '. ' or the end of its first paragraph)."""
    para = " ".join(text.strip().split("\n\n", 1)[0].split())
    cut = para.find(". ")
    return para if cut < 0 else para[: cut + 1]


def tidy(command: Any, path: tuple[str, ...] = ()) -> None:
    """Apply the examples, metavars, capitals and whole summaries to `command` and everything under it."""
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = _capitalised(param.help)
        if getattr(param, "param_type_name", "") == "argument":
            param.metavar = name = (param.name or "value").upper()
            usage = (name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else "")
            # typer writes `{name}` in the usage line and `<str>` beside the name: both replaced here
            param._usage_display_name = lambda usage=usage: usage
            param.display_type_rich = lambda ctx: None
        elif getattr(param, "param_type_name", "") == "option" and not getattr(param, "is_flag", False) \
                and not getattr(param, "count", False) and param.name != "help":
            param.metavar = METAVARS.get(param.name or "", (param.name or "value").upper())
    key = " ".join(path)
    help_text = getattr(command, "help", None)
    if help_text:
        command.short_help = _sentence(help_text)
        example = EXAMPLES.get(key)
        if example and "Example" not in help_text:
            command.help = help_text.rstrip() + f"\n\nExample: {example}"
    for name, sub in (getattr(command, "commands", None) or {}).items():
        tidy(sub, (*path, name))
