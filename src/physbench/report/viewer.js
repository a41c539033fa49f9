"use strict";
let FILTERS = ["model", "kind", "outcome"];  // replaced by the server's list (suites add their own)
let COLUMNS = [];  // [key, title] of the suites' extra list columns
let OUTCOMES = {};  // outcome -> its one-line meaning, from the server
let FULL = {};  // a run's short label -> its whole text (shown on hover)
const PAGE_SIZE = 200;
const state = {offset: 0, matched: 0, shown: 0, selected: null, chosen: null, generation: 0};

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

async function getJSON(url) {
  const response = await fetch(url, {headers: {"Accept": "application/json"}});
  if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
  return response.json();
}

function query() {
  const params = new URLSearchParams();
  for (const name of FILTERS) {
    const value = document.getElementById("f-" + name).value;
    if (value) params.set(name, value);
  }
  return params;
}

function fillFilters(meta) {  // one select per filter the server names, then the extra column heads
  FILTERS = meta.filters;
  COLUMNS = meta.columns || [];
  OUTCOMES = meta.outcomes || {};
  for (const run of meta.runs || []) if (run.full_label && run.full_label !== run.label) FULL[run.label] = run.full_label;
  const form = document.getElementById("filters");
  const reset = document.getElementById("reset");
  const facets = meta.facets;
  for (const name of FILTERS) {
    const label = el("label", name + " ");
    const select = el("select");
    select.id = "f-" + name;
    select.name = name;
    const all = el("option", "all");
    all.value = "";
    select.appendChild(all);
    label.appendChild(select);
    form.insertBefore(label, reset);
    for (const value of facets[name] || []) {
      const option = el("option", value);
      option.value = value;
      if (name === "outcome" && OUTCOMES[value]) option.title = OUTCOMES[value];
      select.appendChild(option);
    }
    select.addEventListener("change", reload);
  }
  document.getElementById("reset").addEventListener("click", () => {
    for (const name of FILTERS) document.getElementById("f-" + name).value = "";
    reload();
  });
}

function showCount(total) {
  const count = document.getElementById("count");
  count.dataset.matched = String(state.matched);
  count.dataset.shown = String(state.shown);
  count.textContent = "showing " + state.shown + " of " + state.matched + " matching responses (" + total + " in all)";
  document.getElementById("more").hidden = state.shown >= state.matched;
}

function idNode(text, cls) {  // an id or name that breaks only after "/", "-" or "_", never inside a token
  const td = el("td", null, cls || "id");
  const pieces = String(text).split(/(?<=[\/_-])/);
  pieces.forEach((piece, i) => {
    td.appendChild(document.createTextNode(piece));
    if (i < pieces.length - 1) td.appendChild(document.createElement("wbr"));
  });
  td.title = String(text);
  return td;
}

function addRow(row) {
  const tr = el("tr", null, row.passed ? "pass" : "fail");
  tr.dataset.id = String(row.id);
  const extra = COLUMNS.map(([key]) => Array.isArray(row[key]) ? row[key].join(", ") : (row[key] ?? ""));
  const model = el("td", row.model, "wrap");
  if (FULL[row.model]) model.title = FULL[row.model];
  const outcome = el("td", row.outcome, "outcome " + row.outcome);
  if (OUTCOMES[row.outcome]) outcome.title = OUTCOMES[row.outcome];
  tr.append(el("td", row.id), model, idNode(row.item), el("td", row.repeat + 1, "num"), idNode(row.kind, "name"),
            outcome, el("td", row.answer, "wrap"), ...extra.map(value => idNode(value, "name")));
  tr.addEventListener("click", () => showDetail(row.id, tr));
  document.getElementById("rows").appendChild(tr);
}

async function loadPage(generation) {
  const params = query();
  params.set("offset", String(state.offset));
  params.set("limit", String(PAGE_SIZE));
  const data = await getJSON("/api/responses?" + params.toString());
  if (generation !== state.generation) return;  // a newer filter change took over
  data.rows.forEach(addRow);
  state.matched = data.matched;
  state.offset += data.rows.length;
  state.shown = state.offset;
  showCount(data.total);
}

