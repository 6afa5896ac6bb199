#!/usr/bin/env python3
"""Asks the shipped knowledge base's search, in headless Chromium, the real questions of
Tests/DetourCLITests/SearchRelevance/questions.tsv, and prints how many find an answering page
among the first three results, for each half: the tuning half's misses are listed, the test
half's only counted (it is never looked at while search is changed). The relevance suite of
queries.tsv beside it is asked too, and its misses listed.

    scripts/search-questions.py [--show-test]

DETOUR names the binary (default .build/debug/detour). The site is built from content/ and
templates/ into a temporary folder and opened from disk (file://), as SearchBrowserTests does.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUESTIONS = os.path.join(ROOT, "Tests", "DetourCLITests", "SearchRelevance", "questions.tsv")
SUITE = os.path.join(ROOT, "Tests", "DetourCLITests", "SearchRelevance", "queries.tsv")
PROBE = os.path.join(ROOT, "Tests", "DetourCLITests", "SearchProbe", "probe.js")
DETOUR = os.environ.get("DETOUR") or os.path.join(ROOT, ".build", "debug", "detour")


def rows(path):
    """The tab-separated fields of each line of `path` that is not a comment."""
    with open(path, encoding="utf-8") as table:
        for line in table:
            if not line.startswith("#") and line.strip():
                yield line.rstrip("\n").split("\t")


def questions():
    for half, query, expected, source in rows(QUESTIONS):
        yield {"half": half, "q": query, "expected": expected.split("|"), "source": source}


def suite():
    for kind, language, how, query, expected in rows(SUITE):
        entry = {"half": "suite", "q": query, "expected": [expected], "source": kind, "typed": how == "type"}
        if language != "-":
            entry["lang"] = language
        yield entry


def answered(links, expected):
    return any(link == page or link.startswith(page + "#") for link in links[:3] for page in expected)


def main():
    show_test = "--show-test" in sys.argv
    asked = list(questions()) + list(suite())
    with tempfile.TemporaryDirectory(prefix="detour-questions.") as site:
        for folder in ("content", "templates"):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(site, folder))
        subprocess.run([DETOUR, "build", "--quiet"], cwd=site, check=True)
        os.mkdir(os.path.join(site, "probe"))
        with open(os.path.join(site, "probe", "probe.html"), "w", encoding="utf-8") as page:
            page.write('<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">waiting</pre>'
                       '<iframe id="page"></iframe><script src="queries.js"></script><script src="probe.js"></script></body></html>')
        with open(os.path.join(site, "probe", "queries.js"), "w", encoding="utf-8") as script:
            script.write("var QUERIES = %s, TOKEN_TEXTS = [];" % json.dumps([{key: q[key] for key in ("q", "lang", "typed") if key in q} for q in asked]))
        shutil.copy(PROBE, os.path.join(site, "probe", "probe.js"))
        profile = os.path.join(site, "profile")
        dom = subprocess.run(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
             "--allow-file-access-from-files", "--virtual-time-budget=600000", "--dump-dom",
             "file://" + os.path.join(site, "probe", "probe.html")],
            capture_output=True, text=True, timeout=900).stdout
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    if not found or found.group(1) == "waiting":
        sys.exit("search-questions: the probe did not finish")
    text = found.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    results = json.loads(text)["queries"]
    score = {"tune": [0, 0], "test": [0, 0], "suite": [0, 0]}
    for question, result in zip(asked, results):
        hit = answered(result["links"], question["expected"])
        score[question["half"]][0] += hit
        score[question["half"]][1] += 1
        if not hit and (question["half"] != "test" or show_test):
            print("miss (%s): %s\n    want %s\n    got  %s" % (question["half"], question["q"], " | ".join(question["expected"]), result["links"][:3]))
    for half in ("tune", "test", "suite"):
        right, total = score[half]
        print("%s: %d/%d in the first three (%.1f %%)" % (half, right, total, 100.0 * right / max(total, 1)))


if __name__ == "__main__":
    main()
