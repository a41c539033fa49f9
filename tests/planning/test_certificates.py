"""Counting certificates from the shipped masks, against the paper's own numbers (Tables S2, S3, S11)."""

from __future__ import annotations

import pytest

from physbench.suites.planning import certificates as cert
from physbench.suites.planning.goals import Goal, goals_for
from physbench.suites.planning.openkbp import load_shipped

# Table S2: case, N, m, threshold (cap 77 Gy, coverage 78 Gy)
TABLE_S2 = [("pt_258", 4635, 48, 77.9063), ("pt_269", 14079, 142, 77.8850), ("pt_289", 4997, 51, 77.8945),
            ("pt_302", 6440, 66, 77.8978), ("pt_306", 4430, 46, 77.9085), ("pt_307", 4726, 49, 77.9072)]
# Table S3: case, target (cGy), O, m, n, voxel margin, dose margin (Gy)
TABLE_S3 = [("pt_258", "PTV_7000", 128, 48, 3, 77, 6.70), ("pt_306", "PTV_7000", 104, 46, 3, 55, 6.70),
            ("pt_307", "PTV_7000", 111, 49, 3, 59, 6.70), ("pt_320", "PTV_7000", 127, 80, 3, 44, 6.70),
            ("pt_339", "PTV_7000", 247, 64, 3, 180, 6.70), ("pt_248", "PTV_5600", 631, 286, 3, 342, 5.40)]
# Table S11: patient, O, m, n, count margin (the target is not printed; it is the certificate's)
TABLE_S11 = [("pt_248", 631, 286, 3, 342), ("pt_252", 231, 152, 5, 74), ("pt_256", 197, 108, 3, 86),
             ("pt_264", 280, 78, 4, 198), ("pt_283", 173, 151, 2, 20), ("pt_299", 66, 35, 3, 28)]


@pytest.mark.parametrize("pid, n, m, threshold", TABLE_S2)
def test_table_s2_coverage_cap_certificates_match_the_paper(pid, n, m, threshold):
    """Table S2: N voxels of the top target, m = ceil(0.01 (N - 1)) + 1, threshold N x 77.05 / (N - m) + 0.05."""
    c = cert.coverage_cap(load_shipped(pid))
    assert (c.target, c.N, c.m) == ("PTV_7000", n, m)
    assert round(c.threshold, 4) == threshold
    assert c.proves(78.0) and round(78.0 - c.threshold, 4) == round(78.0 - threshold, 4)


@pytest.mark.parametrize("pid, target, o, m, n, margin, dose_margin", TABLE_S3)
def test_table_s3_overlap_certificates_match_the_paper(pid, target, o, m, n, margin, dose_margin):
    """Table S3: mandible against the target the task uses; the dose margin is the contradicted bound
    c - 2 x 0.05 Gy minus the presented mandible limit (90 % of that bound, floored to 0.1 Gy)."""
    p = load_shipped(pid)
    best = cert.overlap_options(p, goals_for(p))[0]
    assert (best.organ, best.target, best.O, best.m, best.n, best.margin) == ("Bone_Mandible", target, o, m, n, margin)
    limit = cert.presented_overlap_limit(best, 73.5)
    assert best.proves(limit) and best.to_dict(limit)["dose_margin"] == pytest.approx(dose_margin)


@pytest.mark.parametrize("pid, o, m, n, margin", TABLE_S11)
def test_table_s11_reserved_overlap_counts_match_the_paper(pid, o, m, n, margin):
    p = load_shipped(pid)
    usable = [ov for ov in cert.overlap_options(p, goals_for(p)) if cert.presented_overlap_limit(ov, 73.5) is not None]
    first = usable[0]
    assert (first.organ, first.O, first.m, first.n, first.margin) == ("Bone_Mandible", o, m, n, margin)


def test_presented_coverage_is_the_threshold_rounded_up_to_half_a_gray():
    """Table 1: 78.0 Gy, or 78.5 Gy when the threshold plus tolerance passes 78 (pt_248: 1011 voxels)."""
    assert cert.presented_coverage(cert.coverage_cap(load_shipped("pt_258")), 70.0) == 78.0
    c = cert.coverage_cap(load_shipped("pt_248"))
    assert c.N == 1011 and round(c.threshold, 4) == 78.0255
    assert cert.presented_coverage(c, 70.0) == 78.5


def test_no_overlap_certificate_where_the_counts_do_not_exceed_the_allowances():
    p = load_shipped("pt_269")  # Table S2 patient, absent from Tables S3 and S11
    assert all(ov.margin <= 0 for ov in cert.overlap_options(p, goals_for(p)))


def test_the_overlap_proof_needs_the_organ_limit_below_the_coverage_band():
    ov = cert.Overlap("Bone_Mandible", "PTV_7000", O=100, m=10, n=3, coverage_gy=66.5)
    assert ov.proves(66.39) and not ov.proves(66.41)
    assert not cert.Overlap("Bone_Mandible", "PTV_7000", O=13, m=10, n=3, coverage_gy=66.5).proves(50.0)


def test_check_contradiction_finds_both_kinds_from_the_goal_list():
    p = load_shipped("pt_258")
    goals = goals_for(p)
    assert cert.check_contradiction(p, goals) is None
    raised = [g.with_value(78.0) if g.structure == "PTV_7000" else g for g in goals]
    assert cert.check_contradiction(p, raised)["family"] == "coverage_cap"
    tight = [g.with_value(59.7) if g.structure == "Bone_Mandible" else g for g in goals]
    found = cert.check_contradiction(p, tight)
    assert found["family"] == "overlap" and found["O"] == 128
    assert cert.check_contradiction(p, [Goal("External", "Dmax", "<=", 77.0)]) is None
