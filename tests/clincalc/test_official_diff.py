"""`clincalc differential` (issue 35, item 1): the library under both formula versions against a user's copy
of the official calculators. CI has no copy, so a stand-in folder in the official layout (a name map and
modules returning {"Answer": ...}) checks the plumbing: agreement, a differing answer, the official code
raising, and the clinical differences named by erratum."""

from __future__ import annotations

import json

from physbench.suites.clincalc.official_diff import differential

BMI = '''
def bmi_explanation(p):
    weight, height = p["weight"], p["height"]
    kg = weight[0] * (0.453592 if weight[1] == "lbs" else 1)
    m = height[0] * (0.0254 if height[1] == "in" else 0.01)
    return {"Explanation": "", "Answer": round(kg / (m * m), 3)}
'''
HEART = '''
from helper import points

def heart_explanation(p):
    if p.get("history") == "Highly suspicious":
        raise KeyError("the official code fails here")
    return {"Explanation": "", "Answer": points(p)}
'''
# the official table's potencies relative to dexamethasone, rounded to 2 decimals (erratum steroid-rounded-equivalents)
STEROID = '''
REL = {"Betamethasone IV": 1, "Cortisone PO": 33.33, "Dexamethasone IV": 1, "Dexamethasone PO": 1,
       "Hydrocortisone IV": 26.67, "Hydrocortisone PO": 26.67, "MethylPrednisoLONE IV": 5.33,
       "MethylPrednisoLONE PO": 5.33, "PrednisoLONE PO": 6.67, "PredniSONE PO": 6.67, "Triamcinolone IV": 5.33}

def steroid_explanation(p):
    name, dose, unit = p["input steroid"]
    mg = dose * {"mg": 1, "g": 1000, "µg": 0.001}[unit]
    return {"Explanation": "", "Answer": round(mg * round(REL[p["target steroid"]] / REL[name], 5), 5)}
'''
HELPER = '''
def points(p):
    return 99
'''


def _folder(tmp_path):
    (tmp_path / "bmi.py").write_text(BMI)
    (tmp_path / "heart.py").write_text(HEART)
    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "steroid.py").write_text(STEROID)
    names = {"6": {"weight": "weight", "height": "height", "file path": "bmi.py", "explanation function": "bmi_explanation"},
             "18": {"Suspicion History": "history", "file path": "heart.py", "explanation function": "heart_explanation"},
             "24": {"file path": "steroid.py", "explanation function": "steroid_explanation"},
             "not a calculator": {}}
    (tmp_path / "name_to_python.json").write_text(json.dumps(names))
    return tmp_path


def test_the_differential_counts_agreement_differences_and_official_failures(tmp_path):
    out = differential(_folder(tmp_path), per_calculator=12, seed=1)
    bmi, heart = out["calculators"]["6"], out["calculators"]["18"]
    assert bmi == {"benchmark_agree": 12, "clinical_agree": 12, "benchmark_exact": 12, "clinical_exact": 12}
    steroid = out["calculators"]["24"]  # the rounded table: inside the band either way, exact only as `benchmark`
    assert steroid["benchmark_exact"] == steroid["clinical_agree"] == 12 and steroid["clinical_exact"] < 12
    assert heart.get("official_raises", 0) + heart.get("benchmark_differ", 0) == 12 and "benchmark_agree" not in heart
    assert out["total"]["benchmark_agree"] == 24


def test_the_command_prints_one_summary_and_refuses_a_missing_folder(cli, tmp_path):
    r = cli("clincalc", "differential", "--official", str(_folder(tmp_path)),
            "--per-calculator", "5", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["per_calculator"] == 5
    bad = cli("clincalc", "differential", "--official", str(tmp_path / "nowhere"))
    assert bad.returncode == 2 and "not a folder" in bad.stderr
