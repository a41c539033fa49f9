"""`--limit N` on a medphys split: the stratified choice of N items, built without the rest.

The choice depends only on each item's stratum (kind, and planted or clean for checks) and cell
(generator and level), which a split's draw plan knows before any item is built. So the same
`stratified_indices` picks from the labels of the plan, and only the chosen draws are generated:
`--limit 1` builds one draw, not the 600 items of the dev split.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.suites.medphys.splits import PlannedDraw

KIND_ORDER = ("calculation", "worksheet_check", "result_check")

Stratum = tuple[int, bool]
Label = tuple[Stratum, str]  # (stratum, cell)


def stratum(kind: str, planted: bool) -> Stratum:
    """(kind rank, planted): calculations form one stratum, each checking kind two (clean, planted)."""
    rank = KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)
    return rank, kind != "calculation" and planted


def item_label(item: "Item") -> Label:
    """The stratum and cell of a built item."""
    return stratum(item.kind, item.meta.get("planted") is not None), str(item.meta.get("group"))


def _apportion(total: int, sizes: list[int]) -> list[int]:
    """Hamilton's largest-remainder shares of `total` in proportion to `sizes` (ties: first stratum)."""
    whole = sum(sizes)
    exact = [total * n / whole for n in sizes]
    shares = [int(e) for e in exact]
    order = sorted(range(len(sizes)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def stratified_indices(labels: Sequence[Label], limit: int) -> list[int]:
    """Positions of `limit` items stratified by kind (clean and planted checks apart) and by cell.

    Each stratum keeps its share of the whole split (largest-remainder apportionment of `limit`), and
    the strata are interleaved in proportion.
    Within a stratum every cell gives its first item before any gives its second, and among cells at
    the same depth the one least represented so far goes first. So a short run holds calculations,
    worksheet checks and result checks with planted and clean checks from as many cells as it can,
    and `limit` = half the test split is exactly its stratified half (the first 10 draws per cell).
    """
    if limit >= len(labels):
        return list(range(len(labels)))
    strata: dict[Stratum, dict[str, list[int]]] = {}
    for position, (key, cell) in enumerate(labels):
        strata.setdefault(key, {}).setdefault(cell, []).append(position)
    order = {cell: i for i, cell in enumerate(dict.fromkeys(cell for _, cell in labels))}
    keys = sorted(strata)
    size = {k: sum(map(len, strata[k].values())) for k in keys}
    quota_of = dict(zip(keys, _apportion(limit, [size[k] for k in keys])))
    taken = {k: 0 for k in keys}
    depth = {(k, cell): 0 for k in keys for cell in strata[k]}
    covered = {cell: 0 for cell in order}
    out: list[int] = []
    while len(out) < limit:
        k = min((k for k in keys if taken[k] < quota_of[k]), key=lambda k: ((taken[k] + 0.5) / size[k], k))
        cell = min((c for c, q in strata[k].items() if depth[(k, c)] < len(q)),
                   key=lambda c: (depth[(k, c)], covered[c], order[c]))
        out.append(strata[k][cell][depth[(k, cell)]])
        depth[(k, cell)] += 1
        covered[cell] += 1
        taken[k] += 1
    return out


def stratified(items: list["Item"], limit: int) -> list["Item"]:
    """`limit` built items chosen by `stratified_indices`, in its order."""
    return [items[i] for i in stratified_indices([item_label(i) for i in items], limit)]


def plan_labels(plan: Sequence["PlannedDraw"]) -> tuple[list[Label], list[tuple[int, int]]]:
    """The label of every item the plan would build, and where it lies: (draw position, item position)."""
    labels: list[Label] = []
    where: list[tuple[int, int]] = []
    for d, draw in enumerate(plan):
        for k, kind in enumerate(draw.kinds()):
            labels.append((stratum(kind, draw.planted), draw.cell))
            where.append((d, k))
    return labels, where


def choose_draws(plan: Sequence["PlannedDraw"], limit: int) -> tuple[list[int], list[tuple[int, int]]]:
    """(positions of the draws to build, in plan order; (draw position, item position) of each chosen
    item, in the stratified order)."""
    labels, where = plan_labels(plan)
    chosen = [where[i] for i in stratified_indices(labels, limit)]
    return sorted({d for d, _ in chosen}), chosen
