"""Arm settings of 003_* that were missing (issue 35, item 4) and the module layout (item 7): the note
budget as an option (`note_words`, Tables 6 and 20), Blind + repair + vote at five to eight calls a case,
the 22-calculator library stated as not public, and no import circles inside suites/clincalc."""

from __future__ import annotations

import ast
import json
import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

import physbench.suites.clincalc as clincalc_pkg
from physbench.core.errors import UserError
from physbench.suites.clincalc import prompts
from physbench.suites.clincalc.arm_protocols import make
from physbench.suites.clincalc.dataset import load_one_shot
from physbench.suites.clincalc.suite import SUITE

LONG = max(load_one_shot().rows, key=lambda r: len(r.patient_note.split()))  # a note of well over 250 words


def _item(arm: str, **options):
    return next(i for i in SUITE.items("dev", arm=arm, **options) if i.reference["calc_id"] == LONG.calculator_id)


def _words(n: int) -> str:
    return prompts.first_words(LONG.patient_note, n)


def test_note_words_sets_the_budget_of_the_note_only_and_extraction_prompts():
    assert len(LONG.patient_note.split()) > 300
    default, wide = _item("note-only"), _item("note-only", note_words=250)
    assert _words(120) in default.messages[1].content and _words(121) not in default.messages[1].content
    assert _words(250) in wide.messages[1].content and _words(251) not in wide.messages[1].content
    assert "first 250 words" in wide.protocol_data["clincalc"]["case"]           # what a reseeded call sends
    whole, capped = _item("extract-solve-library"), _item("extract-solve-library", note_words=250)
    assert LONG.patient_note in whole.messages[1].content
    assert _words(250) in capped.messages[1].content and _words(251) not in capped.messages[1].content
    recalled = _item("extract-solve-recalled", note_words=250)
    assert _words(251) not in recalled.protocol_data["clincalc"]["extraction"][1]
    assert recalled.params["note_words"] == 250 and SUITE.data_source()["note_words"] == 250
    gold = _item("note-only-gold", note_words=250).messages[1].content
    assert _words(250) in gold and "Variables (from the note)" in gold   # Table 20's 250-word arm with variables


@pytest.mark.parametrize("bad", ["0", "-3", "lots", "1e9"])
def test_a_bad_note_budget_is_refused(bad):
    with pytest.raises(UserError, match="note_words"):
        SUITE.items("dev", arm="note-only", note_words=bad)


def _run(arm: str, reply: str) -> list[str]:
    item = next(i for i in SUITE.items("dev", arm=arm) if i.reference["calc_id"] == 6)
    labels: list[str] = []

    async def ask(messages, label="", **params):
        labels.append(label)
        return SimpleNamespace(text=reply, finish_reason="stop", usage={}, latency=0.0)

    asyncio.run(make(arm).run(item, ask))
    return labels


def test_blind_repair_vote_makes_at_most_eight_calls():
    failing = _run("blind-repair-vote", "I cannot write code for this.")
    assert len(failing) == 8 and sum(":repair-" in label for label in failing) == 3
    assert [label for label in failing if ":repair-" in label] == [f"sample-{k}:repair-1" for k in (1, 2, 3)]
    assert len(_run("blind-repair", "no code")) == 2 and len(_run("blind-vote", "no code")) == 5


def test_blind_repair_vote_makes_five_calls_when_every_program_runs():
    good = prompts.oracle_program(6, "20.53")
    assert len(_run("blind-repair-vote", good)) == 5


def test_the_readme_says_the_paper_library_is_not_public():
    readme = (Path(clincalc_pkg.__file__).parents[4] / "README.md").read_text("utf-8")
    assert "22-calculator library" in readme and "not public" in readme and "40.0%" in readme


def _imports(path: Path, package: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package):
            out |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith(package)}
    return out


def test_no_import_circles_in_suites_clincalc():
    """Every import counts, inside functions and under TYPE_CHECKING too."""
    root, package = Path(clincalc_pkg.__file__).parent, "physbench.suites.clincalc"
    modules = {".".join((package, *p.relative_to(root).with_suffix("").parts)).removesuffix(".__init__"): p
               for p in root.rglob("*.py")}
    graph = {m: {d for d in _imports(p, package) if d in modules and d != m} for m, p in modules.items()}
    # a module is in a circle when it reaches itself
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                pytest.fail(f"{start} imports itself through {sorted(seen)}")
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])


@pytest.mark.parametrize("arm", ["note-only", "note-only-gold", "extract-solve-library", "extract-solve-recalled"])
def test_the_250_word_arms_run_with_the_oracle_and_the_manifest_records_the_settings(cli, tmp_path, arm):
    from physbench.runner.store import open_run

    run = tmp_path / "run"
    r = cli("eval", "clincalc", "--arm", arm, "--model", "oracle", "--option", "note_words=250", "--option",
            "formulas=clinical", "--run-dir", str(run), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert (s["n_done"], s["n_correct"]) == (55, 55)  # on the one-shot rows clinical stays inside every band
    with open_run(run) as reader:
        source = reader.manifest.options["data_source"]
    assert (source["note_words"], source["formulas"], source["scoring"]) == (250, "clinical", "physbench")
