"""Model specs to model objects: the suite's own scripted models first, then the built-in specs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from physbench.core.errors import UserError
from physbench.core.files import read_small_text
from physbench.models.base import Model

SPEC_FORMS = "openai/NAME, local, oracle, constant:TEXT, replay:FILE, none"


@dataclass(frozen=True)
class ModelOptions:
    """Settings that only some models use; the CLI fills them from its flags."""

    base_url: str | Sequence[str] | None = None  # several: one endpoint pool (models/endpoints.py)
    api_key_env: str | None = None
    concurrency: int = 16
    timeout_s: float = 600.0
    price_table: str | None = None
    max_retry_after_s: float = 120.0


MAX_URL_FILE_BYTES = 1_000_000  # a list of endpoints, not a dataset


def read_url_file(path: str) -> tuple[str, ...]:
    """The URLs listed in `path`, one per line; blank lines and `#` comments are skipped."""
    text = read_small_text(path, f"--base-url @{path}", MAX_URL_FILE_BYTES)
    urls = tuple(line.split("#", 1)[0].strip() for line in text.splitlines())
    urls = tuple(u for u in urls if u)
    if not urls:
        raise UserError(f"--base-url @{path}: lists no URL (one per line; # starts a comment)")
    return urls


def base_urls(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """The endpoint URLs of a `--base-url` setting: none, one, several, or `@FILE` (one URL per line)."""
    if value is None:
        return ()
    values = (value,) if isinstance(value, str) else tuple(value)
    urls: list[str] = []
    for v in values:
        v = (v or "").strip()
        if v.startswith("@"):
            urls.extend(read_url_file(v[1:]))
        elif v:
            urls.append(v)
    return tuple(urls)


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
        urls = base_urls(options.base_url)
        models = [OpenAIModel(name, base_url=url, api_key_env=options.api_key_env, concurrency=options.concurrency,
                              timeout_s=options.timeout_s, price=price, max_retry_after_s=options.max_retry_after_s)
                  for url in urls or (None,)]
        if len(models) == 1:
            return models[0]
        from physbench.models.endpoints import EndpointPool

        return EndpointPool(models, concurrency=options.concurrency)
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
    own = getattr(suite, "model_forms", ()) if suite is not None else ()
    raise UserError(f"unknown model spec {spec!r}; expected one of: {SPEC_FORMS}"
                    + (f", or {getattr(suite, 'name', '?')}'s own: {', '.join(own)}" if own else
                       "" if suite is None else f" (or a model of suite {getattr(suite, 'name', '?')!r})"))
