// Renders replies with the viewer's Markdown renderer (src/physbench/report/viewer.js) in node, on a
// minimal stand-in for the DOM: fixed hostile replies, then random ones from a seeded generator.
// Usage: node viewer_markdown_check.js VIEWER_JS SEED COUNT; prints one JSON line of results.
// A renderer that loops for ever is caught by the element budget (an exception), one that
// backtracks for ever by the caller's time-out.
"use strict";
const fs = require("fs");
const vm = require("vm");

const [viewerPath, seedText, countText] = process.argv.slice(2);
let created = 0, budget = Infinity;

function element(tag) {
  if (++created > budget) throw new Error("element budget exceeded: the renderer does not stop");
  return {tag, children: [], dataset: {}, style: {}, hidden: false, className: "", text: "",
    classList: {add() {}, remove() {}}, addEventListener() {}, replaceChildren() {},
    appendChild(child) { this.children.push(child); return child; },
    set textContent(v) { this.text = v; }, get textContent() { return this.text; }};
}

const document = {createElement: element, createElementNS: (ns, tag) => element(tag),
  createTextNode: text => ({tag: "#text", text, children: []}),
  getElementById: () => element("stub"), body: {dataset: {}}};
const context = {document, fetch: () => new Promise(() => {}), URLSearchParams, console};
vm.createContext(context);
vm.runInContext(fs.readFileSync(viewerPath, "utf8"), context);  // init() waits for ever on fetch: harmless

function textOf(node) { return (node.text || "") + node.children.map(textOf).join(""); }

function render(reply) {  // the rendered root; at most a few elements per line and per character
  created = 0;
  budget = 4 * reply.length + 4 * reply.split("\n").length + 16;
  const started = process.hrtime.bigint();
  const root = context.markdown(reply);
  return {root, ms: Number(process.hrtime.bigint() - started) / 1e6};
}

function mulberry32(seed) {  // a small seeded generator: the same replies on every run
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = ["|", "| ", " |", "---", "|---|", ":", "-", "- ", "* ", "+ ", "1. ", "2) ", "#", "# ", "###### ",
  "```", "```json", "**", "`", "\n", "\n", "\n\n", " ", "\t", "x", "dose", "1 cGy", "{", "}", "[", "]", "\"a\": 1",
  "\\", "<b>", "&amp;", "\u00a0", "\ud800", "\u202e", "99999999999.", "\r"];
const LONG = 200000;
const FIXED = [
  "The result:\n| dose | 1 cGy |",
  "| a |",
  "|\n|\n|",
  "x".repeat(LONG),
  "| a |\n" + " ".repeat(LONG) + "x",
  "| a |\n|" + "-".repeat(LONG) + "x",
  "| a |\n" + "|".repeat(LONG) + "x",
  "| h |\n|---|\n" + "| c ".repeat(LONG / 4),
  " ".repeat(LONG) + "1",
  "1".repeat(LONG) + ".",
  "**a".repeat(LONG / 3),
  "`".repeat(LONG),
  "# " + "#".repeat(LONG),
  "|\n".repeat(LONG / 2),
  "- x\n".repeat(LONG / 4),
  "```\n" + "[".repeat(LONG / 2) + "]".repeat(LONG / 2) + "\n```",
  "[".repeat(LONG / 2) + "]".repeat(LONG / 2),
];

function randomReply(next) {
  const n = Math.floor(next() * 400);
  let out = "";
  for (let k = 0; k < n; k++) {
    const token = TOKENS[Math.floor(next() * TOKENS.length)];
    out += next() < 0.02 ? token.repeat(1 + Math.floor(next() * 2000)) : token;
  }
  return out;
}

const next = mulberry32(Number(seedText));
const replies = FIXED.concat(Array.from({length: Number(countText)}, () => randomReply(next)));
let slowest = {ms: 0, index: -1}, lost = [];
replies.forEach((reply, index) => {
  const {root, ms} = render(reply);
  if (ms > slowest.ms) slowest = {ms, index};
  // every non-blank character of a reply outside the markup is shown: spot-check plain words
  for (const word of ["dose", "cGy"]) if (reply.includes(word) && !reply.includes("```") && !textOf(root).includes(word)) lost.push(index);
});
console.log(JSON.stringify({rendered: replies.length, fixed: FIXED.length, slowest, lost}));
