"""The OpenKBP loader: one parser for CSV folders and the shipped archives; hostile files fail cleanly."""

from __future__ import annotations

import io
import tarfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench.suites.planning import openkbp as ok
from tests.planning.conftest import SHARED


def test_forty_patients_ship_with_the_openkbp_licence():
    ids = ok.shipped_ids()
    assert len(ids) == 40 and ids[0] == "pt_241" and ids[-1] == "pt_339"
    from importlib import resources
    lic = resources.files("physbench.suites.planning").joinpath("data/openkbp/LICENSE").read_text()
    assert "MIT License" in lic and "Babier" in lic


def test_structures_carry_tg263_names_and_external_is_the_possible_dose_mask():
    p = ok.load_shipped("pt_248")
    assert set(p.structures) == {"Brainstem", "Parotid_L", "Bone_Mandible", "PTV_5600", "PTV_7000", "Parotid_R", "SpinalCord"}
    assert p.raw_names["Bone_Mandible"] == "Mandible"
    assert p.voxel_mm == (4.688, 4.688, 3.0)
    assert p.external.size == 180867 and p.has("External") and np.array_equal(p.mask("External"), p.external)
    assert list(p.targets) == ["PTV_7000", "PTV_5600"]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the original OpenKBP CSV folders are not on this machine")
def test_shipped_archives_equal_the_original_csv_folders():
    """Every shipped patient decodes to exactly the masks, voxel sizes and names of its CSV folder."""
    for pid in ok.shipped_ids():
        a, b = ok.load_shipped(pid), ok.load_patient(pid, SHARED)
        assert a.voxel_mm == b.voxel_mm and np.array_equal(a.external, b.external)
        assert set(a.structures) == set(b.structures)
        for name in a.structures:
            assert np.array_equal(a.structures[name], b.structures[name]), (pid, name)
        assert a.content_hash() == b.content_hash()


def test_a_user_folder_is_read_by_the_same_parser(tmp_path):
    d = tmp_path / "pt_7"
    d.mkdir()
    (d / "possible_dose_mask.csv").write_text(",data\n5,\n6,\n7,\n")
    (d / "voxel_dimensions.csv").write_text("4.0\n4.0\n2.5\n")
    (d / "PTV70.csv").write_text(",data\n6,\n7,\n9,\n")
    (d / "ct.csv").write_text(",data\n1,1000.0\n")
    p = ok.load_patient("pt_7", tmp_path)
    assert np.array_equal(p.structures["PTV_7000"], [6, 7, 9])
    assert any("outside the possible-dose mask" in n for n in p.notes)
    assert any("ct.csv" in n for n in p.notes)


def test_value_files_parse_indices_and_values():
    idx, vals = ok.parse_sparse_csv(b",data\n3,1.5\n10,2e-1\n", "dose.csv")
    assert idx.tolist() == [3, 10] and vals.tolist() == [1.5, 0.2]


@pytest.mark.parametrize("raw, msg", [
    (b"index,data\n1,\n", "header"),
    (b",data\n1\n", "every line"),
    (b",data\n1,\n2,3\n", "every line"),
    (b",data\n-1,\n", "every line"),
    (b",data\n2097152,\n", "grid"),
    (b",data\nx,\n", "every line"),
])
def test_malformed_csv_is_a_patient_data_error(raw, msg):
    with pytest.raises(ok.PatientDataError, match=msg):
        ok.parse_sparse_csv(raw, "f.csv")


def test_missing_mask_or_target_or_bad_spacing_is_refused(tmp_path):
    files = {"voxel_dimensions.csv": b"4\n4\n2.5\n", "PTV70.csv": b",data\n1,\n"}
    with pytest.raises(ok.PatientDataError, match="possible_dose_mask"):
        ok.patient_from_files("pt_1", files)
    files["possible_dose_mask.csv"] = b",data\n1,\n"
    with pytest.raises(ok.PatientDataError, match="no target"):
        ok.patient_from_files("pt_1", {**files, "PTV70.csv": b",data\n"})
    with pytest.raises(ok.PatientDataError, match="spacings"):
        ok.patient_from_files("pt_1", {**files, "voxel_dimensions.csv": b"4\n-4\n2\n"})
    with pytest.raises(ok.PatientDataError, match="pt_<number>"):
        ok.patient_from_files("../etc", files)
    with pytest.raises(ok.PatientDataError, match="unknown patient"):
        ok.load_shipped("pt_999")


def test_a_corrupt_archive_is_a_patient_data_error():
    with pytest.raises(ok.PatientDataError, match="tar.xz"):
        ok.read_archive(b"not an archive", "x.tar.xz")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        info = tarfile.TarInfo("pt_1/possible_dose_mask.csv")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    files = ok.read_archive(buf.getvalue(), "x")
    with pytest.raises(ok.PatientDataError):
        ok.patient_from_files("pt_1", {**files, "voxel_dimensions.csv": b"4\n4\n2\n"})


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_parsing_arbitrary_bytes_never_raises_anything_but_a_data_error(raw):
    try:
        idx, _ = ok.parse_sparse_csv(raw, "f.csv")
    except ok.PatientDataError:
        return
    assert idx.dtype == np.int64 and (idx.size == 0 or (idx.min() >= 0 and idx.max() < ok.N_GRID))
