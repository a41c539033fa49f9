"""The medphys suite object that the runner finds by name (entry point `physbench.suites`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from physbench.suites.medphys.grade import grade_item

if TYPE_CHECKING:
    from physbench.core.items import Item
    from physbench.grading.types import Grade
    from physbench.models.base import Model
    from physbench.protocols.base import Answer
    from physbench.report.registry import SuiteReport


KIND_ORDER = ("calculation", "worksheet_check", "result_check")


def _stratum(item: "Item") -> tuple[int, bool]:
    """(kind rank, planted): calculations form one stratum, each checking kind two (clean, planted)."""
    kind = KIND_ORDER.index(item.kind) if item.kind in KIND_ORDER else len(KIND_ORDER)
    return kind, item.kind != "calculation" and item.meta.get("planted") is not None


def _apportion(total: int, sizes: list[int]) -> list[int]:
    """Hamilton's largest-remainder shares of `total` in proportion to `sizes` (ties: first stratum)."""
    whole = sum(sizes)
    exact = [total * n / whole for n in sizes]
    shares = [int(e) for e in exact]
    order = sorted(range(len(sizes)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def stratified(items: list["Item"], limit: int) -> list["Item"]:
    """`limit` items stratified by kind (clean and planted checks apart) and by generator and level.

    Each stratum keeps its share of the whole split (largest-remainder apportionment of `limit`), and
    the strata are interleaved in proportion.
    Within a stratum every cell gives its first item before any gives its second, and among cells at
    the same depth the one least represented so far goes first. So a short run holds calculations,
    worksheet checks and result checks with planted and clean checks from as many cells as it can,
    and `limit` = half the test split is exactly its stratified half (the first 10 draws per cell).
    """
    if limit >= len(items):
        return list(items)
    strata: dict[tuple[int, bool], dict[str, list["Item"]]] = {}
    for item in items:
        cells = strata.setdefault(_stratum(item), {})
        cells.setdefault(str(item.meta.get("group")), []).append(item)
    order = {cell: i for i, cell in enumerate(dict.fromkeys(str(i.meta.get("group")) for i in items))}
    keys = sorted(strata)
    size = {k: sum(map(len, strata[k].values())) for k in keys}
    quota = _apportion(limit, [size[k] for k in keys])
    quota_of = dict(zip(keys, quota))
    taken = {k: 0 for k in keys}
    depth = {(k, cell): 0 for k in keys for cell in strata[k]}
    covered = {cell: 0 for cell in order}
    out: list["Item"] = []
    while len(out) < limit:
        k = min((k for k in keys if taken[k] < quota_of[k]), key=lambda k: ((taken[k] + 0.5) / size[k], k))
        cell = min((c for c, q in strata[k].items() if depth[(k, c)] < len(q)),
                   key=lambda c: (depth[(k, c)], covered[c], order[c]))
        out.append(strata[k][cell][depth[(k, cell)]])
        depth[(k, cell)] += 1
        covered[cell] += 1
        taken[k] += 1
    return out


class MedphysSuite:
    """MedPhysBench: items by split, grading by the core grader, and the suite's scripted models."""

    name = "medphys"
    item_options = ("benchmark_version",)  # `--option benchmark_version=1.0`

    def items(self, split: str = "dev", *, key: bytes | None = None, limit: int | None = None,
              **options: Any) -> Iterable["Item"]:
        """The items of `split`: dev, test, test-half or targeted:...; `benchmark_version` ('1.0' or
        '1.1', the default) is recorded in every item's meta. Options of other suites are ignored."""
        from physbench.suites.medphys.splits import split_items

        items = split_items(split, key=key, benchmark_version=options.get("benchmark_version"))
        return items if limit is None else stratified(items, limit)

    def grade(self, item: "Item", answer: "Answer") -> "Grade":
        return grade_item(item, answer.text, answer.finish_reason)

    @property
    def report(self) -> "SuiteReport":
        """The MedPhysBench analyses, sections, figures and viewer fields (imported when a report asks)."""
        from physbench.suites.medphys.report import REPORT

        return REPORT

    def oracle(self, item: "Item") -> str | None:
        """The reply of a perfect model: the reference answer in the format the prompts ask for."""
        from physbench.suites.medphys.scripted import oracle_answer

        return oracle_answer(item)

    def completion_prompt(self, item: "Item") -> Any:
        """Worked examples and the opened answer slot, for base checkpoints (the `local` model)."""
        from physbench.suites.medphys.fewshot import completion_prompt

        return completion_prompt(item)

    def make_model(self, spec: str) -> "Model | None":
        """`mode:NAME` (or `mode:GEN/NAME`): the named error mode where it applies; `nocalc`: the
        no-calculation checker."""
        if spec.startswith("mode:"):
            from physbench.suites.medphys.scripted import ModeModel

            return ModeModel(spec)
        if spec == "nocalc":
            from physbench.suites.medphys.nocalc import NocalcModel

            return NocalcModel()
        return None


SUITE = MedphysSuite()
