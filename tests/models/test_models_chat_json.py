"""The chat-completions JSON: the short roads give exactly what json.dumps / json.loads give."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from physbench.core import Message
from physbench.models import ModelError
from physbench.models.chat_json import encode_messages, loads_body, read_chat_response

ROLES = st.sampled_from(["system", "user", "assistant", "tool", "ü", 'q"uote'])


@settings(max_examples=300)
@given(st.lists(st.tuples(ROLES, st.text()), max_size=4))
def test_encoded_messages_are_the_text_json_dumps_writes(pairs):
    messages = tuple(Message(role, content) for role, content in pairs)
    assert encode_messages(messages) == json.dumps([m.to_dict() for m in messages])


class Tooling(Message):
    """A message kind with more fields: it must take json.dumps's road."""

    def to_dict(self) -> dict:
        return {**super().to_dict(), "name": "calc"}


def test_other_message_kinds_are_encoded_by_json_itself():
    messages = (Message("system", "s"), Tooling("user", "q\u2028"))
    assert json.loads(encode_messages(messages)) == [{"role": "system", "content": "s"},
                                                     {"role": "user", "content": "q\u2028", "name": "calc"}]


def _outcome(fn, body):
    try:
        return "ok", repr(fn(body))  # repr: nan compares unequal to itself
    except ValueError as exc:
        return "error", type(exc).__name__


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                       max_leaves=8)


@settings(max_examples=300)
@given(JSONISH, st.sampled_from(["", " ", "\n", "\ufeff"]), st.sampled_from(["", " ", "\r\n", "x", "}"]),
       st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_bodies_are_read_exactly_as_json_loads_reads_them(value, before, after, encoding):
    body = (before + json.dumps(value) + after).encode(encoding)
    assert _outcome(loads_body, body) == _outcome(json.loads, body)


@settings(max_examples=300)
@given(st.binary(max_size=64))
def test_arbitrary_bytes_are_accepted_or_refused_as_json_loads_does(body):
    assert _outcome(loads_body, body) == _outcome(json.loads, body)


def test_the_common_response_shape_reads_text_finish_usage_and_no_extras():
    body = json.dumps({"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": "\\boxed{2 Gy}"},
                                               "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}).encode()
    text, finish, usage, raw, extras, _calls = read_chat_response(body)
    assert (text, finish, extras) == ("\\boxed{2 Gy}", "stop", None)
    assert usage == {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10} and raw["id"] == "x"


def test_counts_that_are_not_integers_are_left_out_and_extras_are_kept():
    body = json.dumps({"choices": [{"message": {"content": "a", "refusal": None, "reasoning_content": "why"},
                                    "finish_reason": 3}],
                       "usage": {"prompt_tokens": True, "completion_tokens": 2.0}}).encode()
    text, finish, usage, _, extras, _calls = read_chat_response(body)
    assert (text, finish, usage, extras) == ("a", None, {}, {"reasoning_content": "why"})


def test_a_deeply_nested_body_is_a_retryable_error_not_a_crash():
    with pytest.raises(ModelError, match="malformed") as err:
        read_chat_response(b"[" * 200_000)
    assert err.value.retryable
