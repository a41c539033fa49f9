"""The viewer's page, script and style, served from memory (no file, no network, no third-party code).

The script builds every element with `textContent`, never `innerHTML`, so text from a run (model
output, item text, labels) is shown as text and cannot inject markup; the server's Content
Security Policy only allows this script and this style.
"""

from importlib import resources

from physbench.report.viewer_vendor import HEAD as MATH_HEAD  # KaTeX and the math script, after app.js

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>physbench responses</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
""" + MATH_HEAD + """</head>
<body data-state="loading">
<header>
  <h1>physbench responses</h1>
  <form id="filters" autocomplete="off">
    <button type="button" id="reset">clear filters</button>
  </form>
  <p id="count" data-matched="" data-shown="">loading…</p>
  <details><summary>what the outcomes mean</summary><dl id="legend"></dl></details>
</header>
<main>
  <section id="list">
    <table id="responses">
      <thead><tr id="head"><th>#</th><th>model</th><th>item</th><th title="repeat of the item within its run">rep</th><th>kind</th><th>outcome</th><th>answer read</th>
      </tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <button type="button" id="more" hidden>show more</button>
  </section>
  <section id="detail" aria-live="polite"><p class="hint">Select a response to see it beside its item.</p></section>
</main>
</body>
</html>
"""

SCRIPT = (resources.files("physbench.report") / "viewer.js").read_text(encoding="utf-8")  # the page's only script

STYLE = """
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d232a; margin: 0; }
header { padding: 0.8em 1.2em; background: #f3f5f7; border-bottom: 1px solid #d5dbe1; }
h1 { font-size: 1.3em; margin: 0 0 0.5em; }
form { display: flex; flex-wrap: wrap; gap: 0.6em 1.2em; align-items: center; }
select { max-width: 18em; }
#count { margin: 0.6em 0 0; color: #3b4550; }
main { display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr); gap: 1em; padding: 1em 1.2em; }
#list { overflow: auto; max-height: calc(100vh - 9em); }
table { border-collapse: collapse; font-size: 0.9em; width: 100%; }
th, td { border-bottom: 1px solid #e3e7eb; padding: 0.2em 0.5em; text-align: left; vertical-align: top;
         white-space: nowrap; }
td.wrap { white-space: normal; overflow-wrap: break-word; min-width: 5em; max-width: 22em; }
td.id, td.name { white-space: normal; overflow-wrap: normal; word-break: normal; max-width: 16em; }
td.id { min-width: 7em; }
td.num { text-align: right; }
th { background: #fff; position: sticky; top: 0; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: #eef3f8; }
tbody tr.selected { background: #dbe8f5; }
td.outcome.correct { color: #1f7a3a; }
td.outcome.wrong, td.outcome.format_error, td.outcome.unparsable { color: #a4262c; }
#detail { overflow: auto; max-height: calc(100vh - 9em); }
#detail h2 { font-size: 1.1em; overflow-wrap: anywhere; }
.columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1em; }
.block { margin-bottom: 0.8em; }
.block h3 { font-size: 0.95em; margin: 0.6em 0 0.3em; color: #3b4550; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f8fafb; border: 1px solid #e3e7eb;
      padding: 0.5em; margin: 0; font-size: 0.88em; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1em 0.8em; margin: 0; font-size: 0.9em; }
dt { color: #56606b; }
dd { margin: 0; overflow-wrap: anywhere; }
.hint { color: #56606b; font-style: italic; }
.markdown { background: #f8fafb; border: 1px solid #e3e7eb; padding: 0.2em 0.7em; font-size: 0.92em;
            overflow-wrap: anywhere; }
.markdown p { margin: 0.4em 0; }
.markdown h4 { margin: 0.6em 0 0.2em; font-size: 1em; }
.markdown table.md { width: auto; margin: 0.4em 0; }
.markdown table.md th { position: static; background: #eef1f4; }
.markdown code { background: #eef1f4; padding: 0 0.2em; }
button.toggle { font-size: 0.8em; margin: 0 0 0 0.6em; padding: 0 0.4em; }
dl.nested { grid-template-columns: minmax(4em, max-content) minmax(10em, 1fr); font-size: 1em; }
dd:has(> dl.nested) { grid-column: 1 / -1; padding-left: 1.2em; border-left: 2px solid #e3e7eb; }
dt { overflow-wrap: anywhere; }
#legend { margin: 0.4em 0 0; font-size: 0.88em; color: #3b4550; }
#legend dt { font-family: ui-monospace, monospace; }
#legend dt.suite { font-family: inherit; font-weight: 600; margin-top: 0.4em; color: #1d232a; }
@media (max-width: 1250px) {  /* list above detail: every column of the list stays in view */
  main { grid-template-columns: minmax(0, 1fr); }
  #list { max-height: 55vh; }
  #detail { max-height: none; }
}
button { margin-top: 0.4em; }
"""
