"""Worksheet-check and result-check items built from the same draw as the calculation item.

Both checking prompts carry, word for word, every input and convention of the calculation prompt
(its text without the closing request), state the tolerance, and ask for the seed's JSON verdict.
A result check of benchmark version 1.1 also says which quantity the reported number is (the seed's
v1.1 correction); version 1.0 shows the number alone, as the paper's items did.
"""

from __future__ import annotations

from typing import Any

from physbench.core.items import Item, Message
from physbench.suites.medphys.base import Generator, params_to_dict
from physbench.suites.medphys.items import SUITE_NAME, base_meta, item_id
from physbench.suites.medphys.reference import MedphysReference
from physbench.suites.medphys.planting import Planted, Worksheet, layout_variant, planted_sheet, sig_text, write_sheet
from physbench.suites.medphys.text import SYSTEM_CHECK
from physbench.suites.medphys.versions import Version, get_version


def band_text(band: float) -> str:
    """0.005 -> '0.5%'."""
    return f"{band * 100:g}%"


def task_name(gen: Generator) -> str:
    """The generator's clinical task in running text ('CT patient dose estimate' keeps its capitals)."""
    title = gen.title
    return title[0].lower() + title[1:] if title[1:2].islower() else title


def inputs_text(gen: Generator, level: int, p: Any) -> str:
    """The calculation prompt without its closing request (its last paragraph)."""
    prompt = gen.level(level).prompt(p)
    body, _, last = prompt.rpartition("\n\n")
    if not last.startswith("Calculate "):
        raise ValueError(f"{gen.name} L{level}: the calculation prompt must end with its request paragraph")
    return body


def worksheet_prompt(gen: Generator, level: int, p: Any, sheet: Worksheet) -> str:
    return "\n\n".join([
        f"A colleague has completed the worksheet below ({task_name(gen)}) and asks you to check it before "
        "it is used clinically.",
        "Inputs:",
        inputs_text(gen, level, p),
        "Worksheet:",
        sheet.render(),
        "Check every step: the formula as written, the numbers substituted into it, and the arithmetic. "
        "Decide whether the worksheet is correct. Rounding differences are not errors: a final result within "
        f"±{band_text(gen.band)} of the correct value counts as correct. If the worksheet is not correct, give "
        "the number of the first step that contains an error and the correct final result with its unit. "
        'Answer with a JSON object {"verdict": "correct" or "incorrect", "first_error_step": an integer or '
        'null, "corrected_result": "value unit" or null}.',
    ])


def result_prompt(gen: Generator, level: int, p: Any, shown: float, names_quantity: bool = True) -> str:
    spec = gen.level(level)
    unit = spec.unit(p)
    what = f"The colleague's result for {spec.quantity(p)}" if names_quantity else "The colleague's reported result"
    return "\n\n".join([
        f"A colleague has completed the calculation below ({task_name(gen)}) and reports only the final "
        "result. Check the result before it is used clinically.",
        "Inputs:",
        inputs_text(gen, level, p),
        f"{what}: {sig_text(shown)} {unit}".rstrip(),
        "Decide whether the reported result is correct. Rounding differences are not errors: a result within "
        f"±{band_text(gen.band)} of the correct value counts as correct. If it is not correct, give the "
        'correct result with its unit. Answer with a JSON object {"verdict": "correct" or "incorrect", '
        '"corrected_result": "value unit" or null}.',
    ])


def check_items(gen: Generator, level: int, seed: int, p: Any, planted: Planted | None, *, public: bool = True,
                tag: str | None = None, id_suffix: str = "", version: Version | str | None = None,
                pair_id: str | None = None) -> tuple[Item, Item]:
    """The worksheet-check and result-check items of one draw, with or without its planted error.

    `public=False` hides the seed behind `tag` (test split); `planted` must be computed from the
    same draw and version. Both items' reference value is the correct answer; `shown_value` is the
    colleague's final result as shown. `pair_id` (targeted tests) names the parameter set that a
    planted item shares with its correct twin.
    """
    spec = gen.level(level)
    v = get_version(version)
    reference_value = spec.solve(p)
    if planted is None:
        sheet = write_sheet(gen, level, p, variant=layout_variant(gen, level, seed) if v.varied_layouts else None)
    else:
        sheet = planted_sheet(gen, level, p, planted)
    shown = float(sig_text(sheet.final))
    params = params_to_dict(p)
    out = []
    for kind, text in (("worksheet_check", worksheet_prompt(gen, level, p, sheet)),
                       ("result_check", result_prompt(gen, level, p, shown, v.result_names_quantity))):
        meta = base_meta(gen, level, seed if public else None, p, v)
        meta["planted"] = planted.to_meta() if planted else None
        meta["n_steps"] = len(sheet.steps)
        if pair_id is not None:
            meta["pair_id"] = pair_id
        out.append(Item(
            id=item_id(gen.name, level, kind, seed if public else None, tag, v) + id_suffix,
            suite=SUITE_NAME,
            kind=kind,
            messages=(Message("system", SYSTEM_CHECK), Message("user", text)),
            reference=MedphysReference(
                value=reference_value, unit=spec.unit(p), band=gen.band, planted=planted is not None,
                first_error_step=planted.step if planted and kind == "worksheet_check" else None,
                shown_value=shown).to_dict(),
            params=params,
            meta=meta,
        ))
    return out[0], out[1]
