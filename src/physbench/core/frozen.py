"""Deep freezing of JSON-like data so that items stay immutable but still serialise as JSON."""

from __future__ import annotations

from typing import Any, Mapping, NoReturn


class FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that refuses mutation; json.dumps treats it as a plain dict."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("FrozenDict is immutable")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(obj: Any) -> Any:
    """Dicts become FrozenDicts and lists become tuples, recursively."""
    kind = type(obj)
    if kind in _SCALARS or kind is FrozenDict:
        return obj
    if kind is list or kind is tuple:
        if all(type(v) in _SCALARS for v in obj):
            return obj if kind is tuple else tuple(obj)
        return tuple(freeze(v) for v in obj)
    if isinstance(obj, Mapping):
        return FrozenDict({str(k): freeze(v) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        return tuple(freeze(v) for v in obj)
    return obj


def thaw(obj: Any) -> Any:
    """The inverse of `freeze`: plain dicts and lists."""
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    if isinstance(obj, Mapping):
        return {k: thaw(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [thaw(v) for v in obj]
    return obj
