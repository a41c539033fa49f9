"""physbench: judge-free benchmarks of quantitative physics and clinical work by language models."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("physbench")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"
