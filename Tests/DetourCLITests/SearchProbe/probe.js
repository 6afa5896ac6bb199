// Loads the real search page for each query in a same-origin frame and reports what a
// visitor would see: the result links in order, and anything that should not be there.
// Opened from disk (file://, beside the built site's public/), it runs the queries only.
(function () {
  var out = document.getElementById("out"), frame = document.getElementById("page"), report = {queries: [], tokens: null, paging: null, keyboard: null},
    onDisk = location.protocol == "file:", search = onDisk ? "../public/search/index.html" : "/search/";
  function wait(test, done, tries) {
    if (test() || tries > 100) return done();
    setTimeout(function () { wait(test, done, (tries || 0) + 1); }, 50);
  }
  function visit(url, ready, then) {
    frame.onload = function () { var d = frame.contentDocument; wait(function () { return ready(d); }, function () { then(d, frame.contentWindow); }); };
    frame.src = url;
  }
  function next(i) {
    if (i == QUERIES.length) return onDisk ? (out.textContent = JSON.stringify(report)) : tokens();
    var entry = QUERIES[i], q = typeof entry == "string" ? entry : entry.q, lang = entry.lang ? "lang=" + entry.lang : "", started = false,
      // A query too long for a URL (nginx answers 414 past 8 KB) is typed into the box instead.
      typed = entry.typed || q.length > 2000;
    visit(typed ? search + (lang ? "?" + lang : "") : search + "?q=" + encodeURIComponent(q) + (lang ? "&" + lang : ""), function (d) {
      var box = d.getElementById("site-search"), status = d.getElementById("search-status");
      if (typed && box && !started) { started = true; box.value = q; box.dispatchEvent(new frame.contentWindow.Event("input")); }
      var results = d.getElementById("search-results");
      return (status && status.textContent || !q.trim()) && results && results.getAttribute("aria-busy") == "false";
    }, function (d) {
      // Site paths as the server names them: from disk, links end in index.html under public/.
      var links = Array.prototype.map.call(d.querySelectorAll("#search-results a"), function (a) {
        return a.getAttribute("href").replace(/^https?:\/\/[^\/]+\//, "").replace(/^file:.*\/public\//, "").replace(/index\.html(?=#|$)/, "");
      });
      report.queries.push({q: q, links: links.slice(0, 5), injected: d.querySelectorAll("main img, main script, main iframe").length,
        browseShown: !d.getElementById("search-browse").hidden, boxValue: d.getElementById("site-search").value,
        marks: Array.prototype.map.call(d.querySelectorAll("#search-results mark"), function (m) { return m.textContent; }).slice(0, 5),
        excerpt: (d.querySelector("#search-results .excerpt") || {}).textContent || ""});
      next(i + 1);
    });
  }
  function tokens() {
    var w = frame.contentWindow;
    report.tokens = TOKEN_TEXTS.map(function (t) { return [].concat.apply([], w.detourSearch.tokenize(t)); });
    paging();
  }
  // A frequent word: ten results, the count of all, and ten more on demand.
  function paging() {
    function busy(d) { var r = d.getElementById("search-results"); return r.getAttribute("aria-busy") != "false"; }
    visit("/search/?q=upstream", function (d) { return !busy(d); }, function (d, w) {
      var more = d.getElementById("search-more"), results = d.getElementById("search-results");
      report.paging = {first: results.querySelectorAll("li").length, moreShown: !more.hidden, status: d.getElementById("search-status").textContent};
      more.click();
      wait(function () { return !busy(d) && results.querySelectorAll("li").length > report.paging.first; }, function () {
        report.paging.afterMore = results.querySelectorAll("li").length;
        keyboard();
      });
    });
  }
  function keyboard() {
    visit("/codes/502/", function (d) { return d.getElementById("site-search"); }, function (d, w) {
      var box = d.getElementById("site-search"), list = d.getElementById("site-search-list");
      d.body.dispatchEvent(new w.KeyboardEvent("keydown", {key: "/", bubbles: true}));
      var focused = d.activeElement === box;
      box.value = "timeout";
      box.dispatchEvent(new w.Event("input"));
      wait(function () { return list.children.length; }, function () {
        box.dispatchEvent(new w.KeyboardEvent("keydown", {key: "ArrowDown", bubbles: true}));
        box.dispatchEvent(new w.KeyboardEvent("keydown", {key: "ArrowDown", bubbles: true}));
        var active = d.getElementById(box.getAttribute("aria-activedescendant"));
        report.keyboard = {focused: focused, options: list.children.length, expanded: box.getAttribute("aria-expanded"),
          role: list.getAttribute("role"), optionRole: list.children[0] && list.children[0].getAttribute("role"),
          activeIsSecond: active === list.children[1], selected: active && active.getAttribute("aria-selected")};
        out.textContent = JSON.stringify(report);
      });
    });
  }
  next(0);
})();
