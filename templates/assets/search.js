/* detour search: index scripts beside the form's action; file://, CSP; text only */
(function () {
"use strict";
var D = document, root = D.currentScript.src.replace(/search\.js([?#].*)?$/, ""), onDisk = location.protocol == "file:",
 Q = new URLSearchParams(location.search), own = D.documentElement.lang, lang = Q.get("lang") || own || "en", idx = {}, wait = {},
 all = a => Promise.all(a), WORD = /[\p{Alphabetic}\p{Nd}]/u, DIGIT = /\p{Nd}/u, {max, min} = Math, by = (a, b) => b.score - a.score;
// Tables without a prototype: "constructor" is a word.
var N = o => Object.setPrototypeOf(o, null);
// file://: folder links go to their index.html.
if (onDisk) D.querySelectorAll("a[href]").forEach(a => a.href = a.getAttribute("href").replace(/^([^:?#/][^:?#]*\/)?(?=[?#]|$)/, "$&index.html"));
function load(l, f) {
 var k = l + "/" + f, h = out && out.dataset.index;
 // The search page carries its language's entry.
 if (h && k == own + "/index" && !wait[k]) wait[k] = all([detourSearch.entry(l, JSON.parse(h))]);
 return wait[k] ||= new Promise((y, n) => D.head.append(Object.assign(el("script"), {src: new URL(k + ".js", box.form.action), onload: y, onerror: n})));
}
// Called by the index files.
window.detourSearch = {
 entry: (l, e) => { e.t = {}; e.d = {}; e.k = {}; N(e.syn); if (e.terms) { e.t[0] = e.terms.map(N); e.d[0] = e.docs; } idx[l] = e; },
 terms: (l, n, t, f) => idx[l].t[n] = [N(t), N(f)],
 docs: (l, n, d) => idx[l].d[n] = d,
 cards: (l, n, c) => idx[l].k[n] = N(c),
 // l.js: pages with log lines only; a term's rarity is among their n records, but no more
 // than over the site's (s: its count there): nginx, rare in log lines, is common. c: by
 // page, how many of its lines list it.
 logs: (l, n, t, f, s, c = {}) => {
  for (var k in t) new Set(t[k].filter((x, i) => i & 1).map(x => x >> 6)).forEach(p => c[p] = (c[p] || 0) + 1);
  Object.assign(idx[l].l = [N(t), N(f)], {n, s: N(s), c});
 },
 tokenize
};

/* SearchTokenizer's rules; the index maps words to stems. */
var fold = s => /[^\0-\x7f]/.test(s) ? s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC") : s,
 joiner = c => "_-./:@".includes(c),
 ideo = c => /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af]/.test(c),
 cut = (a, b) => DIGIT.test(a) != DIGIT.test(b) || /\p{Lowercase}/u.test(a) && /\p{Uppercase}/u.test(b);
function tokenize(text) {
 var t = [...fold(text)], G = [], ws = -1, we = 0, is = -1, i, c;
 function word(w) {
  var g = [], j, k, ps = 0, p, qs;
  function add(a) { var s = a.join("").toLowerCase(); if ([...s].length > 1 && !g.includes(s)) g.push(s); }
  add(w);
  if (w.some((c, j) => joiner(c) || j && cut(w[j - 1], c)))
   for (j = 0; j <= w.length; j++) if (j == w.length || joiner(w[j])) {
    p = w.slice(ps, j); ps = j + 1; qs = 0;
    if (p.length < w.length) add(p);
    for (k = 1; k < p.length; k++) if (cut(p[k - 1], p[k])) { add(p.slice(qs, k)); qs = k; }
    if (qs) add(p.slice(qs));
   }
  if (g.length) G.push(g);
 }
 for (i = 0; i < t.length; i++) {
  c = t[i];
  if (ideo(c)) { if (ws >= 0) word(t.slice(ws, we)); ws = -1; if (is >= 0) G.push([t[i - 1] + c]); else is = i; continue; }
  if (is >= 0 && is == i - 1) G.push([t[is]]);
  is = -1;
  if (WORD.test(c)) { if (ws < 0) ws = i; we = i + 1; }
  else if (ws >= 0 && !(joiner(c) && we == i)) { word(t.slice(ws, we)); ws = -1; }
 }
 if (ws >= 0) word(t.slice(ws, we));
 if (is >= 0 && is == t.length - 1) G.push([t[is]]);
 return G;
}

/* Score: term (exact 1, prefix .7, typo .5) * impact * rarity * (rarity matched)^2 (^4 for a line the log file did not explain); page: best + .3 rest. */
var rare = (n, c) => Math.log(1 + (n - c + .5) / (c + .5)),
 status = t => /^\d{3}[a-z]*$/.test(t) && t.slice(0, 3),
 // An address, a port, a time (no letter): the visitor's own, not the page's.
 visitors = t => !/\p{L}/u.test(t),
 fnv = k => { for (var h = 2166136261, i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 16777619); return h >>> 0; };
// By the first two letters, or the shortest start the entry does not list as cut (split).
function shard(t, e, a = [...t], i = 2) {
 while (i < a.length && (e.split || []).includes(a.slice(0, i).join(""))) i++;
 return fnv(a.slice(0, i).join("")) % e.termShards;
}
function dist(a, b, x) {
 if (Math.abs(a.length - b.length) > x) return x + 1;
 for (var p = [...Array(b.length + 1).keys()], i = 1, j, c, low; i <= a.length; i++, p = c) {
  for (c = [i], low = i, j = 1; j <= b.length; j++) low = min(low, c[j] = min(p[j] + 1, c[j - 1] + 1, p[j - 1] + (a[i - 1] != b[j - 1])));
  if (low > x) return x + 1;
 }
 return p[b.length];
}
/* Fillers, and a status's reason beside it (502 Bad Gateway), go unless alone; a JSON log
   line's keys ("level":, "msg":) are its format's, not its failure's, and go too. */
function find(q, l) {
 return load(l, "index").then(() => {
  var e = idx[l], G = tokenize(q.slice(0, 500).replace(/"\w+":/g, " ")), z = G.length, need = t => e.t[t = shard(t, e)] || load(l, "t" + t).catch(() => e.t[t] = [N({}), N({})]),
   F = t => e.t[shard(t, e)], stemOf = t => F(t)[1][t] || t, codes = G.map(g => status(g[0])).filter(t => e.codes[t] >= 0),
   y = (codes.map(c => e.why[c]) + "").split(/[ ,]/), R, x = G.filter(g => !(y.includes(g[0]) ? R = 1 : e.filler.includes(g[0])));
  // Twelve words at most; for the term shards (x) each once, so a question's quoted error,
  // after its title, keeps its words. A log line keeps its repeats, as its route counts them.
  // Past twelve, a sentence's pairs of ideographs (a term for each two characters) are left
  // out before its other words: a Chinese question keeps the error it quotes.
  var twelve = (L, k = L.map((h, j) => [ideo(h[0][0]), j]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, 12).map(p => p[1])) => L.filter((g, i) => k.includes(i));
  G = x[0] ? x : G; x = twelve(G.filter((g, i, a) => a.findIndex(h => h[0] == g[0]) == i)); G = twelve(G);
  // A log line (most words in l.js's filter; a short one, its plain words (I: not an
  // identifier or a number) side by side as a log line has them (pairs: k of c), at least one
  // such pair or a number that is no status with a page: `upstream prematurely closed
  // FastCGI`, `200 1076 - - SD--`, not `tune php-fpm pool` nor `auth_request returns 401 403`;
  // a long one, not two plain neighbours or more of which no pair is a log line's:
  // `auth_request to return other errors than 401 and 403`): l.js and the shards of the first
  // identifier and the first plain word it lacks (an address, a port, a time is the visitor's
  // own), so a question's own word (reload) and any page may match too: three requests, as
  // three words take. A status with its reason phrase (R: 502 Bad Gateway) reads as a
  // question, not a pasted line.
  var lined, B = e.logs && atob(e.logs), A = e.pairs && atob(e.pairs), has = (F, t) => [t, t + "!"].every(s => (s = fnv(s) % (F.length * 8), F.charCodeAt(s >> 3) >> (s & 7) & 1)),
   I = g => g[1] || DIGIT.test(g[0]), o = G.filter(I).length, c = 0, k = 0, m = A && G.map((g, i) => i && !I(g) && !I(G[i - 1]) && (c++, k += has(A, G[i - 1][0] + " " + g[0]))) && (z > 4 ? (k || c < 2) && 3 : G[2] && k == c && (c || G.some(g => DIGIT.test(g[0]) && !(g[0] in e.codes))) && new Set(G.map(g => shard(g[0], e))).size > 2 && 5),
   most = f => G.filter(g => g.some(f)).length * 5 >= G.length * m, lg = t => has(B, t),
   p = G.filter(g => !I(g) && g[0][2] && !lg(g[0])).length;
  // An identifier found whole there is looked up whole, and ranks as an identifier asked
  // for whole (backendRef, read from its shard, on a page without log lines). The log file's
  // answer stands if a page there explains half the line at least; else the line is no site's
  // (Envoy's `upstream connect error or disconnect/reset before headers`, quoted in a table) or
  // no line at all, and every word's shard ranks it.
  if (B && m && !R && most(lg) && (o > 1 ? p * 3 <= G.length : !p)) return load(l, "l").then(() => {
   var T = e.l, H = t => e.t[shard(t, e)] || T, s = t => H(t)[1][t] || t, w = G.filter(g => !T[0][s(g[0])] && !visitors(g[0])).sort((a, b) => !a[1] - !b[1]);
   return all([w[0], w.find(g => !g[1])].map(g => g && need(g[0]))).then(() => (p = rank(e, l, G.map(g => g[1] && H(g[0])[0][s(g[0])] ? [g[0], g[0]] : g), s, H, codes), most(t => H(t)[0][s(t)]) && (p.list.find(P => P.cov != null) || {}).cov >= .5 ? p : full(lined = 1)));
  }, full);
  return full();
  function full() { G = x; return all(G.map(g => need(g[0]))).then(() => {
   // An identifier written with the other joiner is the site's: limit-req, as an ingress
   // annotation names it, is the page's limit_req.
   G.map(g => g[1] && !F(g[0]).some(m => m[g[0]]) && ["_", "-"].map(j => g[0].replace(/[-_]/g, j)).some(v => (F(v) || []).some(m => m[v]) && (g[0] = v)));
   // An identifier indexed whole keeps the pieces whose shards came with the query
   // (ProxyErrorOverride's proxy): they rank, a request costs; a status's (500s) none. One a
   // typo away is looked up whole, still an identifier to rank(). And a word's abbreviation,
   // or the word abbreviated (k8s, kubernetes), a piece's kept too (mod_http_ws's ws), and
   // for a piece of an identifier the site lacks (f: found whole), one that stands for its word
   // only inside an identifier (-request: req).
   G = G.map((g, i, a, f) => (g = !g[1] ? g : (f = F(g[0]).some(m => m[g[0]])) ? g.filter(t => t == g[0] || !status(g[0]) && e.t[shard(t, e)]) : near(g[0], F(g[0])[0]).length ? [g[0], g[0]] : g).concat(...g.map((t, j) => e.syn[t] || j && !f && e.syn["-" + t] || [])));
   return all(G.flat().map(need));
  }).then(() => all(G.flat().map(t => need(stemOf(t))))).then(() => rank(e, l, G, stemOf, F, codes, lined)); }
 });
}
/* Terms a typo away: one edit in 5 to 8 letters, two beyond. */
var near = (a, T, x = a.length > 8 ? 2 : +(a.length > 4)) => Object.keys(T).filter(k => x && dist(a, k, x) <= x);
/* Exact words; the last also as a prefix; a word not found falls back to prefixes, then typos.
   A word weighs its rarest term's rarity: one rare word outweighs common ones. */
function rank(e, l, G, stemOf, F, codes, line) {
 var recs = {}, rx = {}, hits = [], pages = {}, imp = [], total = 0, list = [], x, p, P, s, c, i, best = 0, S = 0,
  st = G.map(g => codes.includes(status(g[0])));
 G.map((g, gi) => {
  var a = g[0], T = F(a), U = {...T[0], ...T[1]}, num = visitors(a), W = g[1] && a.includes(g[1]) && stemOf(a), cand = N({}), piece = N({}), k, w, i, r, n, top = 0, none = () => !Object.keys(cand)[0], put = w => k => { k = T[1][k] || k; if (w > (cand[k] || 0) && T[0][k]) cand[k] = w; };
  if (imp[gi] = 0, g[1] && num) return;
  // A piece the site lacks is the word that begins it, three letters shorter at most, as a
  // plain word would be (nginx-alerts: alert).
  g.map((t, j) => { var k = stemOf(t); if (j && !F(k)[0][k]) k = Object.keys(F(k)[0]).find(s => t.startsWith(s) && s[3] && t.length - s.length < 4) || k; if (F(k)[0][k] && !cand[k]) cand[k] = 1, piece[k] = j && g[0].includes(t); });
  // The last word as a prefix, but a status, which is whole (401, not 4010). A word not
  // found also matches the words that begin it, three letters longer at most, or, a plain
  // word the site lacks (n), of five letters or more, any longer: run together,
  // mysqlconnections is mysql's (downloading not down's; proxy_bufer_size is a typo's). A
  // number is neither the numbers that begin it nor a typo's: Windows' errno 10061 is not
  // 1006, a WebSocket close code.
  if ((n = none()) || gi == G.length - 1 && !st[gi]) Object.keys(U).filter(k => k.startsWith(a) && a[2] || !num && a.startsWith(k) && k[3] && (a.length - k.length < 4 || n && !g[1] && k[4])).map(put(.7));
  if (none() && !num) near(a, U).map(put(.5));
  for (k in cand) top = max(top, F(k)[0][k][0]);
  for (k in cand) {
   // A log file's word weighs no more than over the site; a word guessed (a prefix, a typo)
   // weighs, and counts in the query's rarity, as often as the site uses it: whe is when,
   // and conf is not the rare confirm.
   P = F(k)[0][k]; x = rare(F(k).n || e.records, P[0]); if (s = F(k).s && F(k).s[k]) x = min(x, rare(e.records, s)); x *= cand[k] < 1 ? P[0] / top : 1; w = cand[k] * x;
   imp[gi] = max(imp[gi], x);
   hits.push(k);
   for (i = 1; i < P.length; i += 2) {
    // An identifier asked for whole (proxy_ignore_client_abort; ReferenceGrant, whose stem is
    // referencegr; not a word with its abbreviation, which is no piece of it) counts wherever a
    // page has it at least as a heading's mention would (20: SearchIndexBuilder.Field's 5,
    // scaled by 4).
    r = recs[P[i]] ||= []; s = w * (k === W ? max(P[i + 1], 20) : P[i + 1]); if (!(r[gi] >= s)) r[gi] = s;
    // An identifier's piece covers its word by its rarity: /var/run's var is not php5-fpm.sock's fpm.
    r = rx[P[i]] ||= []; r[gi] = max(r[gi] || 0, piece[k] ? x : 1 / 0);
   }
  }
  total += imp[gi]; S += st[gi] && imp[gi];
 });
 for (x in recs) {
  // c: the share of the query's rarity matched; i: by statuses. A pasted line the log file did
  // not explain weighs it twice over: the record quoting the whole line first.
  s = c = i = 0; p = x >> 6; P = pages[p] ||= {p, best: 0, sum: 0, rec: 0, l, cov: 0, rest: 0};
  recs[x].map((v, gi) => { s += v; v = min(rx[x][gi], imp[gi]) / total; c += v; i += st[gi] && v; });
  s *= c * c * (line ? c * c : 1); P.sum += s; P.cov = max(P.cov, c); P.rest = max(P.rest, c - i);
  if (s > P.best) { P.best = s; P.rec = x & 63; }
 }
 c = [...new Set(codes)].map(k => e.codes[k]);
 for (p in pages) { P = pages[p]; P.score = P.best + .3 * (P.sum - P.best); list.push(P); if (!c.includes(+p) && P.cov > best) best = P.cov; }
 // A status's page goes first if, given the statuses, it covers the query as well as any
 // page (504s, error 504, 502 vs 504); else second, after the best of the others (i: one
 // status's page at most goes second).
 list.sort(by);
 x = list.find(P => !c.includes(P.p));
 i = 0;
 c.map(p => pages[p] || (list.push(pages[p] = {p, rec: 0, l, score: 0, rest: 0}), pages[p])).sort(by).map(P => {
  P.score += !total || P.rest + S / total >= best - 1e-9 || !x ? 2e9 : i++ ? 0 : 1e9;
 });
 if (x && c[0]) x.score += 1.5e9;
 list.sort((a, b) => by(a, b) || a.p - b.p);
 return {list, hits};
}
function run(q) {
 var none = {list: [], hits: []};
 return find(q, lang).then(res => res.list.length || Q.get("lang") ? res :
  all(idx[lang].languages.filter(l => l != lang).map(l => find(q, l).catch(() => none))).then(all => {
   all.map(o => { res.list.push(...o.list); res.hits.push(...o.hits); });
   res.list.sort(by);
   return res;
  }), () => none);
}
/* n pages from `from`: the first now, the rest a task later. A hit on more records than the
   entry's cards[1] has cards (c<n>.js, by the hit) for the best record of the ten pages it
   alone ranks first (SearchIndexCards), a log file's hit for those on most of its lines (C)
   first; a result reads the card of its page from a card file that holds two results or more
   (the record the card shows), else its page's shard. */
function carded(L, C, S = {}, p, i) {
 for (i = 1; i < L.length; i += 2) (p = S[L[i] >> 6]) ? p[1] += 3 * L[i + 1] : S[L[i] >> 6] = [L[i], 10 * L[i + 1], L[i] >> 6];
 return Object.values(S).sort((a, b) => (C ? C[b[2]] - C[a[2]] : 0) || b[1] - a[1] || a[2] - b[2]).slice(0, 10).map(p => p[0]);
}
function pagesOf(list, from, n, first, hits) {
 var top = list.slice(from, from + n), C = {}, b, K = {};
 top.map(P => {
  var e = idx[P.l];
  P.k = [];
  // A word the log file ranked (its term shard not read) has the log file's cards: "!word".
  if (e.cards) hits.map(k => {
   var L = (e.t[shard(k, e)] || [{}])[0][k] || e.l && (k = "!" + k, e.l[0][k.slice(1)]);
   if (L && L[0] > e.cards[1] && (K[P.l + k] ||= carded(L, k[0] == "!" && e.l.c)).some(x => x >> 6 == P.p)) P.k.push([fnv(k) % e.cards[0], k]);
  });
 });
 for (;;) {
  C = {}; top.map(P => P.c || P.k.map(c => (C[P.l + c[0]] ||= []).push([P, c])));
  b = Object.values(C).sort((a, b) => b.length - a.length)[0];
  if (!b || !b[1]) break;
  b.map(x => x[0].c ||= x[1]);
 }
 function get(P) {
  var e = idx[P.l], c = P.c, k = c ? c[0] : P.p >> 10, D = c ? e.k : e.d, d;
  // A card missing (an index half written) is read from the page's shard.
  return all([D[k] || load(P.l, (c ? "c" : "d") + k)]).then(() => {
   if (c) return (c = (D[k][c[1]] || []).find(x => x[0] >> 6 == P.p)) ? (P.rec = c[0] & 63, [, P.url, P.title, P.codes, ...P.r] = c) : get(P, P.c = 0);
   [P.url, P.title, P.codes, d] = D[k][P.p & 1023]; P.r = d[P.rec] || d[0];
  }, x => c ? get(P, P.c = 0) : Promise.reject(x));
 }
 return top.length ? get(top[0]).then(() => { first([top[0]]); return new Promise(y => setTimeout(y)).then(() => all(top.map(get))); }).then(() => top, () => top.filter(P => P.url)) : all(top);
}

var el = (tag, cls, text, x = D.createElement(tag)) => (cls && (x.className = cls), text != null && (x.textContent = text), x);
function excerpt(text, hits) {
 var x = el("span", "excerpt"), re = /[\p{Alphabetic}\p{Nd}]+/gu, m, M = [], w, s, end, at;
 while ((m = re.exec(text)) && M.length < 30) {
  w = fold(m[0]).toLowerCase();
  if (hits.some(h => h == w || h.length > 2 && w.startsWith(h))) M.push([m.index, m.index + m[0].length]);
 }
 hits.map(h => { var i = ideo(h[0]) ? text.indexOf(h) : -1; if (i >= 0) M.push([i, i + h.length]); });
 M.sort((a, b) => a[0] - b[0]);
 s = M.length ? max(0, M[0][0] - 60) : 0;
 if (s) { s = text.indexOf(" ", s) + 1 || s; x.append("…"); }
 end = min(text.length, s + 200); at = s;
 M.map(k => { if (k[0] >= at && k[1] <= end) { x.append(text.slice(at, k[0]), el("mark", "", text.slice(k[0], k[1]))); at = k[1]; } });
 x.append(text.slice(at, end) + (end < text.length ? "…" : ""));
 return x;
}
function link(P, res) {
 var a = el("a");
 a.href = root + P.url + (onDisk ? "index.html" : "") + (P.rec ? "#" + P.r[0] : "");
 P.codes.slice(0, 3).map(c => a.append(el("span", "badge", c)));
 a.append(el("strong", "", P.title));
 if (P.rec) a.append(el("span", "section", P.r[1]));
 a.append(excerpt(P.r[2], res.hits));
 return a;
}

var $ = id => D.getElementById(id), box = $("site-search"), pop = $("site-search-list"), out = $("search-results"),
 note = $("search-status"), browse = $("search-browse"), more = $("search-more"), seq = 0, on = -1, shown = [], found,
 hear = (t, f) => box.addEventListener(t, f), PAGE = 10;
if (!box) return;
var open = x => box.setAttribute("aria-expanded", !(pop.hidden = !x));
/* Ten results at a time, with excerpts; the count is every match's. */
function render(top, res, q, done) {
 on = -1; box.removeAttribute("aria-activedescendant");
 var items = top.map((P, i) => { var li = el("li"); li.append(link(P, res)); if (!out) { li.id = "site-search-option-" + i; li.setAttribute("role", "option"); } return li; });
 if (!out) return pop.replaceChildren(...items), open(items[0]);
 var ol = el("ol"); ol.append(...items); out.replaceChildren(ol); shown = top; out.ariaBusy = !done;
 note.textContent = q ? note.dataset[top.length ? "some" : "none"].replace("{query}", q).replace("{count}", res.list.length) : "";
 browse.hidden = !!top.length;
 // A theme's own search page may have no "more" button.
 if (more) more.hidden = top.length >= res.list.length;
}
function show(q) {
 var n = ++seq;
 if (!q.trim()) return render([], {list: []}, "", 1);
 if (out) out.ariaBusy = true;
 run(q).then(res => { found = res; return pagesOf(res.list, 0, out ? PAGE : 8, part => n == seq && render(part, res, q), res.hits).then(top => n == seq && render(top, res, q, 1)); });
}
if (more) more.onclick = () => {
 var n = seq, before = shown;
 pagesOf(found.list, before.length, PAGE, () => 0, found.hits).then(top => n == seq && render(before.concat(top), found, box.value, 1));
};
D.addEventListener("keydown", ev => {
 if (ev.key == "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(D.activeElement.tagName) || ev.key == "k" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); box.focus(); box.select(); }
});
hear("focus", () => load(lang, "index").catch(() => 0));
hear("input", () => {
 show(box.value);
 if (out) { Q.set("q", box.value); history.replaceState(null, "", "?" + Q); }
});
hear("keydown", ev => {
 var o = pop.children, k = ev.key;
 if (k == "Escape") open(false);
 if (out || !o.length) return;
 if (k == "ArrowDown" || k == "ArrowUp") {
  ev.preventDefault();
  if (on >= 0) o[on].removeAttribute("aria-selected");
  on = k == "ArrowDown" ? (on + 1) % o.length : on <= 0 ? o.length - 1 : on - 1;
  o[on].setAttribute("aria-selected", true); box.setAttribute("aria-activedescendant", o[on].id);
 }
 if (k == "Enter" && on >= 0) { ev.preventDefault(); location.href = o[on].firstChild.href; }
});
hear("blur", () => setTimeout(open, 200, false));
if (out) { box.value = Q.get("q") || ""; show(box.value); }
})();
