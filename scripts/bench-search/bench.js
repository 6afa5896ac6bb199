// Opens /search/?q=<word> in a frame of a fresh browser and reports, at the first result:
// the index files requested and their bytes, the time since navigation, then the time of
// the same query again once its files are loaded.
(function () {
  var q = new URLSearchParams(location.search).get("q"), frame = document.getElementById("page"), out = document.getElementById("out");
  frame.onload = function () {
    var w = frame.contentWindow, d = frame.contentDocument, results = d.getElementById("search-results");
    function first() { return results.querySelector("a"); }
    (function poll() {
      if (!first()) return setTimeout(poll, 2);
      var at = w.performance.now(), files = w.performance.getEntriesByType("resource").filter(function (e) { return e.startTime <= at; });
      var index = files.filter(function (e) { return /\/search\/[^/]+\/[^/]+\.js$/.test(e.name); });
      var warm = [], box = d.getElementById("site-search");
      (function again(n) {
        if (n == 5) { out.textContent = JSON.stringify({q: q, firstResultMs: at, indexRequests: index.length, indexBytes: index.reduce(function (s, e) { return s + e.encodedBodySize; }, 0), pageFiles: files.length - index.length, pageBytes: files.filter(function (e) { return index.indexOf(e) < 0; }).reduce(function (s, e) { return s + e.encodedBodySize; }, 0), warmMs: warm}); return; }
        results.replaceChildren();
        var start = w.performance.now();
        box.value = q + (n % 2 ? " " : "");
        box.dispatchEvent(new w.Event("input"));
        (function wait() { if (!first()) return setTimeout(wait, 0); warm.push(+(w.performance.now() - start).toFixed(2)); again(n + 1); })();
      })(0);
    })();
  };
  frame.src = "/search/?q=" + encodeURIComponent(q);
})();
