"""Benchmark versions of the medphys suite (seed 000, "Future work" and Sec. 4.2).

- `medphys@1.0`: the paper's design. Worksheets have one fixed layout (so the targeted test's correct
  worksheets have 11 steps and its planted ones 10); result checks show only the colleague's number;
  level-3 NCRP 151 items state the two-source rule with the TVL of the component that needs the
  thicker barrier and leave U for patient scatter unstated; the level-3 MU prompt does not state 4A/P.
- `medphys@1.1` (the default): the v1.1 corrections (result checks name the reported quantity; the
  NCRP 151 level-3 rule takes the HVL of the leakage radiation and states U = 1) and correct
  worksheets that vary in layout and length.

Items of 1.1 keep the ids `medphys/...`; items of 1.0 carry `medphys@1.0/...`, so the two never
collide and stores of 1.1 runs resume unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from physbench.core.errors import UserError

SUITE = "medphys"


@dataclass(frozen=True)
class Version:
    """What one benchmark version changes in the items it builds."""

    name: str  # "1.0", "1.1"
    varied_layouts: bool  # correct worksheets vary in layout (seed's future work)
    result_names_quantity: bool  # result checks say which quantity the number is (v1.1 correction)
    legacy_conventions: bool  # the v1.0 wording and rules (NCRP 151 L3 rule, MU L3 prompt)

    @property
    def label(self) -> str:
        return f"{SUITE}@{self.name}"

    @property
    def id_prefix(self) -> str:
        """The first part of every item id of this version."""
        return SUITE if self.name == DEFAULT_VERSION else self.label


VERSIONS: dict[str, Version] = {
    "1.0": Version("1.0", varied_layouts=False, result_names_quantity=False, legacy_conventions=True),
    "1.1": Version("1.1", varied_layouts=True, result_names_quantity=True, legacy_conventions=False),
}
DEFAULT_VERSION = "1.1"


def get_version(name: str | Version | None = None) -> Version:
    """A version by name: '1.1', 'v1.1' or 'medphys@1.1' (None: the default)."""
    if isinstance(name, Version):
        return name
    text = DEFAULT_VERSION if name is None else str(name).strip()
    for prefix in (f"{SUITE}@", "v"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    if text not in VERSIONS:
        raise UserError(f"unknown medphys benchmark version {name!r}; known: "
                        + ", ".join(f"{v} ({SUITE}@{v})" for v in VERSIONS))
    return VERSIONS[text]
