// The messages headless Chromium writes to a page's console by itself (a failed request, a
// WebSocket handshake refused), which a page's own scripts cannot read: read over the DevTools
// protocol on Chromium's pipe (fd 3 to it, fd 4 from it, NUL after each message), one per line
// as `level<TAB>text`, for the seconds after the page starts loading (a navigation that fails
// gives its own error as level `navigation`). Chromium's executable and
// flags come from `Chromium.consoleMessages`, which runs this.
//
//     node console.js URL SECONDS CHROMIUM [FLAG...]
"use strict";
const {spawn} = require("child_process"), fs = require("fs"), os = require("os"), path = require("path");
const [url, seconds, chromium, ...flags] = process.argv.slice(2);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "detour-console-"));
const browser = spawn(chromium, [...flags, "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
  {stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"]});
function finish(code) {
  browser.kill("SIGKILL");
  fs.rmSync(profile, {recursive: true, force: true});
  process.exit(code);
}
setTimeout(() => { console.error("Chromium did not answer in 20 s"); finish(1); }, 20000);
let id = 0, pending = "";
const replies = {};
function send(method, params = {}, sessionId) {
  browser.stdio[3].write(JSON.stringify({id: ++id, method, params, sessionId}) + "\0");
  return new Promise(resolve => replies[id] = resolve);
}
browser.stdio[4].on("data", chunk => {
  const messages = (pending + chunk).split("\0");
  pending = messages.pop();
  for (const message of messages.map(m => JSON.parse(m))) {
    if (message.id && replies[message.id]) replies[message.id](message.result || {});
    if (message.method == "Log.entryAdded") console.log(message.params.entry.level + "\t" + message.params.entry.text);
  }
});
(async () => {
  const {targetInfos} = await send("Target.getTargets");
  const {sessionId} = await send("Target.attachToTarget", {targetId: targetInfos.find(t => t.type == "page").targetId, flatten: true});
  await send("Log.enable", {}, sessionId);
  // A page that never loads (a redirect loop, a refused connection) has no console of its
  // own: its error is the navigation's, given as level `navigation`.
  const {errorText} = await send("Page.navigate", {url}, sessionId);
  if (errorText) console.log("navigation\t" + errorText);
  setTimeout(() => finish(0), +seconds * 1000);
})();
