"""The viewer's extra static files: the math script and the KaTeX it draws with, shipped in the package
(`vendor/katex`, MIT) so that math renders offline. Served by path from a fixed table; nothing else
on disk can be reached through it."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

KATEX = "vendor/katex"
FONTS = ("AMS-Regular", "Caligraphic-Bold", "Caligraphic-Regular", "Fraktur-Bold", "Fraktur-Regular", "Main-Bold",
         "Main-BoldItalic", "Main-Italic", "Main-Regular", "Math-BoldItalic", "Math-Italic", "SansSerif-Bold",
         "SansSerif-Italic", "SansSerif-Regular", "Script-Regular", "Size1-Regular", "Size2-Regular",
         "Size3-Regular", "Size4-Regular", "Typewriter-Regular")
JS, CSS, WOFF2 = "text/javascript; charset=utf-8", "text/css; charset=utf-8", "font/woff2"
ROUTES: dict[str, tuple[str, str]] = {  # URL path -> (content type, file in physbench.report)
    "/math.js": (JS, "viewer_math.js"),
    f"/{KATEX}/katex.min.js": (JS, f"{KATEX}/katex.min.js"),
    f"/{KATEX}/katex.min.css": (CSS, f"{KATEX}/katex.min.css"),
    **{f"/{KATEX}/fonts/KaTeX_{name}.woff2": (WOFF2, f"{KATEX}/fonts/KaTeX_{name}.woff2") for name in FONTS},
}
HEAD = ('<link rel="stylesheet" href="/vendor/katex/katex.min.css">\n'
        '<script src="/vendor/katex/katex.min.js" defer></script>\n<script src="/math.js" defer></script>\n')


@lru_cache(maxsize=None)
def vendor_asset(path: str) -> tuple[str, bytes] | None:
    """(content type, bytes) of a file the table names, or None for any other path."""
    entry = ROUTES.get(path)
    if entry is None:
        return None
    content_type, name = entry
    return content_type, (resources.files("physbench.report") / name).read_bytes()
