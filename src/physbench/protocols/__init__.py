"""Protocols by name: `direct`, `two-step`, `checkpoints-self`, `checkpoints-oracle`,
`checkpoints-oracle-multiturn`, `program`,
`agent`, and any a suite registers (suite.protocols() -> {name: factory}). A name may carry
options, `name:key=value[:key=value]` (e.g. `program:vote=5:repair=1`)."""

from __future__ import annotations

from typing import Any, Callable

from physbench.core.errors import UserError
from physbench.protocols.agent import Agent
from physbench.protocols.base import Answer, Ask, Protocol, Turn
from physbench.protocols.checkpoints import Checkpoints
from physbench.protocols.direct import Direct
from physbench.protocols.program import Program
from physbench.protocols.two_step import TwoStep

PROTOCOLS: dict[str, Callable[..., Any]] = {
    "direct": lambda suite: Direct(),
    "two-step": lambda suite: TwoStep(),
    "checkpoints-self": lambda suite: Checkpoints(oracle=False),
    "checkpoints-oracle": lambda suite: Checkpoints(carryover="oracle"),
    "checkpoints-oracle-multiturn": lambda suite: Checkpoints(carryover="oracle-multiturn"),
    "program": lambda suite, vote=1, repair=0: Program(vote=vote, repair=repair),
    "agent": lambda suite, **limits: Agent(suite, **limits),
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """('program', {'vote': 5}) from 'program:vote=5'; numbers become int or float."""
    name, *parts = spec.split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key.isidentifier():
            raise UserError(f"protocol option {part!r} in {spec!r} must be key=value")
        try:
            options[key] = int(raw)
        except ValueError:
            try:
                options[key] = float(raw)
            except ValueError:
                options[key] = raw
    return name, options


def get_protocol(name: str, suite: Any = None) -> Protocol:
    """A new protocol object for `name` (with options), looking in the suite's own protocols first;
    a UserError naming the known ones otherwise."""
    base, options = parse_spec(name)
    table = dict(PROTOCOLS)
    own = getattr(suite, "protocols", None)
    if callable(own):
        table.update(own() or {})
    if base not in table:
        raise UserError(f"unknown protocol {base!r}; known protocols: {', '.join(sorted(table))}")
    try:
        return table[base](suite, **options)  # type: ignore[no-any-return]
    except TypeError:
        raise UserError(f"protocol {base!r} does not take options {', '.join(sorted(options))}") from None


def needs_tools(protocol: Any) -> bool:
    return getattr(protocol, "needs_tools", False) is True


NO_TOOL_SPECS = ("local",)  # model specs known to lack tool calls, refused before the model is built


def calls_model(protocol: Any) -> bool:
    """False for a protocol that answers without any model (a true class attribute `no_model`)."""
    return getattr(protocol, "no_model", False) is not True


def check_model_spec(protocol: Any, spec: str) -> None:
    """UserError, before any model is loaded, for a tools protocol with a model spec that has none,
    or for a protocol that calls a model given `none`."""
    if spec == "none" and calls_model(protocol):
        raise UserError(f"protocol {getattr(protocol, 'name', '?')!r} asks a model; give one with --model")
    if needs_tools(protocol) and spec.split(":", 1)[0] in NO_TOOL_SPECS:
        raise UserError(f"protocol {getattr(protocol, 'name', '?')!r} calls tools and model {spec!r} cannot; "
                        "choose another protocol or model")


def check_model(protocol: Any, model: Any) -> None:
    """UserError when the protocol offers tools and the model cannot call them."""
    if needs_tools(protocol) and getattr(model, "supports_tools", True) is False:
        raise UserError(f"protocol {getattr(protocol, 'name', '?')!r} calls tools and model "
                        f"{getattr(model, 'spec', '?')!r} cannot; choose another protocol or model")


__all__ = ["Answer", "Ask", "PROTOCOLS", "Protocol", "Turn", "calls_model", "check_model", "check_model_spec", "get_protocol", "needs_tools",
           "parse_spec"]
