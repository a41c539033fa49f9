"""`physbench clincalc calculators | compute | audit`: the library from the command line, one-line errors."""

from __future__ import annotations

import json


def test_calculators_lists_all_55_with_their_audit_group(cli):
    r = cli("clincalc", "calculators", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["calculators"]
    assert len(rows) == 55
    assert {r["audit"] for r in rows} <= {"replaced", "other_concern", "no_issue"}
    assert {"id", "name", "output_type", "kind", "audit"} <= set(rows[0])


def test_compute_gives_the_library_answer_from_a_literal_or_a_file(cli, tmp_path):
    """BMI 68 kg, 182 cm: 68 / 1.82^2 = 20.5289 kg/m^2 (Quetelet)."""
    literal = "{'weight': [68.0, 'kg'], 'height': [182.0, 'cm']}"
    r = cli("clincalc", "compute", "6", "--entities", literal, "--json")
    assert r.returncode == 0, r.stderr
    assert abs(json.loads(r.stdout)["answer"] - 20.52892) < 1e-4
    f = tmp_path / "e.txt"
    f.write_text(literal)
    assert cli("clincalc", "compute", "6", "--entities", str(f)).stdout.strip() == "20.53 kg/m²"


def test_compute_with_unusable_entities_or_an_unknown_id_is_one_line_exit_2(cli):
    for args in (("6", "--entities", "{'weight': [68.0, 'kg']}"), ("999", "--entities", "{}"),
                 ("6", "--entities", "not a literal")):
        r = cli("clincalc", "compute", *args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, args
        assert "Traceback" not in r.stderr


def test_audit_of_the_one_shot_split_accounts_for_every_row(cli):
    r = cli("clincalc", "audit", "--data", "one-shot", "--json")
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)
    assert a["n_rows"] == 55 and a["n_agree"] + a["n_disagree"] + a["n_abstained"] == 55
