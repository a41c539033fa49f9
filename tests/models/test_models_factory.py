"""Model specs: the suite's own models first, then the built-ins; unknown specs are one clear error."""

from __future__ import annotations

import pytest

from physbench.core import UserError
from physbench.models import make_model
from physbench.models.scripted import ConstantModel, OracleModel, ReplayModel


def test_built_in_specs_make_their_models(tmp_path):
    replay = tmp_path / "r.jsonl"
    replay.write_text('{"id": "a", "response": "x"}\n')
    assert isinstance(make_model("oracle"), OracleModel)
    assert isinstance(make_model("constant:hello"), ConstantModel)
    assert isinstance(make_model(f"replay:{replay}"), ReplayModel)
    model = make_model("openai/org/model-7b")
    assert model.name == "org/model-7b" and model.spec == "openai/org/model-7b"


def test_a_suite_model_comes_first_and_a_declined_spec_falls_through():
    class Suite:
        name = "s"

        def make_model(self, spec):
            return OracleModel() if spec == "mode:x" else None

    assert isinstance(make_model("mode:x", Suite()), OracleModel)
    assert isinstance(make_model("constant:a", Suite()), ConstantModel)
    with pytest.raises(UserError, match="or a model of suite 's'"):
        make_model("mode:y", Suite())


@pytest.mark.parametrize("spec", ["gpt-4", "openai/", "replay", "nocalc", ""])
def test_an_unknown_spec_is_a_user_error(spec):
    with pytest.raises(UserError):
        make_model(spec)
