// Whether each script and its minified form are the same tokens in the same order, as acorn
// (Debian's node-acorn) reads them: regular expressions, strings and template parts included.
// Reads [[source, minified], …] as JSON on standard input; prints each pair that differs and
// exits 1 if any does.
//
// usage: node scripts/script-tokens.js < pairs.json
"use strict";
const acorn = require(process.env.ACORN || "/usr/share/nodejs/acorn");
const tokens = text => [...acorn.tokenizer(text, {ecmaVersion: "latest"})].map(t =>
 t.type.label + " " + (t.value && t.value.pattern !== undefined ? "/" + t.value.pattern + "/" + t.value.flags : t.value));
let input = "";
process.stdin.on("data", d => input += d).on("end", () => {
 let failed = 0;
 for (const [source, minified] of JSON.parse(input)) {
  const a = tokens(source), b = tokens(minified);
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (i < a.length || a.length != b.length) {
   failed++;
   console.log("token " + i + " differs: " + JSON.stringify(a.slice(i, i + 3)) + " became " + JSON.stringify(b.slice(i, i + 3)));
  }
 }
 process.exit(failed ? 1 : 0);
});
