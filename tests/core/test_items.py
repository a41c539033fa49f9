"""The item model: immutable, JSON round-trip, stable params hash."""

import json

import pytest

from physbench.core import CANARY, Item, Message
from physbench.core.hashing import canonical_json, item_set_hash, params_hash


def _item(**kw):
    base = dict(
        id="fixture.a.1", suite="fixture", kind="calculation",
        messages=(Message("system", "s"), Message("user", "u")),
        reference={"value": 1.5, "unit": "Gy", "band": 0.01}, params={"x": [1, 2], "t": {"a": 1.25}},
    )
    base.update(kw)
    return Item(**base)


def test_item_round_trips_through_json_unchanged():
    item = _item()
    again = Item.from_dict(json.loads(item.to_json()))
    assert again == item
    assert again.to_json() == item.to_json()


def test_item_params_are_deeply_immutable():
    item = _item()
    with pytest.raises(TypeError):
        item.params["x"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        item.params["t"]["a"] = 2  # type: ignore[index]
    assert isinstance(item.params["x"], tuple)


def test_params_hash_ignores_key_order_but_not_values():
    assert params_hash({"a": 1, "b": 2.5}) == params_hash({"b": 2.5, "a": 1})
    assert params_hash({"a": 1, "b": 2.5}) != params_hash({"a": 1, "b": 2.50001})
    assert _item().params_hash == params_hash({"x": [1, 2], "t": {"a": 1.25}})


def test_canonical_json_rejects_nan():
    with pytest.raises(ValueError):
        canonical_json({"a": float("nan")})


def test_item_set_hash_is_order_free():
    pairs = [("b", "2"), ("a", "1")]
    assert item_set_hash(pairs) == item_set_hash(list(reversed(pairs)))


def test_every_item_carries_the_canary():
    assert _item().canary == CANARY and "CANARY" in CANARY


def test_item_json_is_the_json_of_its_plain_dict():
    """to_json encodes the frozen params and meta directly; the text must equal that of to_dict."""
    item = _item(params={"rows": [[1, 2.5], {"k": [3, {"z": None}]}], "s": "μ"}, meta={"t": ({"a": (1,)},)})
    assert item.to_json() == json.dumps(item.to_dict(), sort_keys=True, ensure_ascii=False)
