"""The medphys splits (seed 000, "Splits and release", "A targeted test of one error").

- dev: public seeds 0-9 of every generator and level (300 calculation, 150 + 150 checking items);
- test: 20 draws per generator and level whose seeds come from a 32-byte secret key by HMAC-SHA256,
  above the public seed range; ids carry a tag, never the seed or the key;
- targeted:GEN:LEVEL:MODE[:N[:START]]: the five items per parameter set of the targeted test.
Within each generator and level, correct (even index) and planted (odd index) checks alternate.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any, Iterator

from physbench.core.errors import UserError
from physbench.core.hashing import params_hash
from physbench.core.items import Item
from physbench.suites.medphys.base import Generator, draw, params_to_dict
from physbench.suites.medphys.checks import check_items
from physbench.suites.medphys.generators import LEVELS, available_generators, get_generator
from physbench.suites.medphys.items import calculation_item
from physbench.suites.medphys.planting import planted_error

DEV_SEEDS = range(10)
TEST_PER_CELL = 20
PUBLIC_SEED_LIMIT = 10**9  # every public seed (dev, audits, baselines, targeted tests) lies below this
KEY_BYTES = 32


def read_key(path: str | Path | None) -> bytes:
    """A 32-byte key from a file holding 32 raw bytes or 64 hex digits."""
    if path is None:
        raise UserError("the test split needs --key-file (a file with a 32-byte key, raw or as 64 hex digits)")
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the key file: {exc.strerror or exc}") from None
    text = raw.strip()
    if len(text) == 2 * KEY_BYTES and all(c in b"0123456789abcdefABCDEF" for c in text):
        return bytes.fromhex(text.decode())
    if len(raw) == KEY_BYTES:
        return raw
    raise UserError("the key file must hold exactly 32 bytes, raw or as 64 hex digits")


def draw_items(gen: Generator, level: int, seed: int, *, planted: bool, public: bool = True,
               tag: str | None = None) -> list[Item]:
    """The calculation item of a draw and, for checking generators, its two checking items."""
    p = draw(gen, level, seed)
    items = [calculation_item(gen.name, level, seed, public=public, tag=tag, params=p)]
    if gen.checking:
        error = planted_error(gen, level, seed, p) if planted else None
        items += check_items(gen, level, seed, p, error, public=public, tag=tag)
    return items


def dev_items() -> list[Item]:
    return [item for g in available_generators() for level in LEVELS for seed in DEV_SEEDS
            for item in draw_items(g, level, seed, planted=seed % 2 == 1)]


def _mac(key: bytes, label: str) -> bytes:
    return hmac.new(key, label.encode(), hashlib.sha256).digest()


def heldout_draws(key: bytes, gen: Generator, level: int) -> Iterator[tuple[int, int, str]]:
    """(index, secret seed, id tag) of the cell's test draws; a draw that repeats a dev parameter
    set is skipped and the next candidate taken, so indices stay dense."""
    dev_hashes = {params_hash(params_to_dict(draw(gen, level, s))) for s in DEV_SEEDS}
    attempt = 0
    for index in range(TEST_PER_CELL):
        while True:
            label = f"medphys/{gen.name}/L{level}/{index}/{attempt}"
            seed = PUBLIC_SEED_LIMIT + int.from_bytes(_mac(key, "seed/" + label)[:8], "big")
            attempt += 1
            if params_hash(params_to_dict(draw(gen, level, seed))) not in dev_hashes:
                break
        yield index, seed, _mac(key, "tag/" + label).hex()[:16]


def heldout_items(key: bytes) -> list[Item]:
    out = []
    for g in available_generators():
        for level in LEVELS:
            for index, seed, tag in heldout_draws(key, g, level):
                out += draw_items(g, level, seed, planted=index % 2 == 1, public=False, tag=tag)
    return out


def targeted_items(generator: str, level: int, mode: str, n: int = 20, start: int = 1000) -> list[Item]:
    """For the first `n` seeds >= `start` whose planted error is `mode`: the calculation, the planted
    worksheet and result checks, and the correct worksheet and result checks."""
    gen = get_generator(generator)
    if not gen.checking:
        raise UserError(f"{generator} has no checking items")
    if not mode.startswith("slip:"):
        m = gen.mode(mode)
        if level not in m.levels:
            raise UserError(f"error mode {mode!r} does not apply at level {level}")
    out: list[Item] = []
    seed, found = start, 0
    limit = start + 200 * n + 1000
    while found < n:
        if seed >= limit:
            raise UserError(f"fewer than {n} seeds in {start}..{limit} plant {mode!r}")
        p = draw(gen, level, seed)
        error = planted_error(gen, level, seed, p)
        if error.mode == mode:
            out.append(calculation_item(gen.name, level, seed, params=p))
            out += check_items(gen, level, seed, p, error, id_suffix="/planted")
            out += check_items(gen, level, seed, p, None, id_suffix="/correct")
            found += 1
        seed += 1
    return out


def split_items(split: str, *, key: bytes | None = None, **options: Any) -> list[Item]:
    """Items of `split` in a stable order: generator (Table 1 order), level, seed, kind."""
    if split == "dev":
        return dev_items()
    if split == "test":
        if key is None:
            raise UserError("the test split needs --key-file")
        if len(key) != KEY_BYTES:
            raise UserError("the medphys test key must be 32 bytes (raw, or 64 hex digits in the key file)")
        return heldout_items(key)
    if split.startswith("targeted:"):
        parts = split.split(":")[1:]
        if len(parts) not in (3, 4, 5):
            raise UserError("targeted split: targeted:GEN:LEVEL:MODE[:N[:START]]")
        try:
            numbers = [int(x) for x in parts[3:]]
            return targeted_items(parts[0], int(parts[1]), parts[2], *numbers)
        except ValueError:
            raise UserError("targeted split: LEVEL, N and START must be integers") from None
    raise UserError(f"unknown split {split!r}; known: dev, test, targeted:GEN:LEVEL:MODE[:N[:START]]")
