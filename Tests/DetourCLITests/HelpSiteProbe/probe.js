/* Loads each help page in a frame of the width asked for and reports what a visitor would
   notice: anything wider than the screen that does not scroll inside its own box, and text
   whose contrast on what is painted behind it is under 4.5:1. */
(function () {
"use strict";
var frame = document.getElementById("page"), report = {}, index = 0;
function parse(c) {
  var m = c.match(/^rgba?\(([^)]+)\)$/), p;
  if (m) { p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1]; }
  m = c.match(/^color\(srgb ([^)]+)\)$/);
  if (m) { p = m[1].split(/[ /]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
  return null;
}
function over(top, bottom) {
  var a = top[3];
  return [0, 1, 2].map(function (i) { return top[i] * a + bottom[i] * (1 - a); }).concat([1]);
}
function luminance(c) {
  return [0, 1, 2].map(function (i) { var v = c[i]; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce(function (s, v, i) { return s + v * [0.2126, 0.7152, 0.0722][i]; }, 0);
}
function ratio(a, b) { var x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
function backdrop(w, e) {
  var layers = [];
  for (; e; e = e.parentElement) { var b = parse(w.getComputedStyle(e).backgroundColor); if (b && b[3] > 0) layers.push(b); }
  var painted = [1, 1, 1, 1];
  for (var i = layers.length - 1; i >= 0; i--) painted = over(layers[i], painted);
  return painted;
}
function scrolls(w, e, width) {
  for (; e; e = e.parentElement) {
    var s = w.getComputedStyle(e), box = e.getBoundingClientRect();
    if ((s.overflowX == "auto" || s.overflowX == "scroll" || s.overflowX == "hidden") && box.right <= width + 1) return true;
  }
  return false;
}
function inspect() {
  var d = frame.contentDocument, w = frame.contentWindow, width = d.documentElement.clientWidth, found = { overflow: d.documentElement.scrollWidth - width, wide: [], faint: [], tables: d.querySelectorAll("main table").length };
  d.querySelectorAll("body *").forEach(function (e) {
    var box = e.getBoundingClientRect(), s = w.getComputedStyle(e);
    if (box.width && box.right > width + 1 && !scrolls(w, e.parentElement, width) && !(s.overflowX == "auto" && box.right <= width + 1)) {
      found.wide.push(e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " right " + Math.round(box.right));
    }
    var text = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType == 3 && n.textContent.trim(); });
    if (!text || !box.width || s.visibility == "hidden" || e.closest("[aria-hidden=true]") || e.matches(".visually-hidden, .visually-hidden *, .anchor")) return;
    var color = parse(s.color), behind = backdrop(w, e);
    if (!color) return;
    var r = ratio(over(color, behind), behind);
    if (r < 4.5) found.faint.push(e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " " + r.toFixed(2) + " \"" + e.textContent.trim().slice(0, 30) + "\"");
  });
  // Text that runs past the edge of a box that does not scroll (a long word in a heading).
  var walker = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT), node;
  while ((node = walker.nextNode())) {
    var range = d.createRange();
    range.selectNodeContents(node);
    if (range.getBoundingClientRect().right > width + 1 && !scrolls(w, node.parentElement, width)) found.wide.push("text \"" + node.textContent.trim().slice(0, 40) + "\"");
  }
  found.resources = w.performance.getEntriesByType("resource").map(function (e) { return e.name.replace(/^.*\//, ""); }).sort();
  found.dark = w.matchMedia("(prefers-color-scheme: dark)").matches;
  found.wide = found.wide.slice(0, 10);
  found.faint = found.faint.slice(0, 10);
  return found;
}
function next() {
  if (index == PAGES.length) { document.getElementById("out").textContent = JSON.stringify(report); return; }
  frame.onload = function () { report[PAGES[index]] = inspect(); index++; next(); };
  frame.src = PAGES[index];
}
next();
})();
