"""Help that a newcomer can act on (issue 36, item 8): every command has an example, no type noise,
whole summaries, and `eval` lists the values of --protocol, --arm, --split and --model."""

from __future__ import annotations

import re

import typer

from physbench.cli import app
from physbench.cli.help_text import EXAMPLES, tidy


def _commands():
    root = typer.main.get_command(app)
    tidy(root)
    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
        else:
            out.append(" ".join(path))

    walk(root, ())
    return out


def test_every_command_has_an_example_and_no_type_noise(cli):
    commands = _commands()
    assert set(commands) <= set(EXAMPLES), sorted(set(commands) - set(EXAMPLES))
    for command in commands:
        r = cli(*command.split(), "--help")
        assert r.returncode == 0, command
        assert "Example: physbench " + command.split()[0] in r.stdout, command
        assert not re.search(r"<(?:str|int|float|list\[\w+\]|path)>", r.stdout), (command, r.stdout)
        assert not re.search(r"\{[A-Za-z_]+\}", r.stdout.splitlines()[0]), (command, r.stdout.splitlines()[0])


def test_the_command_lists_give_whole_first_sentences(cli):
    for args in ((), ("medphys",), ("clincalc",), ("research",), ("planning",), ("sandbox",)):
        r = cli(*args, "--help")
        listing = r.stdout.split("Commands:", 1)[1]
        assert "..." not in listing, (args, listing)


def test_eval_lists_the_values_of_its_choices(cli):
    from physbench.protocols import PROTOCOLS
    from physbench.suites.clincalc.arms import ARMS

    text = re.sub(r"\s+", "", cli("eval", "--help").stdout)  # the help is wrapped, at hyphens too
    for name in (*PROTOCOLS, *ARMS, "dev", "test-half", "oracle", "constant:TEXT", "replay:FILE", "nocalc",
                 "mode:NAME", "https://api.openai.com/v1"):
        assert name in text, name


def test_help_texts_start_with_a_capital_unless_they_start_with_a_value():
    from physbench.cli.help_text import PROSE_STARTS

    root = typer.main.get_command(app)
    tidy(root)
    lower = []

    def walk(cmd):
        for p in getattr(cmd, "params", ()):
            h = getattr(p, "help", None) or ""
            if h[:1].islower() and h.split(" ", 1)[0].lower() in PROSE_STARTS:
                lower.append(h)
        for sub in (getattr(cmd, "commands", None) or {}).values():
            walk(sub)

    walk(root)
    assert lower == []
