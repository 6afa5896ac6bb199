// Search figures for one query (?q=) in a fresh browser, printed to the console as one
// "BENCH {json}" line: the moment of the first result and the moment the results page settled
// (its first ten with their excerpts: aria-busy false), each in ms since navigation and as a Unix
// time that measure.py compares with the server's log to count the files it took, then the same
// query typed again: once, then five times with its files loaded. ?engine=pagefind measures Pagefind's
// API on the same site instead. All times are real milliseconds on this machine.
(function () {
  var params = new URLSearchParams(location.search), q = params.get("q"), frame = document.getElementById("page");

  function report(result) { console.log("BENCH " + JSON.stringify(result)); }

  // Calls back, in the microtask after the DOM change, once `results` holds a link.
  function whenResult(w, results, done) {
    if (results.querySelector("a")) return done(w.performance.now(), true);
    var watch = new w.MutationObserver(function () {
      if (!results.querySelector("a")) return;
      watch.disconnect();
      done(w.performance.now(), false);
    });
    watch.observe(results, {childList: true, subtree: true});
  }

  // Calls back once the results page holds its first ten with their excerpts.
  function whenSettled(w, results, done) {
    if (results.getAttribute("aria-busy") == "false") return done(w.performance.now());
    var watch = new w.MutationObserver(function () {
      if (results.getAttribute("aria-busy") != "false") return;
      watch.disconnect();
      done(w.performance.now());
    });
    watch.observe(results, {attributes: true, attributeFilter: ["aria-busy"]});
  }

  // The page's first paint: a cold browser spends most of its time before it, on any page.
  function paint(w) {
    var first = w.performance.getEntriesByName("first-contentful-paint")[0];
    return first ? first.startTime : null;
  }

  // A zero-delay loop (setTimeout is clamped to 4 ms) that watches the frame between its tasks.
  function soon(f) { var c = new MessageChannel(); c.port1.onmessage = f; c.port2.postMessage(0); }

  function detour() {
    frame.src = "/search/?q=" + encodeURIComponent(q);
    (function attach() {
      var w = frame.contentWindow, d = frame.contentDocument, results = d && /\/search\/$/.test(w.location.pathname) && d.getElementById("search-results");
      if (!results) return soon(attach);
      whenResult(w, results, function (at, late) {
        var cold = {firstResultMs: at, firstResultAt: w.performance.timeOrigin + at, late: late, paintMs: paint(w)}, warm = [], box = d.getElementById("site-search");
        whenSettled(w, results, function (settled) {
          cold.settledMs = settled;
          cold.settledAt = w.performance.timeOrigin + settled;
          // Typed, the last word also matches as a prefix: the first typed query may need page
          // files the linked one did not, so it is reported apart from the five after it.
          (function again(n) {
            if (n == 6) return report(Object.assign({q: q, typedFirstMs: warm.shift(), warmMs: warm}, cold));
            results.replaceChildren();
            var start = w.performance.now();
            whenResult(w, results, function (end) { warm.push(+(end - start).toFixed(2)); setTimeout(again, 50, n + 1); });
            box.value = q + (n % 2 ? " " : "");
            box.dispatchEvent(new w.Event("input"));
          })(0);
        });
      });
    })();
  }

  // Pagefind's own API, as its UI calls it: search, then the first result's data.
  function pagefind() {
    import("/pagefind/pagefind.js").then(function (pf) {
      return pf.search(q).then(function (found) {
        if (!found.results.length) return report({q: q, firstResultMs: null});
        return found.results[0].data().then(function () {
          var at = performance.now(), cold = {firstResultMs: at, firstResultAt: performance.timeOrigin + at, late: false}, warm = [];
          (function again(n) {
            if (n == 5) return report(Object.assign({q: q, warmMs: warm}, cold));
            var start = performance.now();
            pf.search(q + (n % 2 ? " " : "")).then(function (r) { return r.results[0].data(); }).then(function () {
              warm.push(+(performance.now() - start).toFixed(2));
              setTimeout(again, 50, n + 1);
            });
          })(0);
        });
      });
    }).catch(function (e) { report({q: q, error: String(e)}); });
  }

  // A query that finds nothing, or a page that broke, reports no result.
  setTimeout(function () { report({q: q, firstResultMs: null}); }, 10000);
  (params.get("engine") == "pagefind" ? pagefind : detour)();
})();
