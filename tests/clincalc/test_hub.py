"""`--data hub` without a real network: a fake huggingface_hub module stands in for the package, so
the pinned revision reaches the run manifest, and an unreachable hub is one line and exit code 2."""

from __future__ import annotations

import sys
from types import ModuleType, SimpleNamespace

import pytest

from physbench.suites.clincalc import hub
from physbench.suites.clincalc.dataset import one_shot_path


def _fake_hub(monkeypatch, *, online: bool) -> list[dict]:
    calls: list[dict] = []

    class HfApi:
        def dataset_info(self, repo, revision=None, files_metadata=False):
            calls.append({"repo": repo, "revision": revision})
            if not online:
                raise ConnectionError("Failed to resolve 'huggingface.co'")
            return SimpleNamespace(sha="5488179abcdef", siblings=[SimpleNamespace(rfilename="data/test_data.csv"),
                                                                  SimpleNamespace(rfilename="README.md")])

    def hf_hub_download(repo, name, repo_type=None, revision=None):
        calls.append({"download": name, "revision": revision})
        return str(one_shot_path())  # a shipped file in the official schema stands in for the split

    module = ModuleType("huggingface_hub")
    module.HfApi = HfApi
    module.hf_hub_download = hf_hub_download
    monkeypatch.setitem(sys.modules, "huggingface_hub", module)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return calls


def test_the_pinned_revision_goes_into_the_run_manifest(cli, tmp_path, monkeypatch):
    from physbench.report.loading import read_run

    calls = _fake_hub(monkeypatch, online=True)
    r = cli("eval", "clincalc", "--option", "data=hub", "--protocol", "gold-library", "--model", "oracle",
            "--run-dir", str(tmp_path / "run"), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert calls[0] == {"repo": hub.HUB_REPO, "revision": hub.HUB_REVISION}
    assert calls[1]["revision"] == "5488179abcdef"  # the commit the pinned revision resolved to
    source = read_run(tmp_path / "run").manifest.options["data_source"]
    assert source["hub"] == {"repo": hub.HUB_REPO, "revision": hub.HUB_REVISION, "commit": "5488179abcdef",
                             "file": "data/test_data.csv"}
    assert source["rows"] == 55 and len(source["sha256"]) == 64


def test_with_no_network_the_hub_says_so_in_one_line(cli, tmp_path, monkeypatch):
    _fake_hub(monkeypatch, online=False)
    r = cli("eval", "clincalc", "--option", "data=hub", "--protocol", "gold-library", "--model", "oracle",
            "--run-dir", str(tmp_path / "run"), "--quiet")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be reached" in lines[0] and "--data FILE" in lines[0]
    assert not (tmp_path / "run").exists()


def test_offline_mode_and_a_missing_package_are_one_line_too(monkeypatch):
    from physbench.core.errors import UserError

    _fake_hub(monkeypatch, online=True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(UserError, match="HF_HUB_OFFLINE"):
        hub.fetch_hub()
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)  # import fails as if not installed
    with pytest.raises(UserError, match="needs the huggingface_hub package"):
        hub.fetch_hub()
