//===- HtmlPage.cpp - A self-contained page of the pipeline ---------------===//
//
// Part of the graph compiler, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Static HTML: a step list, one <section class="step"> per step with its two
// SVGs and its figures; a small script shows one step at a time and moves
// and scales the shown SVG (a CSS transform, no layout of its own).
//
//===----------------------------------------------------------------------===//

#include "graph/Viz/HtmlPage.h"

#include "graph/Viz/Dot.h"
#include "graph/Viz/Graphviz.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::graph;
using namespace mlir::graph::viz;

static std::string escape(StringRef text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

/// Bytes with a thousands separator: 12,544.
static std::string formatCount(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return value < 0 ? "-" + text : text;
}

static std::string formatDelta(int64_t value, int64_t previous,
                               bool hasPrevious) {
  if (!hasPrevious || value == previous)
    return "";
  int64_t delta = value - previous;
  return (delta > 0 ? "+" : "\u2212") + formatCount(delta > 0 ? delta : -delta);
}

static const char *kStyle = R"css(
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font: 14px/1.4 "DejaVu Sans", system-ui, sans-serif; color: #222; background: #fafafa; }
body { display: flex; flex-direction: column; }
header { padding: 8px 14px; background: #24324a; color: #fff; display: flex; gap: 18px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 17px; margin: 0; }
header .pipeline { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; opacity: .85; }
#app { flex: 1; display: flex; min-height: 0; }
nav { width: 230px; border-right: 1px solid #ddd; padding: 10px; overflow: auto; background: #fff; }
nav h2, aside h2 { font-size: 14px; margin: 4px 0 8px; }
#step-list { list-style: none; padding: 0; margin: 0 0 14px; }
#step-list button { width: 100%; text-align: left; border: 1px solid transparent; background: none; padding: 5px 7px; border-radius: 5px; cursor: pointer; font: inherit; }
#step-list button:hover { background: #eef2f8; }
#step-list li.active button { background: #dfe8fb; border-color: #3358a8; font-weight: bold; }
#step-list .num { display: inline-block; width: 1.4em; color: #666; }
#step-list .change { display: block; font-size: 11px; color: #666; margin-left: 1.4em; font-weight: normal; }
.legend { font-size: 12px; }
.legend div { margin: 3px 0; display: flex; align-items: center; gap: 6px; }
.legend i { display: inline-block; width: 22px; height: 12px; border-radius: 3px; border: 2px solid; }
main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
#toolbar { display: flex; gap: 6px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #ddd; background: #fff; flex-wrap: wrap; }
#toolbar button { font: inherit; padding: 3px 10px; border: 1px solid #aab; background: #f4f6fa; border-radius: 4px; cursor: pointer; }
#toolbar button:disabled { opacity: .4; cursor: default; }
#step-title { font-weight: bold; min-width: 260px; text-align: center; }
#toolbar .sep { width: 14px; }
#stage { flex: 1; min-height: 0; position: relative; }
section.step { position: absolute; inset: 0; display: flex; }
section.step[hidden] { display: none; }
.view { flex: 1; position: relative; overflow: hidden; cursor: grab; background: #fff; }
.view[hidden] { display: none; }
.view.dragging { cursor: grabbing; }
.view svg { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.view g.fusedgroup, .view g.k_fused { cursor: pointer; }
aside { width: 340px; border-left: 1px solid #ddd; padding: 10px 12px; overflow: auto; background: #fff; font-size: 13px; }
aside p { margin: 4px 0 8px; }
aside ul { margin: 4px 0 8px; padding-left: 18px; }
aside li { overflow-wrap: anywhere; }
aside table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
aside th, aside td { text-align: left; padding: 2px 4px; border-bottom: 1px solid #eee; }
aside td.num, aside th.num { text-align: right; font-variant-numeric: tabular-nums; }
aside td.delta { text-align: right; color: #1e6a9a; font-size: 12px; }
aside tr.sub td:first-child { padding-left: 16px; color: #555; }
aside code { font-size: 12px; }
.fold { color: #b35a00; } .fuse { color: #3358a8; } .erase { color: #c0392b; } .new { color: #1e8a3c; } .rewrite { color: #7a3fb0; }
)css";

static const char *kScript = R"js(
(function () {
  'use strict';
  const steps = Array.from(document.querySelectorAll('section.step'));
  const items = Array.from(document.querySelectorAll('#step-list li'));
  const prev = document.getElementById('prev');
  const next = document.getElementById('next');
  const title = document.getElementById('step-title');
  const collapse = document.getElementById('collapse');
  let current = 0;
  let view = { scale: 1, x: 0, y: 0 };

  // SVG sizes in CSS pixels, from their view boxes.
  for (const svg of document.querySelectorAll('.view svg')) {
    const box = svg.viewBox.baseVal;
    svg.setAttribute('width', box.width);
    svg.setAttribute('height', box.height);
  }

  function shownView() {
    return steps[current].querySelector(collapse.checked ? '.view.collapsed' : '.view.expanded');
  }
  function apply() {
    const svg = shownView().querySelector('svg');
    svg.style.transform = 'translate(' + view.x + 'px,' + view.y + 'px) scale(' + view.scale + ')';
  }
  // The whole graph in the pane; with `readable`, a large graph is rather
  // shown from its top at a scale its labels can be read at.
  function fit(readable) {
    const pane = shownView();
    const box = pane.querySelector('svg').viewBox.baseVal;
    const rect = pane.getBoundingClientRect();
    const byWidth = (rect.width - 20) / box.width;
    let scale = Math.min(byWidth, (rect.height - 20) / box.height, 1.6);
    let y = Math.max(10, (rect.height - box.height * scale) / 2);
    if (readable === true && scale < 0.6) {
      scale = Math.max(0.6, Math.min(byWidth, 1));
      y = 10;
    }
    const x = box.width * scale < rect.width ? (rect.width - box.width * scale) / 2 : 10;
    view = { scale: scale, x: x, y: y };
    apply();
  }
  function zoom(factor, cx, cy) {
    const rect = shownView().getBoundingClientRect();
    if (cx === undefined) { cx = rect.width / 2; cy = rect.height / 2; }
    view.x = cx - (cx - view.x) * factor;
    view.y = cy - (cy - view.y) * factor;
    view.scale *= factor;
    apply();
  }
  function toggleGroups(fromId) {
    collapse.checked = !collapse.checked;
    showViews();
    fit(true);
    const match = /^s(\d+)([ec])_([ng])(\d+)$/.exec(fromId || '');
    const target = match && document.getElementById(
      's' + match[1] + (collapse.checked ? 'c_n' : 'e_g') + match[4]);
    if (!target) return;
    // Center the group at a readable scale.
    view.scale = Math.max(view.scale, 1);
    apply();
    const box = target.getBoundingClientRect();
    const pane = shownView().getBoundingClientRect();
    view.x += pane.left + pane.width / 2 - (box.left + box.width / 2);
    view.y += pane.top + pane.height / 2 - (box.top + box.height / 2);
    apply();
  }
  function showViews() {
    for (const pane of steps[current].querySelectorAll('.view'))
      pane.hidden = pane.classList.contains('collapsed') !== collapse.checked;
  }
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach((step, i) => { step.hidden = i !== current; });
    items.forEach((item, i) => item.classList.toggle('active', i === current));
    const step = steps[current];
    title.textContent = 'Step ' + current + ' of ' + (steps.length - 1) + ': ' + step.dataset.label;
    document.body.dataset.step = current;
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
    showViews();
    fit(true);
  }

  prev.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  items.forEach((item, i) => item.querySelector('button').addEventListener('click', () => show(i)));
  collapse.addEventListener('change', () => { showViews(); fit(true); });
  document.getElementById('zoom-in').addEventListener('click', () => zoom(1.25));
  document.getElementById('zoom-out').addEventListener('click', () => zoom(0.8));
  document.getElementById('zoom-fit').addEventListener('click', () => fit());
  document.getElementById('zoom-one').addEventListener('click', () => { view = { scale: 1, x: 10, y: 10 }; apply(); });
  document.addEventListener('keydown', (event) => {
    if (event.target.tagName === 'INPUT' && event.key === ' ') return;
    switch (event.key) {
      case 'ArrowLeft': case 'PageUp': show(current - 1); break;
      case 'ArrowRight': case 'PageDown': show(current + 1); break;
      case 'Home': show(0); break;
      case 'End': show(steps.length - 1); break;
      case '+': case '=': zoom(1.25); break;
      case '-': zoom(0.8); break;
      case '0': fit(); break;
      case 'c': toggleGroups(null); break;
      default: return;
    }
    event.preventDefault();
  });

  for (const pane of document.querySelectorAll('.view')) {
    pane.addEventListener('wheel', (event) => {
      event.preventDefault();
      const rect = pane.getBoundingClientRect();
      zoom(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
    }, { passive: false });
    let drag = null;
    pane.addEventListener('pointerdown', (event) => {
      drag = { x: event.clientX, y: event.clientY, moved: false };
      pane.setPointerCapture(event.pointerId);
      pane.classList.add('dragging');
    });
    pane.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
      view.x += dx; view.y += dy;
      drag.x = event.clientX; drag.y = event.clientY;
      apply();
    });
    pane.addEventListener('pointerup', (event) => {
      const clicked = drag && !drag.moved;
      drag = null;
      pane.classList.remove('dragging');
      // A click on a fused group opens or closes the groups, and shows
      // that group in the other view: box n<i> and cluster g<i> are one op.
      if (clicked) {
        const hit = document.elementsFromPoint(event.clientX, event.clientY)
          .map((element) => element.closest && element.closest('g.fusedgroup, g.k_fused'))
          .find((group) => group);
        if (hit) toggleGroups(hit.id);
      }
    });
  }
  window.addEventListener('resize', () => fit(true));
  show(0);
})();
)js";

/// The step's pass, as the step list and title say it.
static std::string getLabel(const Step &step) {
  return step.title == "input" ? "input" : "after " + step.title;
}

/// A short summary of a step's changes for the step list.
static std::string getListChange(const Step &step, const Step *previous) {
  if (!previous)
    return std::to_string(step.stats.getNumOps()) + " ops";
  int64_t delta = step.stats.getNumOps() - previous->stats.getNumOps();
  std::string text = std::to_string(step.stats.getNumOps()) + " ops";
  if (delta != 0)
    text += " (" + std::string(delta > 0 ? "+" : "\u2212") +
            std::to_string(delta > 0 ? delta : -delta) + ")";
  return text;
}

static std::string listNames(const Step &step, Change change) {
  std::vector<std::string> names;
  for (const Node &node : step.nodes)
    if (node.change == change && node.parent < 0)
      names.push_back(node.name.empty() ? node.opName : node.name);
  constexpr size_t kMaxNames = 8;
  std::string text;
  for (size_t i = 0; i < names.size() && i < kMaxNames; ++i)
    text += (i ? ", " : "") + names[i];
  if (names.size() > kMaxNames)
    text += " and " + std::to_string(names.size() - kMaxNames) + " more";
  return text;
}

static void printFigures(const Step &step, const Step *previous,
                         raw_ostream &os) {
  const GraphStatistics &s = step.stats;
  const GraphStatistics *p = previous ? &previous->stats : nullptr;
  auto row = [&](StringRef name, int64_t value, int64_t before,
                 StringRef cls = "", StringRef unit = "") {
    os << "<tr" << (cls.empty() ? "" : " class=\"" + cls.str() + "\"")
       << "><td>" << name << "</td><td class=\"num\">" << formatCount(value)
       << unit << "</td><td class=\"delta\">" << formatDelta(value, before, p)
       << "</td></tr>\n";
  };
  os << "<h2>Figures (graph-report)</h2>\n<table class=\"figures\">\n"
        "<tr><th></th><th class=\"num\">value</th><th class=\"num\">"
        "change</th></tr>\n";
  row("ops", s.getNumOps(), p ? p->getNumOps() : 0);
  std::set<std::string> names;
  for (const auto &[name, count] : s.ops)
    names.insert(name);
  if (p)
    for (const auto &[name, count] : p->ops)
      names.insert(name);
  for (const std::string &name : names) {
    auto get = [&](const GraphStatistics *stats) -> int64_t {
      if (!stats)
        return 0;
      auto it = stats->ops.find(name);
      return it == stats->ops.end() ? 0 : it->second;
    };
    os << "<tr class=\"sub\" data-op=\"" << escape(name) << "\"><td>"
       << escape(name) << "</td><td class=\"num\">" << formatCount(get(&s))
       << "</td><td class=\"delta\">" << formatDelta(get(&s), get(p), p)
       << "</td></tr>\n";
  }
  row("constants", s.constants, p ? p->constants : 0);
  row("constant bytes", s.constantBytes, p ? p->constantBytes : 0);
  int64_t groups = 0, previousGroups = 0;
  for (const auto &[kind, count] : s.fused)
    groups += count;
  if (p)
    for (const auto &[kind, count] : p->fused)
      previousGroups += count;
  row("fused groups", groups, previousGroups);
  for (const auto &[kind, count] : s.fused)
    os << "<tr class=\"sub\" data-fused=\"" << escape(kind) << "\"><td>"
       << escape(kind) << "</td><td class=\"num\">" << count
       << "</td><td></td></tr>\n";
  row("intermediate bytes \u03a3|T<sub>k</sub>|", s.intermediateBytes,
      p ? p->intermediateBytes : 0);
  row("Saving bytes = 2\u00b7\u03a3|T<sub>k</sub>|", s.getSavingBytes(),
      p ? p->getSavingBytes() : 0);
  os << "</table>\n";
}

static void printInfo(const Step &step, const Step *previous, size_t index,
                      raw_ostream &os) {
  os << "<aside>\n<h2>Step " << index << ": " << escape(getLabel(step))
     << "</h2>\n";
  if (!step.summary.empty())
    os << "<p>" << escape(step.summary)
       << (step.passText.empty()
               ? ""
               : " (<code>" + escape(step.passText) + "</code>)")
       << ".</p>\n";
  if (previous) {
    os << "<p>This pass made <b class=\"new\">" << step.numNew << "</b> new op"
       << (step.numNew == 1 ? "" : "s") << " (green border)";
    int changed = previous->numFold + previous->numFuse + previous->numErase +
                  previous->numRewrite;
    if (changed == 0 && step.numNew == 0)
      os << "; it changed nothing";
    os << ".</p>\n";
  }
  if (!step.nextPass.empty()) {
    os << "<h2>Next: " << escape(step.nextPass) << "</h2>\n<ul>\n";
    if (step.numFold)
      os << "<li class=\"fold\">folds " << step.numFold << " op"
         << (step.numFold == 1 ? "" : "s") << ": "
         << escape(listNames(step, Change::Fold)) << "</li>\n";
    if (step.numFuse) {
      os << "<li class=\"fuse\">fuses " << step.numFuse << " ops into "
         << step.groups.size() << " group"
         << (step.groups.size() == 1 ? "" : "s") << ":";
      std::map<std::string, int> kinds;
      for (const PlannedGroup &group : step.groups)
        ++kinds[group.kind];
      for (const auto &[kind, count] : kinds)
        os << " <code>" << escape(kind) << "</code>"
           << (count > 1 ? " \u00d7" + std::to_string(count) : "");
      os << "</li>\n";
    }
    if (step.numRewrite)
      os << "<li class=\"rewrite\">rewrites " << step.numRewrite << ": "
         << escape(listNames(step, Change::Rewrite)) << "</li>\n";
    if (step.numErase)
      os << "<li class=\"erase\">erases " << step.numErase << " op"
         << (step.numErase == 1 ? "" : "s") << ": "
         << escape(listNames(step, Change::Erase)) << "</li>\n";
    if (!step.numFold && !step.numFuse && !step.numRewrite && !step.numErase)
      os << "<li>changes nothing here</li>\n";
    os << "</ul>\n";
  }
  printFigures(step, previous, os);
  os << "</aside>\n";
}

void mlir::graph::viz::printHtmlPage(ArrayRef<Step> steps,
                                     ArrayRef<std::string> expandedSvgs,
                                     ArrayRef<std::string> collapsedSvgs,
                                     const PageInfo &info, raw_ostream &os) {
  // Large graphs start with their groups closed, small ones open.
  size_t maxNodes = 0;
  for (const Step &step : steps)
    maxNodes = std::max(maxNodes, step.nodes.size());
  bool startCollapsed = maxNodes > 150;

  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
     << "<title>graph-viz: " << escape(info.model) << "</title>\n<style>"
     << kStyle << "</style>\n</head>\n<body data-step=\"0\">\n";
  os << "<header><h1>" << escape(info.model)
     << "</h1><span class=\"pipeline\">pipeline: " << escape(info.pipeline)
     << "</span></header>\n<div id=\"app\">\n<nav>\n<h2>Steps</h2>\n"
     << "<ol id=\"step-list\">\n";
  for (auto [index, step] : llvm::enumerate(steps))
    os << "<li data-step=\"" << index << "\"><button><span class=\"num\">"
       << index << "</span>" << escape(getLabel(step))
       << "<span class=\"change\">"
       << escape(getListChange(step, index ? &steps[index - 1] : nullptr))
       << "</span></button></li>\n";
  os << "</ol>\n<h2>Marks</h2>\n<div class=\"legend\">\n"
     << "<div><i style=\"border-color:#1e8a3c\"></i>made by the previous "
        "pass</div>\n"
     << "<div><i style=\"border-color:#d06a00;background:#ffe3bf\"></i>the "
        "next pass folds it</div>\n"
     << "<div><i style=\"border-color:#3358a8;border-style:dashed\"></i>the "
        "next pass fuses these</div>\n"
     << "<div><i style=\"border-color:#c0392b;border-style:dashed\"></i>the "
        "next pass erases it</div>\n"
     << "<div><i style=\"border-color:#3358a8;background:#dfe8fb\"></i>a "
        "fused group (click: open/close)</div>\n"
     << "</div>\n<p style=\"font-size:12px;color:#555\">Keys: \u2190 \u2192 "
        "step, + \u2212 zoom, 0 fit, c open/close groups. Drag to pan, wheel "
        "to zoom.</p>\n</nav>\n";
  os << "<main>\n<div id=\"toolbar\">"
     << "<button id=\"prev\">\u25c0 Previous</button>"
     << "<span id=\"step-title\"></span>"
     << "<button id=\"next\">Next \u25b6</button><span class=\"sep\"></span>"
     << "<button id=\"zoom-out\" title=\"zoom out\">\u2212</button>"
     << "<button id=\"zoom-fit\">Fit</button>"
     << "<button id=\"zoom-in\" title=\"zoom in\">+</button>"
     << "<button id=\"zoom-one\">1:1</button><span class=\"sep\"></span>"
     << "<label><input type=\"checkbox\" id=\"collapse\""
     << (startCollapsed ? " checked" : "")
     << "> fused groups as one box</label></div>\n<div id=\"stage\">\n";
  for (auto [index, step] : llvm::enumerate(steps)) {
    const Step *previous = index ? &steps[index - 1] : nullptr;
    os << "<section class=\"step\" id=\"step-" << index << "\" data-step=\""
       << index << "\" data-pass=\"" << escape(step.title) << "\" data-label=\""
       << escape(getLabel(step)) << "\" data-ops=\"" << step.stats.getNumOps()
       << "\"" << (index ? " hidden" : "") << ">\n";
    os << "<div class=\"view expanded\">" << expandedSvgs[index] << "</div>\n";
    os << "<div class=\"view collapsed\">" << collapsedSvgs[index]
       << "</div>\n";
    printInfo(step, previous, index, os);
    os << "</section>\n";
  }
  os << "</div>\n</main>\n</div>\n<script>" << kScript
     << "</script>\n</body>\n</html>\n";
}

/// Above this many nodes the shapes move from edge labels to edge tooltips:
/// each label is a node of its own to Graphviz's layout, and doubles its
/// work on large graphs.
static constexpr size_t kMaxNodesWithEdgeLabels = 1000;

llvm::Error mlir::graph::viz::writeHtmlPage(ArrayRef<Step> steps,
                                            const PageInfo &info,
                                            StringRef path, unsigned jobs) {
  // Without fused groups both views are the same graph: it is laid out
  // once and its SVG copied with the other view's ids.
  auto getPrefix = [](size_t index, bool collapse) {
    return "s" + std::to_string(index) + (collapse ? "c" : "e") + "_";
  };
  std::vector<std::string> dots;
  std::vector<std::pair<size_t, bool>> layouts;
  for (auto [index, step] : llvm::enumerate(steps)) {
    bool hasFused = llvm::any_of(step.nodes, [](const Node &node) {
      return node.kind == NodeKind::Fused;
    });
    for (bool collapse : {false, true}) {
      if (collapse && !hasFused)
        continue;
      DotOptions options;
      options.collapseFused = collapse;
      options.idPrefix = getPrefix(index, collapse);
      options.edgeLabels = step.nodes.size() <= kMaxNodesWithEdgeLabels;
      std::string dot;
      llvm::raw_string_ostream os(dot);
      printDot(step, options, os);
      dots.push_back(std::move(dot));
      layouts.push_back({index, collapse});
    }
  }
  llvm::Expected<std::vector<std::string>> svgs = renderSvgs(dots, jobs);
  if (!svgs)
    return svgs.takeError();
  std::vector<std::string> expanded(steps.size()), collapsed(steps.size());
  for (auto [layout, svg] : llvm::zip(layouts, *svgs))
    (layout.second ? collapsed : expanded)[layout.first] = std::move(svg);
  for (size_t index = 0; index < steps.size(); ++index) {
    if (!collapsed[index].empty())
      continue;
    std::string from = "\"" + getPrefix(index, false);
    std::string to = "\"" + getPrefix(index, true);
    StringRef svg = expanded[index];
    std::string &copy = collapsed[index];
    for (size_t pos = 0;;) {
      size_t next = svg.find(from, pos);
      copy += svg.slice(pos, next);
      if (next == StringRef::npos)
        break;
      copy += to;
      pos = next + from.size();
    }
  }
  return llvm::writeToOutput(path, [&](raw_ostream &os) {
    printHtmlPage(steps, expanded, collapsed, info, os);
    return llvm::Error::success();
  });
}