function remember() {  // the filters and the chosen response in the address, so that a view can be linked
  const params = query();
  if (state.chosen !== null) params.set("response", String(state.chosen));
  const search = params.toString();
  history.replaceState(null, "", search ? "?" + search : location.pathname);
}

function recall() {  // the filters and the response an address names
  const params = new URLSearchParams(location.search);
  for (const name of FILTERS) {
    const select = document.getElementById("f-" + name);
    const value = params.get(name);
    if (value && [...select.options].some(o => o.value === value)) select.value = value;
  }
  const chosen = params.get("response");
  return chosen !== null && /^\d+$/.test(chosen) ? Number(chosen) : null;
}

async function reload() {
  remember();
  state.generation += 1;
  const generation = state.generation;
  document.body.dataset.state = "loading";
  state.offset = 0;
  state.shown = 0;
  document.getElementById("rows").replaceChildren();
  try {
    await loadPage(generation);
  } catch (err) {
    document.getElementById("count").textContent = "could not load responses: " + err.message;
  }
  if (generation === state.generation) document.body.dataset.state = "ready";
}

function valueNode(value) {  // a stored value as elements: lists joined, objects as nested definitions
  if (value === null || value === undefined) return el("span", "–");
  if (Array.isArray(value) && value.every(v => v === null || typeof v !== "object")) {
    return el("span", value.length ? value.map(v => v === null ? "–" : String(v)).join(", ") : "none");
  }
  if (typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v]) : Object.entries(value);
    if (!entries.length) return el("span", "none");
    const dl = el("dl", null, "nested");
    for (const [k, v] of entries) {
      dl.appendChild(el("dt", k));
      const dd = el("dd");
      dd.appendChild(valueNode(v));
      dl.appendChild(dd);
    }
    return dl;
  }
  return el("span", value);
}

function definitions(title, pairs) {
  const box = el("div", null, "block");
  box.appendChild(el("h3", title));
  const dl = el("dl");
  for (const [key, value] of pairs) {
    if (value === undefined) continue;
    const dt = el("dt", key);
    if (key === "outcome" && OUTCOMES[value]) dt.title = OUTCOMES[value];
    dl.appendChild(dt);
    const dd = el("dd");
    dd.appendChild(valueNode(value));
    if (key === "outcome" && OUTCOMES[value]) dd.appendChild(el("span", " (" + OUTCOMES[value] + ")", "hint"));
    dl.appendChild(dd);
  }
  box.appendChild(dl);
  return box;
}

const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                 "#bcbd22", "#17becf"];

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function chartBlock(title, c) {  // line series {name, x, y} on shared axes, drawn as inline SVG
  const box = el("div", null, "block");
  box.appendChild(el("h3", title));
  const series = (c.series || []).filter(s => s.x && s.y && s.x.length && s.x.length === s.y.length);
  if (!series.length) { box.appendChild(el("p", "no data", "hint")); return box; }
  let svg = drawChart(title, c, series, 420);
  box.appendChild(svg);
  // once laid out, drawn again at its panel's width, so that the text keeps its size (issue 34 item 4)
  requestAnimationFrame(() => {
    const w = Math.min(720, Math.max(240, Math.floor(box.clientWidth)));
    if (!box.isConnected || Math.abs(w - 420) <= 8) return;
    const again = drawChart(title, c, series, w);
    box.replaceChild(again, svg);
    svg = again;
  });
  const legend = el("p", null, "hint");
  series.forEach((s, i) => {
    const key = el("span", "\u25A0 " + s.name + "  ");
    key.style.color = PALETTE[i % PALETTE.length];
    legend.appendChild(key);
  });
  box.appendChild(legend);
  return box;
}

