"use strict";
// Math in the viewer: after the Markdown renderer has built a text as elements, the TeX between
// $...$, $$...$$, \(...\) and \[...\] in its paragraphs, list items and table cells is drawn by the
// KaTeX shipped with physbench (offline). Code (pre, code) is never touched. KaTeX runs with
// trust: false (no links, images or HTML extensions), bounded size and macro expansion, and a TeX
// error is shown as the source text; the work per page is bounded in segments, length and time.
(function () {
  const OPTIONS = {throwOnError: false, trust: false, strict: "ignore", maxSize: 20, maxExpand: 300,
                   output: "html"};
  const MAX_TEX = 2000;        // characters of one formula; a longer one stays text
  const MAX_SEGMENTS = 400;    // formulas drawn per batch of new elements
  const BUDGET_MS = 250;       // time spent per batch; the rest stays text
  const BLOCKS = "p, li, td, th, h4";
  const PAIRS = [["$$", "$$", true], ["\\[", "\\]", true], ["\\(", "\\)", false], ["$", "$", false]];

  function closing(text, start, close, inlineDollar) {  // index of the closing delimiter within MAX_TEX, or -1
    const limit = start + MAX_TEX;
    for (let j = text.indexOf(close, start); j !== -1 && j <= limit; j = text.indexOf(close, j + 1)) {
      if (text[j - 1] === "\\") continue;  // an escaped \$ is a dollar sign
      if (!inlineDollar) return j;
      // $x$ with no space just inside and no digit after (so "$5 and $6" stays text), or spaced
      // TeX that says it is TeX ("$ F_{\rm{phys}} = 1 $", as CritPt's answers are written)
      const tex = text.slice(start, j);
      const strict = !/\s/.test(text[start] || " ") && !/\s/.test(text[j - 1] || "") && !/\d/.test(text[j + 1] || "");
      if (strict || (/[\\^_{]/.test(tex) && !tex.includes("\n\n"))) return j;
    }
    return -1;
  }

  function split(text, until) {  // [{tex, display} | {text}] in order; each search bounded by MAX_TEX
    const out = [];
    let plain = "";
    let i = 0;
    let steps = 0;
    while (i < text.length) {
      steps += 1;
      if (until !== undefined && (steps & 1023) === 0 && performance.now() > until) {  // out of time: the rest is text
        plain += text.slice(i);
        break;
      }
      let found = null;
      if (text[i] === "$" || text[i] === "\\") {
        for (const [open, close, display] of PAIRS) {
          if (!text.startsWith(open, i) || (i > 0 && text[i - 1] === "\\")) continue;
          const inlineDollar = open === "$";
          const end = closing(text, i + open.length, close, inlineDollar);
          const tex = end === -1 ? "" : text.slice(i + open.length, end);
          // a formula names something: "$...$" (a prompt describing the delimiters) stays text
          if (end !== -1 && /[\w\\]/.test(tex) && tex.length <= MAX_TEX) found = [tex, display, end + close.length];
          break;
        }
      }
      if (found) {
        if (plain) out.push({text: plain});
        plain = "";
        out.push({tex: found[0], display: found[1]});
        i = found[2];
      } else {
        plain += text[i];
        i += 1;
      }
    }
    if (plain) out.push({text: plain});
    return out;
  }

  function draw(tex, display) {  // a span holding the formula, or its source as text on any failure
    const span = document.createElement("span");
    span.className = display ? "math display" : "math";

    try {
      window.katex.render(tex, span, Object.assign({displayMode: display}, OPTIONS));
    } catch (err) {
      span.textContent = tex;
      span.classList.add("math-error");
      span.title = String(err && err.message || err).slice(0, 200);
    }
    return span;
  }

  function runs(element) {  // consecutive text nodes and <br>s of an element, with their text ("\n" per <br>)
    const out = [];
    let nodes = [];
    const flush = () => { if (nodes.length) out.push(nodes); nodes = []; };
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE || (child.nodeType === Node.ELEMENT_NODE && child.tagName === "BR")) {
        nodes.push(child);
      } else {
        flush();
      }
    }
    flush();
    return out;
  }

  function renderIn(element, budget) {  // replaces the element's math text with drawn formulas
    for (const nodes of runs(element)) {
      const text = nodes.map(n => n.nodeType === Node.TEXT_NODE ? n.data : "\n").join("");
      if (!/[$\\]/.test(text)) continue;
      const parts = split(text, budget.until);
      if (!parts.some(p => p.tex !== undefined)) continue;
      const frag = document.createDocumentFragment();
      for (const part of parts) {
        const over = budget.segments >= MAX_SEGMENTS || performance.now() > budget.until;
        if (part.tex !== undefined && !over) {
          budget.segments += 1;
          const span = draw(part.tex.replace(/\n/g, " "), part.display);
          budget.drawn.push(span);
          frag.appendChild(span);
        } else {
          const source = part.tex === undefined ? part.text
            : (part.display ? "$$" : "$") + part.tex + (part.display ? "$$" : "$");
          source.split("\n").forEach((line, k) => {
            if (k) frag.appendChild(document.createElement("br"));
            if (line) frag.appendChild(document.createTextNode(line));
          });
        }
      }
      nodes[0].parentNode.insertBefore(frag, nodes[0]);
      for (const n of nodes) n.remove();
    }
  }

  function renderAll(root) {  // every Markdown view under root not yet drawn, and values in definition lists
    if (!window.katex) return 0;
    const budget = {segments: 0, until: performance.now() + BUDGET_MS, drawn: []};
    let done = 0;
    for (const value of root.querySelectorAll("dd > span:not([data-math])")) {
      value.dataset.math = "drawn";
      renderIn(value, budget);
      if (value.querySelector(".math")) value.parentElement.style.minWidth = "0";  // the grid column may shrink
    }
    for (const md of root.querySelectorAll(".markdown:not([data-math])")) {
      md.dataset.math = "drawn";
      for (const element of md.querySelectorAll(BLOCKS)) {
        if (element.closest("pre, code, .katex")) continue;
        renderIn(element, budget);
      }
      done += 1;
    }
    boxWide(budget.drawn);
    return done;
  }

  function boxWide(spans) {  // a formula wider than its line scrolls in its own box instead of widening the panel
    const line = s => s.parentElement && s.parentElement.closest("p, li, td, th, h4, dd, div");
    const wide = spans.filter(s => s.isConnected && line(s)
                              && s.scrollWidth > line(s).clientWidth + 1);  // all reads, then all writes
    for (const span of wide) {  // styles set through the DOM, which the page's CSP allows (unlike style attributes)
      Object.assign(span.style, {display: span.classList.contains("display") ? "block" : "inline-block",
                                 maxWidth: "100%", overflowX: "auto", overflowY: "hidden", verticalAlign: "middle"});
    }
  }

  function watch() {
    const target = document.getElementById("detail") || document.body;
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      setTimeout(() => { queued = false; renderAll(target); }, 0);
    }).observe(target, {childList: true, subtree: true});
    renderAll(target);
  }

  window.physbenchMath = {split: split, renderAll: renderAll};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
