"""The medphys splits (seed 000, "Splits and release", "A targeted test of one error").

- dev: public seeds 0-9 of every generator and level (300 calculation, 150 + 150 checking items);
- test: 20 draws per generator and level whose seeds come from a 32-byte secret key by HMAC-SHA256,
  above the public seed range; ids carry a tag, never the seed or the key;
- test-half: the stratified half of the test split fixed in advance for expensive models, the first
  10 draws of every generator and level (300 calculation, 150 + 150 checking items);
- targeted:GEN:LEVEL:MODE[:N[:START]]: the five items per parameter set of the targeted test.
Within each generator and level, correct (even index) and planted (odd index) checks alternate.
Every split is built for one benchmark version (versions.py; 1.1 unless asked otherwise).
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
from physbench.suites.medphys.versions import Version, get_version

DEV_SEEDS = range(10)
TEST_PER_CELL = 20
HALF_PER_CELL = 10  # the stratified half of the test split: its first 10 draws per cell
SPLITS = ("dev", "test", "test-half", "targeted:GEN:LEVEL:MODE[:N[:START]]")
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
               tag: str | None = None, version: Version | str | None = None) -> list[Item]:
    """The calculation item of a draw and, for checking generators, its two checking items."""
    v = get_version(version)
    p = draw(gen, level, seed, legacy=v.legacy_conventions)
    items = [calculation_item(gen.name, level, seed, public=public, tag=tag, params=p, version=v)]
    if gen.checking:
        error = planted_error(gen, level, seed, p, layout=v.varied_layouts) if planted else None
        items += check_items(gen, level, seed, p, error, public=public, tag=tag, version=v)
    return items


def dev_items(version: Version | str | None = None) -> list[Item]:
    return [item for g in available_generators() for level in LEVELS for seed in DEV_SEEDS
            for item in draw_items(g, level, seed, planted=seed % 2 == 1, version=version)]


def _mac(key: bytes, label: str) -> bytes:
    return hmac.new(key, label.encode(), hashlib.sha256).digest()


def heldout_draws(key: bytes, gen: Generator, level: int, per_cell: int = TEST_PER_CELL,
                  legacy: bool = False) -> Iterator[tuple[int, int, str]]:
    """(index, secret seed, id tag) of the cell's first `per_cell` test draws; a draw that repeats a
    dev parameter set is skipped and the next candidate taken, so indices stay dense. The seeds and
    tags do not depend on the benchmark version."""
    dev_hashes = {params_hash(params_to_dict(draw(gen, level, s, legacy))) for s in DEV_SEEDS}
    attempt = 0
    for index in range(per_cell):
        while True:
            label = f"medphys/{gen.name}/L{level}/{index}/{attempt}"
            seed = PUBLIC_SEED_LIMIT + int.from_bytes(_mac(key, "seed/" + label)[:8], "big")
            attempt += 1
            if params_hash(params_to_dict(draw(gen, level, seed, legacy))) not in dev_hashes:
                break
        yield index, seed, _mac(key, "tag/" + label).hex()[:16]


def heldout_items(key: bytes, per_cell: int = TEST_PER_CELL, version: Version | str | None = None) -> list[Item]:
    """The test split (`per_cell` = 20) or its stratified half (`per_cell` = 10) for a 32-byte key."""
    if len(key) != KEY_BYTES:
        raise UserError("the medphys test key must be 32 bytes (raw, or 64 hex digits in the key file)")
    v = get_version(version)
    out = []
    for g in available_generators():
        for level in LEVELS:
            for index, seed, tag in heldout_draws(key, g, level, per_cell, v.legacy_conventions):
                out += draw_items(g, level, seed, planted=index % 2 == 1, public=False, tag=tag, version=v)
    return out


def targeted_items(generator: str, level: int, mode: str, n: int = 20, start: int = 1000,
                   version: Version | str | None = None) -> list[Item]:
    """For the first `n` seeds >= `start` whose planted error is `mode`: the calculation, the planted
    worksheet and result checks, and the correct worksheet and result checks. A planted check and its
    correct twin share `meta["pair_id"]`, which encodes only the seed (seed 000, Section K)."""
    v = get_version(version)
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
        p = draw(gen, level, seed, legacy=v.legacy_conventions)
        error = planted_error(gen, level, seed, p, layout=v.varied_layouts)
        if error.mode == mode:
            pair = f"{v.id_prefix}/{gen.name}/L{level}/draw/{seed}"  # the calculation item derives the same
            out.append(calculation_item(gen.name, level, seed, params=p, version=v))
            out += check_items(gen, level, seed, p, error, id_suffix="/planted", version=v, pair_id=pair)
            out += check_items(gen, level, seed, p, None, id_suffix="/correct", version=v, pair_id=pair)
            found += 1
        seed += 1
    return out


def needs_key(split: str) -> bool:
    """Whether a split is built from the secret key."""
    return split in ("test", "test-half")


def split_items(split: str, *, key: bytes | None = None, benchmark_version: Version | str | None = None,
                **options: Any) -> list[Item]:
    """Items of `split` in a stable order: generator (Table 1 order), level, seed, kind.

    `benchmark_version` is '1.0' or '1.1' (default); other options are not known to this suite.
    """
    if options:
        raise UserError(f"unknown medphys option(s): {', '.join(sorted(options))}; known: benchmark_version")
    v = get_version(benchmark_version)
    if split == "dev":
        return dev_items(v)
    if needs_key(split):
        if key is None:
            raise UserError(f"the {split} split needs --key-file")
        return heldout_items(key, TEST_PER_CELL if split == "test" else HALF_PER_CELL, v)
    if split.startswith("targeted:"):
        parts = split.split(":")[1:]
        if len(parts) not in (3, 4, 5):
            raise UserError("targeted split: targeted:GEN:LEVEL:MODE[:N[:START]]")
        try:
            numbers = [int(x) for x in parts[3:]]
            level = int(parts[1])
        except ValueError:
            raise UserError("targeted split: LEVEL, N and START must be integers") from None
        return targeted_items(parts[0], level, parts[2], *numbers, version=v)
    raise UserError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
