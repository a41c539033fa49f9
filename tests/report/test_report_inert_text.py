"""Text from models and servers is inert in the reports (issue 33, item 8): in report.md no
`![t](http://...)` loads an image, no `[c](javascript:...)` is a link and no tag is raw HTML; in
report.html every such text is escaped under a policy that loads nothing from outside."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from physbench.report.markdown import md_cell, md_text

markdown_it = pytest.importorskip("markdown_it")

HOSTILE = ("![t](http://evil.example/pixel.png) [c](javascript:alert(1)) <img src=x onerror=alert(1)> "
           "[r]: http://evil.example \\[d\\](http://evil.example/2) <http://evil.example/3> [e][r]")


def _render(markdown: str) -> str:
    """CommonMark HTML with GFM tables, every link destination allowed (so that a live javascript: link shows)."""
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    md.validateLink = lambda url: True
    return md.render(markdown)


def _live(rendered: str) -> list[str]:
    return re.findall(r"<(?:a|img|script|iframe)\b[^>]*>|<[a-z]+ [^>]*on\w+=", rendered)


def test_hostile_text_renders_as_its_own_characters_with_no_link_image_or_tag() -> None:
    cell = _render(f"| h |\n|---|\n| {md_cell(HOSTILE)} |\n")
    text = _render(md_text(HOSTILE) + "\n\n[r]: http://evil.example\n")
    for rendered in (cell, text):
        assert _live(rendered) == [], rendered
    assert html.unescape(re.sub(r"<[^>]+>", "", text)).strip() == HOSTILE


# characters of Markdown's link, image, escape and HTML syntax (no emphasis, code or list markers,
# which change formatting but not characters)
SYNTAX = st.lists(st.sampled_from(["[", "]", "(", ")", "!", "\\", "<", ">", ":", " ", "x", "javascript:", "http://e/",
                                   "img src=x onerror=f()", "\"", "'"]), max_size=24).map("".join)
DESTINATIONS = st.sampled_from(["javascript:f()", "http://e/p.png", "x"])
# a link or an image among noise
LINKS = st.tuples(SYNTAX, st.sampled_from(["", "!"]), SYNTAX, DESTINATIONS, SYNTAX).map(
    lambda t: f"{t[0]}{t[1]}[{t[2]}]({t[3]}){t[4]}")
HOSTILE_TEXT = st.one_of(SYNTAX, LINKS)


@given(HOSTILE_TEXT)
def test_running_text_never_becomes_a_link_image_or_tag(text: str) -> None:
    assert _live(_render(md_text(text))) == []


@given(HOSTILE_TEXT)
def test_a_table_cell_never_becomes_a_link_and_keeps_its_characters(text: str) -> None:
    rendered = _render(f"| h |\n|---|\n| {md_cell(text)} |\n")
    assert _live(rendered) == []
    cell = re.search(r"<td>(.*?)</td>", rendered, re.DOTALL)
    shown = html.unescape(re.sub(r"<[^>]+>", "", cell.group(1))) if cell else ""
    assert shown.strip() == " ".join(text.split())


def test_server_text_in_a_run_is_inert_in_report_md_and_report_html(cli, mock_server, tmp_path):
    """A server's error message (kept among the run's most frequent errors) carrying an image, a
    javascript: link and a tag: report.md renders none of them live, report.html escapes them."""
    server = mock_server(faults=[{"match": "", "sequence": ["400"]}], error_message=HOSTILE)
    run = tmp_path / "run"
    r = cli("eval", "medphys", "--limit", "1", "--model", "openai/m", "--base-url", server.base_url,
            "--run-dir", str(run), "--max-attempts", "1", "--quiet")
    assert r.returncode == 1, r.stderr  # nothing graded
    out = tmp_path / "rep"
    rep = cli("report", str(run), "--out", str(out))
    assert rep.returncode == 0, rep.stderr
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "evil.example" in markdown  # the error is reported...
    hostile = [tag for tag in _live(_render(markdown)) if "evil" in tag or "javascript" in tag or "onerror" in tag]
    assert hostile == []  # ...as text (the report's own figures are images of its own files)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "evil.example" in page
    assert re.search(r"<img[^>]+src=\"(?!data:)", page) is None
    assert re.search(r"href=\"javascript", page, re.IGNORECASE) is None and "onerror=alert" not in page.replace(
        "onerror=alert(1)&gt;", "")
    assert "default-src 'none'" in page
