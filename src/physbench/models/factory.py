"""Model specs to model objects: the suite's own scripted models first, then the built-in specs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from physbench.core.errors import UserError
from physbench.models.base import Model

SPEC_FORMS = "openai/NAME, local, oracle, constant:TEXT, replay:FILE, none"


@dataclass(frozen=True)
class ModelOptions:
    """Settings that only some models use; the CLI fills them from its flags."""

    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int = 16
    timeout_s: float = 600.0
    price_table: str | None = None
    max_retry_after_s: float = 120.0


def make_model(spec: str, suite: Any = None, options: ModelOptions | None = None) -> Model:
    """The model for `spec`.

    A suite may offer models of its own (`mode:NAME`, `nocalc`...) through
    `suite.make_model(spec) -> Model | None`; anything it declines falls through to the built-ins.
    """
    options = options or ModelOptions()
    spec = spec.strip()
    if suite is not None and callable(getattr(suite, "make_model", None)):
        model = suite.make_model(spec)
        if model is not None:
            return model  # type: ignore[no-any-return]
    if spec.startswith("openai/"):
        from physbench.models.openai_compat import OpenAIModel
        from physbench.models.pricing import load_price

        name = spec[len("openai/"):]
        price = load_price(options.price_table, name) if options.price_table else None
        return OpenAIModel(name, base_url=options.base_url, api_key_env=options.api_key_env,
                           concurrency=options.concurrency, timeout_s=options.timeout_s, price=price,
                           max_retry_after_s=options.max_retry_after_s)
    if spec == "local":
        from physbench.models.local import LocalModel

        return LocalModel(suite=suite)
    from physbench.models import scripted

    if spec == "oracle":
        return scripted.OracleModel(suite)
    if spec == "none":
        return scripted.NoModel()
    if spec == "constant" or spec.startswith("constant:"):
        return scripted.ConstantModel(spec.partition(":")[2])
    if spec.startswith("replay:"):
        return scripted.ReplayModel(spec[len("replay:"):])
    raise UserError(f"unknown model spec {spec!r}; expected one of: {SPEC_FORMS}"
                    + ("" if suite is None else f" (or a model of suite {getattr(suite, 'name', '?')!r})"))
