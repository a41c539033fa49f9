"""physbench: judge-free benchmarks of quantitative physics and clinical work by language models."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # looked up on first use: importlib.metadata pulls in email, zipfile and socket, which the
    # executor's warm parent (it imports this package) would otherwise carry into every fork
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("physbench")
        except PackageNotFoundError:  # running from a source tree without installation
            value = "0.0.0+source"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module 'physbench' has no attribute {name!r}")
