#!/usr/bin/env node
// Why a query ranks its pages as it does: runs the built site's own search.js, under Node, on
// each line of standard input, and prints the index files the query reads to rank (in order;
// its results' excerpts come after), the terms it matched, and its first results with their
// score and how much of the query their best record covers; a page whose URL contains PAGE
// is printed wherever it ranks.
//
//     node scripts/search-explain.js public/ [PAGE] [--lang=en] [--top=5] < queries.txt
//
// search.js runs as served, in a context that gives it the script elements and the
// search form it looks for; nothing of it is reimplemented here.
"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm");

const options = process.argv.slice(2).filter(a => a.startsWith("--"));
const [site, page = ""] = process.argv.slice(2).filter(a => !a.startsWith("--"));
const option = (name, fallback) => (options.find(a => a.startsWith("--" + name + "=")) || "").split("=")[1] || fallback;
if (!site) {
  process.stderr.write("usage: node scripts/search-explain.js PUBLIC_DIR [PAGE] [--lang=en] [--top=5] < queries\n");
  process.exit(2);
}
const root = path.resolve(site), lang = option("lang", "en"), top = +option("top", 5), read = [];

// The client's functions are private to it; the last line hands the two this script needs out.
const client = fs.readFileSync(path.join(root, "search.js"), "utf8")
  .replace("if (!box) return;", "")
  .replace(/\}\)\(\);\s*$/, "window.explain = {run, idx}; })();");
// Each query in a fresh client, as a visitor's first: what it reads is what it costs.
function freshClient() {
  const document = {
    currentScript: {src: "file://" + path.join(root, "search.js")},
    documentElement: {lang},
    querySelectorAll: () => [],
    getElementById: id => id == "site-search" ? {form: {action: "file://" + path.join(root, "search") + "/"}, addEventListener() {}} : null,
    createElement: () => ({}),
    addEventListener() {},
    // A script element appended is an index file read: run it, then report it loaded or missing.
    head: {
      append(script) {
        const file = new URL(script.src).pathname;
        read.push(path.relative(path.join(root, "search"), file));
        try {
          vm.runInContext(fs.readFileSync(file, "utf8"), context);
          setTimeout(script.onload);
        } catch (error) {
          setTimeout(() => script.onerror(error));
        }
      },
    },
  };
  const context = vm.createContext({document, location: {protocol: "file:", search: ""}, URLSearchParams, URL, Promise, setTimeout, console, atob, history: {}});
  context.window = context;
  vm.runInContext(client, context);
  return context;
}

// A result's URL is in its page's doc shard, which the query may not have read.
function urlOf(context, result) {
  const docs = context.explain.idx[result.l].d, shard = result.p >> 10;
  if (!docs[shard]) {
    const file = path.join(root, "search", result.l, "d" + shard + ".js");
    if (fs.existsSync(file)) vm.runInContext(fs.readFileSync(file, "utf8"), context);
  }
  const entry = docs[shard] && docs[shard][result.p & 1023];
  return entry ? entry[0] : "page " + result.p;
}

(async () => {
  for (const query of fs.readFileSync(0, "utf8").split("\n").filter(line => line.trim())) {
    read.length = 0;
    const context = freshClient(), found = await context.explain.run(query);
    console.log(query);
    console.log("  read: " + read.join(" "));
    console.log("  matched: " + found.hits.join(" "));
    found.list.forEach((result, rank) => {
      const url = urlOf(context, result);
      if (rank < top || (page && url.includes(page)))
        console.log("  " + (rank + 1) + ". " + url + "  score " + result.score.toFixed(2) + ", covers " + (result.cov || 0).toFixed(2));
    });
  }
})();