function drawChart(title, c, series, W) {  // the chart's SVG, W units wide
  const H = 240, L = 44, B = 34, T = 8, R = 10;
  const xs = series.flatMap(s => s.x), ys = series.flatMap(s => s.y);
  const x0 = Math.min(...xs), x1 = Math.max(...xs) || 1, y0 = Math.min(0, ...ys), y1 = Math.max(...ys) || 1;
  const px = x => L + (W - L - R) * (x - x0) / ((x1 - x0) || 1);
  const py = y => H - B - (H - B - T) * (y - y0) / ((y1 - y0) || 1);
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": title});
  svg.style.maxWidth = "100%";  // shrinks with its panel, never clipped (set through the CSSOM: the page's CSP
  svg.style.height = "auto";    // refuses style attributes)
  // --- axis ticks: round values with a faint grid line each, about one per 55 units of width ---
  for (const v of niceTicks(x0, x1, Math.max(3, Math.round((W - L - R) / 55)))) {
    svg.appendChild(svgEl("line", {x1: px(v), y1: T, x2: px(v), y2: H - B + 4, stroke: "#ddd", class: "tick-x"}));
    svg.appendChild(svgEl("text", {x: px(v), y: H - B + 15, "font-size": 10, "text-anchor": "middle", class: "tick-x"},
                          fmt(v)));
  }
  for (const v of niceTicks(y0, y1, 5)) {
    svg.appendChild(svgEl("line", {x1: L - 4, y1: py(v), x2: W - R, y2: py(v), stroke: "#ddd", class: "tick-y"}));
    svg.appendChild(svgEl("text", {x: L - 6, y: py(v) + 3.5, "font-size": 10, "text-anchor": "end", class: "tick-y"},
                          fmt(v)));
  }
  // --- end of axis ticks ---
  svg.appendChild(svgEl("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#555"}));
  svg.appendChild(svgEl("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#555"}));
  svg.appendChild(svgEl("text", {x: (L + W - R) / 2, y: H - 4, "font-size": 11, "text-anchor": "middle"}, c.x_label || ""));
  svg.appendChild(svgEl("text", {x: 10, y: (T + H - B) / 2, "font-size": 11, "text-anchor": "middle",
                                 transform: `rotate(-90 10 ${(T + H - B) / 2})`}, c.y_label || ""));
  series.forEach((s, i) => {
    const pts = s.x.map((x, j) => `${px(x).toFixed(1)},${py(s.y[j]).toFixed(1)}`).join(" ");
    const line = svgEl("polyline", {points: pts, fill: "none", stroke: PALETTE[i % PALETTE.length], "stroke-width": 1.5});
    line.appendChild(svgEl("title", {}, s.name));
    svg.appendChild(line);
  });
  return svg;
}

function fmt(v) { return Number.isInteger(v) ? String(v) : v.toPrecision(3); }

function niceTicks(lo, hi, n) {  // about n round values (1, 2 or 5 times a power of ten) within [lo, hi]
  const raw = ((hi - lo) || 1) / n, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
  const out = [];
  for (let k = Math.ceil(lo / step); k * step <= hi + step * 1e-9 && out.length < 50; k++)
    out.push(+(k * step).toPrecision(12));
  return out;
}

// The Markdown of prompts and replies, built as elements (never as HTML) in time linear in the
// text: every line is consumed by exactly one block, and each test on a line is a prefix check, a
// single scan or a regular expression that cannot backtrack more than once over the line (a reply
// is model text: "| a |" lines without a rule, or 200,000 characters on one line, must not hang).

function inline(parent, text) {  // **bold** and `code` inside a line; everything else stays text
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parent.appendChild(document.createTextNode(text.slice(last, match.index)));
    const token = match[0];
    parent.appendChild(token.startsWith("**") ? el("strong", token.slice(2, -2)) : el("code", token.slice(1, -1)));
    last = match.index + token.length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  return parent;
}

function cells(line) {
  let t = line.trim();
  if (t.startsWith("|")) t = t.slice(1);
  if (t.endsWith("|")) t = t.slice(0, -1);
  return t.split("|").map(c => c.trim());
}

