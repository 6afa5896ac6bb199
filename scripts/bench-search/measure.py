#!/usr/bin/env python3
"""Opens the bench page once per word, each in a fresh headless Chromium (cold cache), reads
the "BENCH {json}" line bench.js logs, and prints one line of figures per word. The files and
bytes before the first result come from nginx's access log (`$msec $request_time
$body_bytes_sent $uri`, written as each response ends), so they count whatever made the request:
page, module or worker. A request counts when it started before the moment (its end less its
time): the files a page asks for after its first result do not, however fast they come.
The same log gives what the results page weighed once it settled (its first ten with excerpts),
and the worst of the frequent words is set against the worst of the rare ones.

usage: measure.py PORT ACCESS_LOG ENGINE [WORD...]   (ENGINE: detour or pagefind)
Without words, reads `class<TAB>query` lines (queries.py) from standard input and ends with the
worst query of each class.
"""
import re
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

TIMEOUT = 60


def run(url):
    profile = tempfile.mkdtemp(prefix="detour-bench-profile.")
    browser = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
         "--enable-logging=stderr", "--v=0", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True)
    deadline = time.monotonic() + TIMEOUT
    try:
        for line in browser.stderr:
            marker = line.find('"BENCH ')
            if marker >= 0:
                # Chromium quotes the message: "BENCH {...}", source: ...
                return json.loads(line[marker + 7:line.rindex('", source:')])
            if time.monotonic() > deadline:
                break
        return None
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


INDEX_FILES = {"detour": re.compile(r"^/search/[^/]+/[^/]+\.js$"), "pagefind": re.compile(r"^/pagefind/")}


def served_before(log, offset, moment, is_index):
    """Index and other files asked for before `moment` (Unix ms)."""
    index, page = [0, 0], [0, 0]
    with open(log) as lines:
        lines.seek(offset)
        for line in lines:
            msec, seconds, size, uri = line.split()
            if (float(msec) - float(seconds)) * 1000 >= moment or uri.startswith("/bench/"):
                continue
            counts = index if is_index.match(uri) else page
            counts[0] += 1
            counts[1] += int(size)
    return index, page


def main():
    port, log, engine, words = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    queries = [("", word) for word in words] or [tuple(line.rstrip("\n").split("\t", 1)) for line in sys.stdin if "\t" in line]
    firsts, worst, settled = [], {}, {}
    for kind, word in queries:
        offset = os.path.getsize(log)
        r = run("http://127.0.0.1:%s/bench/?engine=%s&q=%s" % (port, engine, urllib.parse.quote(word)))
        label = (kind + " " if kind else "") + (word if len(word) <= 40 else word[:37] + "...")
        if not r or r.get("firstResultMs") is None:
            print("  %-24s no result%s" % (label, (": " + r["error"]) if r and "error" in r else ""))
            worst.setdefault(kind, None)
            continue
        warm = sorted(r["warmMs"])
        firsts.append(r["firstResultMs"])
        index, page = served_before(log, offset, r["firstResultAt"], INDEX_FILES[engine])
        script = " (page painted at %5.1f)" % r["paintMs"] if r.get("paintMs") else ""
        print("  %-24s first result at %6.1f ms%s%s, %d index requests, %6.1f KB index + %5.1f KB page (%d files);"
              " %sthe same query with its files loaded: median %.1f ms, max %.1f ms"
              % (label, r["firstResultMs"], script, " (late)" if r.get("late") else "", index[0],
                 index[1] / 1024, page[1] / 1024, page[0],
                 "typed %.1f ms, then " % r["typedFirstMs"] if r.get("typedFirstMs") is not None else "", warm[len(warm) // 2], warm[-1]))
        if r.get("settledAt") is not None:
            done = [sum(pair) for pair in zip(*served_before(log, offset, r["settledAt"], INDEX_FILES[engine]))]
            print("  %-24s settled at %6.1f ms: %d requests, %6.1f KB in all" % ("", r["settledMs"], done[0], done[1] / 1024))
            if kind and done[1] > settled.get(kind, (0, 0, ""))[1]:
                settled[kind] = (done[0], done[1], word)
        figures = (index[0], index[1], r["firstResultMs"], word)
        if kind and (worst.get(kind) is None or figures[:2] > worst[kind][:2]):
            worst[kind] = figures
    if firsts:
        print("  first result: worst %.1f ms, median %.1f ms over %d queries" % (max(firsts), sorted(firsts)[len(firsts) // 2], len(firsts)))
    for kind, figures in worst.items():
        if figures is None:
            print("  worst %-10s a query found nothing" % kind)
        else:
            print("  worst %-10s %d index requests, %6.1f KB index, first result at %6.1f ms: %s"
                  % (kind, figures[0], figures[1] / 1024, figures[2], figures[3][:60]))
    if "frequent" in settled and "rare" in settled:
        print("  results page settled, heaviest: frequent %d requests %.1f KB (%s), rare %d requests %.1f KB (%s)"
              % (settled["frequent"][0], settled["frequent"][1] / 1024, settled["frequent"][2],
                 settled["rare"][0], settled["rare"][1] / 1024, settled["rare"][2]))


if __name__ == "__main__":
    main()
