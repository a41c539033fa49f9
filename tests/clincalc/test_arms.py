"""The arms' rules (003_* Appendix A.1, Tables 5 and 16) with scripted replies: program outcome
classes, the recalled arm's routes, the library-first hybrids, seeds and note budgets."""

from __future__ import annotations

import asyncio
import json

from physbench.models.scripted import ReplayModel
from physbench.protocols.base import Answer
from physbench.runner.retry import CallLedger, RetryPolicy
from physbench.suites.clincalc import prompts
from physbench.suites.clincalc.arm_protocols import make
from physbench.suites.clincalc.suite import SUITE


def _program(body: str) -> str:
    return f"```python\ndef solve():\n    {body}\n```"


def _replay(tmp_path, rows: dict[str, object]) -> str:
    path = tmp_path / "replies.jsonl"
    lines = [json.dumps({"id": i, "responses": r} if isinstance(r, list) else {"id": i, "response": r})
             for i, r in rows.items()]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _eval(cli, tmp_path, arm: str, replay: str, *extra: str) -> dict:
    r = cli("eval", "clincalc", "--arm", arm, "--model", f"replay:{replay}", "--run-dir", str(tmp_path / arm),
            "--quiet", "--json", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_program_solve_gives_every_outcome_class_of_table_8(cli, tmp_path):
    items = [i for i in SUITE.items(arm="program-solve") if i.kind == "decimal"][:7]
    gold = float(items[5].reference["ground_truth"])
    scripts = ["I would rather not write code.",                    # no_program
               "```python\nimport os\ndef solve():\n    return 1\n```",  # rejected
               _program("return 1 / 0"),                              # raised
               _program("return {'value': 1}"),                      # bad_kind
               _program("return 'about seventy'"),                   # unreadable
               _program(f"return {gold!r}"),                          # correct
               _program(f"return {float(items[6].reference['upper']) * 2 + 1!r}")]  # wrong
    replay = _replay(tmp_path, {i.id: s for i, s in zip(items, scripts)})
    s = _eval(cli, tmp_path, "program-solve", replay)
    outcomes = s["outcomes"]
    for name in ("no_program", "rejected", "raised", "bad_kind", "unreadable", "correct", "wrong"):
        assert outcomes.get(name) == 1, (name, outcomes)
    assert s["n_errors"] == 55 - 7  # rows without a scripted reply are errors, not guesses


def test_blind_vote_abstains_when_no_program_runs_and_takes_a_value_returned_twice(cli, tmp_path):
    items = SUITE.items(arm="blind-vote", limit=2)
    gold = float(items[1].reference["ground_truth"])
    replay = _replay(tmp_path, {items[0].id: [_program("return 1 / 0")],
                                items[1].id: [_program("return -1.0"), _program(f"return {gold!r}"),
                                              _program("return 1 / 0"), _program(f"return {gold!r}")]})
    s = _eval(cli, tmp_path, "blind-vote", replay, "--limit", "2")
    assert (s["outcomes"]["abstained"], s["outcomes"]["correct"]) == (1, 1)


def _run(arm: str, item, replies: list[str], repeat: int = 0, tmp_path=None) -> tuple[Answer, CallLedger]:
    path = tmp_path / f"{arm}-{repeat}.jsonl"
    path.write_text(json.dumps({"id": item.id, "responses": replies}) + "\n")
    ledger = CallLedger(ReplayModel(str(path)), item, {}, RetryPolicy(max_attempts=1), repeat=repeat)
    return asyncio.run(make(arm).run(item, ledger)), ledger


def _recalled_item(library: bool = True):
    items = SUITE.items(arm="extract-solve-recalled", limit=1)
    if library:
        return items[0]
    from physbench.suites.clincalc.dataset import load_one_shot

    return SUITE._item(load_one_shot().rows[0], "extract-solve-recalled", subset=[3])


def test_recalled_returns_two_agreeing_samples_without_an_extraction(tmp_path):
    item = _recalled_item()
    answer, ledger = _run("extract-solve-recalled", item, ["Final answer: 5", "Final answer: 7", "Final answer: 5"],
                          tmp_path=tmp_path)
    assert len(ledger.turns) == 3 and answer.detail["step"] == "agreed" and "5" in answer.text


def test_recalled_routes_disagreeing_samples_through_the_library_inside_it(tmp_path):
    item = _recalled_item()
    entities = json.dumps(json.loads(SUITE._oracle_extraction(item)))
    answer, ledger = _run("extract-solve-recalled", item, ["Final answer: 1", "Final answer: 2", "Final answer: 3",
                                                            entities], tmp_path=tmp_path)
    assert [t.label for t in ledger.turns][-1] == "extraction" and answer.detail["route"] == "library"
    assert SUITE.grade(item, answer).passed
    bad, _ = _run("extract-solve-recalled", item, ["Final answer: 1", "Final answer: 2", "Final answer: 3",
                                                   "no variables"], tmp_path=tmp_path)
    assert bad.outcome == "abstained"


def test_recalled_outside_the_library_keeps_the_model_s_arithmetic(tmp_path):
    item = _recalled_item(library=False)  # calculator 2 with a library of calculator 3 only
    answer, ledger = _run("extract-solve-recalled", item, ["Final answer: 1", "Final answer: 2", "no answer"],
                          tmp_path=tmp_path)
    assert len(ledger.turns) == 3 and answer.detail["step"] == "first" and answer.text == "Final answer: 1"


def test_gold_first_uses_the_library_inside_it_and_the_fallback_outside(tmp_path):
    from physbench.suites.clincalc.dataset import load_one_shot

    rows = load_one_shot().rows[:2]
    inside, outside = (SUITE._item(row, "gold-first-program", subset=[rows[0].calculator_id]) for row in rows)
    answer, ledger = _run("gold-first-program", inside, ["never asked"], tmp_path=tmp_path)
    assert not ledger.turns and answer.detail["route"] == "library" and SUITE.grade(inside, answer).passed
    gold = outside.reference["ground_truth"]
    answer, ledger = _run("gold-first-program", outside, [_program(f"return {gold}")], tmp_path=tmp_path)
    assert len(ledger.turns) == 1 and answer.detail["route"] == "program" and SUITE.grade(outside, answer).passed


def test_extract_first_falls_back_when_the_extraction_is_invalid(tmp_path):
    item = SUITE.items(arm="extract-first-arithmetic", limit=1)[0]
    answer, ledger = _run("extract-first-arithmetic", item, ["not JSON", f"Final answer: {item.reference['ground_truth']}"],
                          tmp_path=tmp_path)
    assert [t.label for t in ledger.turns] == ["extraction", "answer"] and answer.detail["route"] == "reply"
    assert SUITE.grade(item, answer).passed


def test_the_tree_arm_evaluates_the_reply_and_abstains_on_dates_before_any_call(tmp_path):
    items = SUITE.items(arm="formulate-solve-tree")
    date_item = next(i for i in items if i.kind == "date")
    answer, ledger = _run("formulate-solve-tree", date_item, ["never asked"], tmp_path=tmp_path)
    assert answer.outcome == "abstained" and not ledger.turns
    item = next(i for i in items if i.kind == "decimal")
    tree = {"variables": {"a": 2}, "missing": ["a"], "tree": {"op": "*", "args": [{"var": "a"}, 3]}}
    answer, _ = _run("formulate-solve-tree", item, [json.dumps(tree)], tmp_path=tmp_path)
    assert answer.outcome == "abstained"  # a referenced variable is listed as missing
    tree["missing"] = []
    answer, _ = _run("formulate-solve-tree", item, [json.dumps(tree)], tmp_path=tmp_path)
    assert answer.value == 6.0 and answer.detail["exact"] is True


def test_the_seed_chooses_the_note_only_worked_example_and_never_the_case_itself(tmp_path):
    from physbench.suites.clincalc.dataset import load_one_shot

    rows = load_one_shot().rows
    first = prompts.worked_example(42)  # seed 42's pick with nothing excluded
    row = next(r for r in rows if prompts.first_words(r.patient_note, prompts.EXAMPLE_NOTE_WORDS) in first)
    item = SUITE._item(row, "note-only")
    sent = []
    for repeat in range(5):
        answer, ledger = _run("note-only", item, ["Final answer: 1"], repeat=repeat, tmp_path=tmp_path)
        assert answer.detail["seed"] == 42 + repeat and len(ledger.turns) == 1
        sent.append(make("note-only").messages(item, 42 + repeat)[1].content)
    assert first.split("\n")[1] not in sent[0].split("Now the case to solve.")[0]  # never its own example
    assert len(set(sent)) > 1 and all(s.endswith(item.protocol_data["clincalc"]["case"]) for s in sent)


def test_note_budgets_follow_table_16():
    note_only = SUITE.items(arm="note-only", limit=1)[0].protocol_data["clincalc"]["case"]
    page = SUITE.items(arm="page-without-formula", limit=1)[0].messages[1].content
    assert len(note_only.split("\n\n")[0].split("\n", 1)[1].split()) == prompts.NOTE_ONLY_WORDS
    assert len(page.split("\n\n")[0].split("\n", 1)[1].split()) == prompts.PAGE_WORDS
    example = prompts.worked_example(42)
    assert len(example.split("\n")[1].split()) <= prompts.EXAMPLE_NOTE_WORDS


def test_the_syntax_variant_adds_only_the_two_generic_lines():
    plain = SUITE.items(arm="program-solve", limit=1)[0].messages[1].content
    syntax = SUITE.items(arm="program-solve-syntax", limit=1)[0].messages[1].content
    assert all(line not in plain and line in syntax for line in prompts.SYNTAX_LINES)
    assert syntax.replace(" " + " ".join(prompts.SYNTAX_LINES), "") == plain


def test_each_seed_fixes_its_own_case_order():
    items = SUITE.items(arm="note-only")
    orders = [[i.id for i in SUITE.case_order(items, r)] for r in range(3)]
    assert orders[0] == [i.id for i in SUITE.case_order(items, 0)] and orders[0] != orders[1] != orders[2]
    assert sorted(orders[0]) == sorted(i.id for i in items)
