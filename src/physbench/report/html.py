"""The full report as one self-contained HTML page: inline CSS, figures as base64 PNG, no scripts.

Every cell, title and note is escaped by the template engine (autoescape), and a Content Security
Policy forbids loading anything from outside the page, so the file opens offline and run text
cannot inject markup.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from physbench.report.tables import Section

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _anchor(key: str, used: set[str]) -> str:
    base = re.sub(r"[^a-z0-9-]+", "-", key.lower()).strip("-") or "section"
    anchor, n = base, 2
    while anchor in used:
        anchor, n = f"{base}-{n}", n + 1
    used.add(anchor)
    return anchor


def render_html(sections: Sequence[Section], figures: Mapping[str, bytes], models: Sequence[Any],
                captions: Mapping[str, str] | None = None) -> str:
    """The page for `sections`; a section's figure keys that `figures` lacks are skipped."""
    import jinja2

    from physbench import __version__
    names = captions or {}
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    used: set[str] = set()
    view = []
    for s in sections:
        figs = [{"caption": names.get(k, k), "data": base64.b64encode(figures[k]).decode("ascii")}
                for k in s.figures if k in figures]
        view.append({"anchor": _anchor(s.key, used), "title": s.title, "note": s.note, "text": s.text,
                     "tables": s.tables, "figures": figs, "level": 3 if s.level >= 3 else 2})
    full = {m["label"]: m["full_label"] for m in models
            if isinstance(m, Mapping) and m.get("full_label") and m["full_label"] != m.get("label")}
    return env.get_template("report.html.j2").render(sections=view, models=models, version=__version__, full=full)