const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/;  // "- item", "1. item", "2) item"

function isFence(line) { return line.trimStart().startsWith("```"); }
function isHeading(line) { return /^#{1,6}[ \t]/.test(line); }
function isTableRow(line) { return line.trimStart().startsWith("|"); }
function isTableRule(line) {  // "|---|:--:|": pipes, dashes, colons and blanks only, with a pipe and a dash
  const t = line.trim();
  if (!t.includes("|") || !t.includes("-")) return false;
  for (const ch of t) if (ch !== "|" && ch !== "-" && ch !== ":" && ch !== " " && ch !== "\t") return false;
  return true;
}
function startsBlock(line) { return isFence(line) || isHeading(line) || isTableRow(line) || LIST_ITEM.test(line); }

function markdown(text) {
  const root = el("div", null, "markdown");
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isFence(line)) {  // a fenced block, shown as it is (a JSON object or array pretty-printed)
      const body = [];
      for (i += 1; i < lines.length && !isFence(lines[i]); i += 1) body.push(lines[i]);
      const pretty = prettyJSON(body.join("\n"));
      root.appendChild(pretty !== null ? el("pre", pretty, "json") : el("pre", body.join("\n")));
      i += 1;
    } else if (isHeading(line)) {
      root.appendChild(inline(el("h4"), line.replace(/^#{1,6}[ \t]*/, "")));
      i += 1;
    } else if (isTableRow(line) && i + 1 < lines.length && isTableRule(lines[i + 1])) {
      const table = el("table", null, "md");
      const head = el("tr");
      for (const c of cells(line)) head.appendChild(inline(el("th"), c));
      table.appendChild(head);
      for (i += 2; i < lines.length && isTableRow(lines[i]); i += 1) {
        const tr = el("tr");
        for (const c of cells(lines[i])) tr.appendChild(inline(el("td"), c));
        table.appendChild(tr);
      }
      root.appendChild(table);
    } else if (LIST_ITEM.test(line)) {
      const list = el(/^[ \t]*\d/.test(line) ? "ol" : "ul");
      for (; i < lines.length && LIST_ITEM.test(lines[i]); i += 1) {
        list.appendChild(inline(el("li"), lines[i].replace(LIST_ITEM, "")));
      }
      root.appendChild(list);
    } else if (!line.trim()) {
      i += 1;
    } else {  // a paragraph: this line (whatever it starts with) and those after it up to a blank line
      const p = el("p");            // or a block, their breaks kept
      inline(p, line);
      for (i += 1; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i += 1) {
        p.appendChild(el("br"));
        inline(p, lines[i]);
      }
      root.appendChild(p);
    }
  }
  return root;
}

function prettyJSON(text) {  // a text that is one JSON object or array, pretty-printed; null otherwise
  const data = asJSON(text);
  if (data === null) return null;
  try { return JSON.stringify(data, null, 2); } catch (err) { return null; }  // nested too deep to print
}

function asJSON(text) {  // a text that is one JSON object or array, parsed; null otherwise
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return null;
  try { return JSON.parse(t); } catch (err) { return null; }
}

function block(b) {  // a suite's panel: definitions, a chart, a text (as Markdown), or a list with a line for when it is empty
  if (b.fields) return definitions(b.title, b.fields);
  if (typeof b.text === "string") return textBlock(b.title, b);
  if (b.chart) return chartBlock(b.title, b.chart);
  const box = el("div", null, "block");
  box.appendChild(el("h3", b.title));
  if (b.items && b.items.length) {
    const ul = el("ul");
    for (const line of b.items) ul.appendChild(el("li", line));
    box.appendChild(ul);
  } else {
    box.appendChild(el("p", b.empty || "–", "hint"));
  }
  return box;
}

function textBlock(title, part) {  // JSON pretty-printed, Markdown rendered; a button shows the raw text
  const box = el("div", null, "block");
  const head = el("h3", title + " ");
  const toggle = el("button", "raw", "toggle");
  toggle.type = "button";
  head.appendChild(toggle);
  box.appendChild(head);
  const pretty = prettyJSON(part.text);
  const shown = pretty !== null ? el("pre", pretty, "json") : markdown(part.text);
  const raw = el("pre", part.text, "raw");
  raw.hidden = true;
  toggle.addEventListener("click", () => {
    raw.hidden = !raw.hidden;
    shown.hidden = !raw.hidden;
    toggle.textContent = raw.hidden ? "raw" : "rendered";
  });
  box.appendChild(shown);
  box.appendChild(raw);
  if (part.cut) box.appendChild(el("p", "(" + part.cut + " more characters not shown)", "hint"));
  return box;
}

async function showDetail(id, tr) {
  if (state.selected) state.selected.classList.remove("selected");
  state.selected = tr;
  if (tr) tr.classList.add("selected");
  state.chosen = id;
  remember();
  const panel = document.getElementById("detail");
  let d;
  try {
    d = await getJSON("/api/responses/" + encodeURIComponent(id));
  } catch (err) {
    panel.replaceChildren(el("p", "could not load response " + id + ": " + err.message, "hint"));
    return;
  }
  const parts = [el("h2", d.item)];
  parts.push(definitions("Response", [["model", d.model], ["run", d.run_dir], ["repeat", d.repeat + 1],
    ["outcome", d.outcome], ["finish reason", d.finish_reason], ["latency (s)", d.latency_s]]));
  const item = el("div", null, "columns");
  const left = el("div", null, "column");
  left.appendChild(el("h3", "Item"));
  if (d.completion_prompt) {  // the local model is given one completion text, not these chat messages
    left.appendChild(textBlock("completion prompt (the text the local model received, rebuilt from the item)",
                               d.completion_prompt));
  }
  for (const m of d.messages) left.appendChild(textBlock(d.completion_prompt ? m.role + " (chat form)" : m.role, m));
  const right = el("div", null, "column");
  right.appendChild(textBlock("Model response", d.response));
  for (const t of d.turns || []) right.appendChild(definitions("Turn", Object.entries(t)));
  if (!d.blocks.length) {  // a suite without blocks of its own: the reference as stored, the answer read
    right.appendChild(definitions("Reference", Object.entries(d.reference || {})));
    right.appendChild(definitions("Answer read", [["read", d.parsed.answer]]));
  }
  for (const b of d.blocks) right.appendChild(block(b));
  if (d.answer) right.appendChild(definitions("Structured answer", Object.entries(d.answer)));
  if (d.grade) right.appendChild(definitions("Grade", Object.entries(d.grade)));
  item.appendChild(left);
  item.appendChild(right);
  parts.push(item);
  panel.replaceChildren(...parts);
}

async function init() {
  try {
    const meta = await getJSON("/api/meta");
    fillFilters(meta);
    const legend = document.getElementById("legend");
    for (const part of meta.legend || [{suite: "", outcomes: OUTCOMES}]) {  // each suite's own outcomes
      if (part.suite) legend.appendChild(el("dt", part.suite, "suite"));
      if (part.suite) legend.appendChild(el("dd", "", "suite"));
      for (const [name, meaning] of Object.entries(part.outcomes)) {
        legend.appendChild(el("dt", name));
        legend.appendChild(el("dd", meaning));
      }
    }
    const head = document.getElementById("head");
    for (const [, title] of COLUMNS) head.appendChild(el("th", title));
  } catch (err) {
    document.getElementById("count").textContent = "could not load the runs: " + err.message;
    document.body.dataset.state = "error";
    return;
  }
  document.getElementById("more").addEventListener("click", () => loadPage(state.generation));
  const chosen = recall();
  await reload();
  if (chosen !== null) {
    showDetail(chosen, document.querySelector('#rows tr[data-id="' + chosen + '"]'));
  }
}

init();
