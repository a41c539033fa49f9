"""Two error modes made at once, `mode:A+B` (seed 000, Figure 8: the continuous-beam P_ion formula and a
low %dd(10)x in one TG-51 calibration)."""

from __future__ import annotations

import asyncio

import pytest

from physbench.core.errors import UserError
from physbench.models.factory import make_model
from physbench.suites.medphys.base import draw
from physbench.suites.medphys.combined import BothModes, both, find_mode
from physbench.suites.medphys.generators import get_generator
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.suite import SUITE

TG51 = get_generator("tg51")
PION, FOIL = "pion_continuous", "foil_conversion_omitted"


def _ratios(seed: int) -> tuple[float, float, float]:
    p = draw(TG51, 3, seed)
    ref = TG51.level(3).solve(p)
    return (TG51.mode(PION).answer(3, p) / ref, TG51.mode(FOIL).answer(3, p) / ref,
            both(TG51, PION, FOIL).answer(3, p) / ref)


def test_a_pair_name_equals_each_of_its_modes_and_no_other():
    name = BothModes(PION, FOIL)
    assert name == PION and name == FOIL and name == f"{PION}+{FOIL}"
    assert name != "pion_omitted" and not (name == "pion_omitted") and name != 3


def test_both_tg51_errors_multiply_the_output_as_two_separate_factors():
    """TG-51 Eq. 3, D_w = M k_Q N_D,w with M = P_ion P_TP P_elec P_pol M_raw: the continuous-beam P_ion
    changes M and the unconverted %dd(10)Pb changes k_Q, so together the relative output is the product
    of the two relative outputs, and it differs from each alone."""
    checked = 0
    for seed in range(12):
        pion, foil, together = _ratios(seed)
        if abs(foil - 1) < 1e-6:
            continue  # below the foil threshold the conversion does not change %dd(10)x
        assert together == pytest.approx(pion * foil, rel=1e-12)
        assert abs(together - pion) > 1e-5 and abs(together - foil) > 1e-5
        checked += 1
    assert checked >= 8


def test_the_pair_model_makes_both_errors_where_both_apply_and_one_where_one_does():
    model = make_model(f"mode:tg51/{PION}+{FOIL}", SUITE)
    for level in (2, 3):
        item = calculation_item("tg51", level, 1)
        p = draw(TG51, level, 1)
        expected = find_mode(TG51, f"{PION}+{FOIL}").answer(3, p) if level == 3 else TG51.mode(PION).answer(2, p)
        text = asyncio.run(model.generate(item.messages, item=item)).text
        assert f"{expected:.6g}" in text


@pytest.mark.parametrize("spec", ["mode:pion_continuous+", "mode:kq_omitted+kq_omitted",
                                  "mode:tg51/pion_continuous+no_such_mode", "mode:a+b+c"])
def test_a_malformed_or_unknown_pair_is_a_clear_error(spec):
    with pytest.raises(UserError):
        make_model(spec, SUITE)


def test_modes_that_never_share_a_level_cannot_be_paired():
    """The extended-SSD and the isocentric inverse-square omissions belong to different MU levels."""
    mu = get_generator("mu")
    assert not set(mu.mode("isq_extended_omitted").levels) & set(mu.mode("isocentric_isq_omitted").levels)
    with pytest.raises(UserError, match="same level"):
        both(mu, "isq_extended_omitted", "isocentric_isq_omitted")


def test_solve_gives_a_pairs_answer_and_refuses_a_bad_pair(cli, tmp_path):
    import json

    from physbench.suites.medphys.base import params_to_dict

    p = draw(TG51, 3, 1)
    params = tmp_path / "params.json"
    params.write_text(json.dumps(params_to_dict(p)))
    done = cli("medphys", "solve", "tg51", "3", "--params", str(params), "--mode", f"{PION}+{FOIL}", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["value"] == pytest.approx(both(TG51, PION, FOIL).answer(3, p), rel=1e-12)
    bad = cli("medphys", "solve", "tg51", "3", "--params", str(params), "--mode", f"{PION}+{PION}")
    assert bad.returncode == 2 and "two different modes" in bad.stderr and "Traceback" not in bad.stderr
