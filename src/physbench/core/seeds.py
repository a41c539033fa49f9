"""The one range of seeds a user may give: 0 to MAX_SEED.

Every generator hashes its seed into a private stream (so the RNG itself would take any integer);
the bound is where a seed is stored: item metadata, run manifests and Parquet exports keep it as a
signed 64-bit integer.
"""

from __future__ import annotations

from physbench.core.errors import UserError

MAX_SEED = 2**63 - 1


def check_seed(seed: int, name: str = "--seed") -> int:
    """`seed` if it lies in 0..MAX_SEED, else a UserError that names the option and the range."""
    if not 0 <= seed <= MAX_SEED:
        shown = str(seed) if len(str(seed)) <= 30 else f"{str(seed)[:27]}..."
        raise UserError(f"{name} must be between 0 and {MAX_SEED}, got {shown}")
    return seed
