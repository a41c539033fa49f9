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
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from physbench.core.caches import cached
from physbench.core.errors import UserError
from physbench.core.files import read_capped
from physbench.core.hashing import params_hash
from physbench.core.items import Item
from physbench.suites.medphys.base import Generator, draw, params_to_dict
from physbench.suites.medphys.checks import check_items
from physbench.suites.medphys.generators import LEVELS, available_generators, get_generator
from physbench.suites.medphys.items import calculation_item, group_name
from physbench.suites.medphys.planting import planted_error
from physbench.suites.medphys.selection import choose_draws, stratified
from physbench.suites.medphys.versions import Version, get_version

DEV_SEEDS = range(10)
TEST_PER_CELL = 20
HALF_PER_CELL = 10  # the stratified half of the test split: its first 10 draws per cell
SPLITS = ("dev", "test", "test-half", "targeted:GEN:LEVEL:MODE[:N[:START]]")
PUBLIC_SEED_LIMIT = 10**9  # every public seed (dev, audits, baselines, targeted tests) lies below this
KEY_BYTES = 32
KEY_FILE_MAX_BYTES = 4096  # a key file is 32 bytes or 64 hex digits; /dev/zero is refused, not read for ever
ITEM_SOURCES = ("core", "suites/medphys")  # the code that builds items: a change there rebuilds the item cache


def read_key(path: str | Path | None) -> bytes:
    """A 32-byte key from a file holding 32 raw bytes or 64 hex digits."""
    if path is None:
        raise UserError("the test split needs --key-file (a file with a 32-byte key, raw or as 64 hex digits)")
    raw = read_capped(path, "the key file", KEY_FILE_MAX_BYTES)  # its errors never name the file
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


@dataclass(frozen=True)
class PlannedDraw:
    """One draw of a split before it is generated: generator, level, its number (the public seed, or
    the index within its cell for the keyed splits) and whether its checks show the planted error."""

    gen: Generator
    level: int
    number: int
    planted: bool

    @property
    def cell(self) -> str:
        return group_name(self.gen.name, self.level)

    def kinds(self) -> tuple[str, ...]:
        """The kinds of the items `draw_items` builds from this draw, in its order."""
        return ("calculation", "worksheet_check", "result_check") if self.gen.checking else ("calculation",)


def dev_plan() -> list[PlannedDraw]:
    return [PlannedDraw(g, level, seed, seed % 2 == 1)
            for g in available_generators() for level in LEVELS for seed in DEV_SEEDS]


def heldout_plan(per_cell: int) -> list[PlannedDraw]:
    return [PlannedDraw(g, level, index, index % 2 == 1)
            for g in available_generators() for level in LEVELS for index in range(per_cell)]


def build_draws(plan: Sequence[PlannedDraw], key: bytes | None, v: Version) -> list[list[Item]]:
    """The items of each planned draw: public seeds without a key, the key's secret seeds with one
    (in each cell only as many secret seeds are derived as the deepest planned draw needs)."""
    if key is None:
        return [draw_items(d.gen, d.level, d.number, planted=d.planted, version=v) for d in plan]
    if len(key) != KEY_BYTES:
        raise UserError("the medphys test key must be 32 bytes (raw, or 64 hex digits in the key file)")
    depth: dict[tuple[str, int], int] = {}  # (generator, level) -> secret seeds needed
    for d in plan:
        depth[(d.gen.name, d.level)] = max(depth.get((d.gen.name, d.level), 0), d.number + 1)
    secret = {(name, level): list(heldout_draws(key, get_generator(name), level, n, v.legacy_conventions))
              for (name, level), n in depth.items()}
    out = []
    for d in plan:
        _, seed, tag = secret[(d.gen.name, d.level)][d.number]
        out.append(draw_items(d.gen, d.level, seed, planted=d.planted, public=False, tag=tag, version=v))
    return out


def dev_items(version: Version | str | None = None) -> list[Item]:
    return [item for items in build_draws(dev_plan(), None, get_version(version)) for item in items]


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
    return [item for items in build_draws(heldout_plan(per_cell), key, get_version(version)) for item in items]


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
                limit: int | None = None, **options: Any) -> list[Item]:
    """Items of `split` in a stable order: generator (Table 1 order), level, seed, kind; with `limit`,
    that many stratified by kind and cell (selection.py), and only their draws are generated.

    `benchmark_version` is '1.0' or '1.1' (default); other options are not known to this suite.
    """
    if options:
        raise UserError(f"unknown medphys option(s): {', '.join(sorted(options))}; known: benchmark_version")
    v = get_version(benchmark_version)
    if key is not None or needs_key(split):  # items of secret seeds never go to disk
        return _build_split(split, key, v, limit)
    return cached("medphys-items", sources=ITEM_SOURCES, request={"split": split, "version": v.name, "limit": limit},
                  build=lambda: _build_split(split, None, v, limit),
                  encode=lambda items: [item.to_json() for item in items],
                  decode=lambda texts: [Item.from_canonical_json(text) for text in texts])


def _build_split(split: str, key: bytes | None, v: Version, limit: int | None) -> list[Item]:
    if split.startswith("targeted:"):
        items = _targeted(split, v)
        return items if limit is None else stratified(items, limit)
    if split == "dev":
        plan = dev_plan()
    elif needs_key(split):
        if key is None:
            raise UserError(f"the {split} split needs --key-file")
        plan = heldout_plan(TEST_PER_CELL if split == "test" else HALF_PER_CELL)
    else:
        raise UserError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    if limit is None:
        return [item for items in build_draws(plan, key, v) for item in items]
    positions, chosen = choose_draws(plan, limit)
    built = dict(zip(positions, build_draws([plan[p] for p in positions], key, v)))
    return [built[d][k] for d, k in chosen]


def _targeted(split: str, v: Version) -> list[Item]:
    """targeted:GEN:LEVEL:MODE[:N[:START]] (its draws are found by search, so it is built whole)."""
    parts = split.split(":")[1:]
    if len(parts) not in (3, 4, 5):
        raise UserError("targeted split: targeted:GEN:LEVEL:MODE[:N[:START]]")
    try:
        numbers = [int(x) for x in parts[3:]]
        level = int(parts[1])
    except ValueError:
        raise UserError("targeted split: LEVEL, N and START must be integers") from None
    return targeted_items(parts[0], level, parts[2], *numbers, version=v)
