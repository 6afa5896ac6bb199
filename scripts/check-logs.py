#!/usr/bin/env python3
"""Runs `detour diagnose` on every real log line of Tests/RealLogs/lines.jsonl, one line at a
time, and prints right/total per server, for each half of the corpus.

Each line of the corpus is a JSON object:

- `server`: whose log the line is (nginx, apache, haproxy, caddy, php-fpm, gunicorn, uwsgi, varnish);
- `line`: the log line exactly as it was posted (a mailing list's or a terminal's wrapping undone,
  nothing else changed: addresses, names and redactions stay as the poster wrote them);
- `source`: the public thread or page it was posted in;
- `cause`: what the thread itself found, in a few words, or what the message says where the thread
  found nothing more;
- `expected`: the article of content/ that explains that cause (its slug); `none` for a failure no
  article should claim (a visitor's own bad request, a bug in the server); `routine` for a line
  written when nothing failed; `new:SLUG` for a cause the knowledge base has no article for yet
  (scored as a miss until it has one); null when the thread never found the cause (kept, not
  scored).

A line is right when diagnose's first cause is the expected article; for `none`, when no article
claims it; for `routine`, when it is counted as routine. Each line falls in one of two halves by the
first bit of its SHA-1: fixes are found on the tuned half, the held-out half says how diagnose does
on lines nobody looked at while fixing it. The misses are written to .build/check-logs/misses.txt.

    scripts/check-logs.py [--at-least PERCENT] [SERVER...]

DETOUR names the binary (default .build/debug/detour); --at-least fails the run (exit 1) when the
whole corpus scores below PERCENT.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "RealLogs", "lines.jsonl")
OUT = os.path.join(ROOT, ".build", "check-logs")
DETOUR = os.environ.get("DETOUR") or os.path.join(ROOT, ".build", "debug", "detour")


def records():
    with open(CORPUS, encoding="utf-8") as corpus:
        for number, text in enumerate(corpus, 1):
            if text.strip():
                record = json.loads(text)
                record["number"] = number
                yield record


def half(line):
    return "tuned" if hashlib.sha1(line.encode("utf-8")).digest()[0] & 0x80 == 0 else "held-out"


def diagnose(line):
    result = subprocess.run(
        [DETOUR, "diagnose", "--format", "json", "--content", os.path.join(ROOT, "content"), "-"],
        input=(line + "\n").encode("utf-8"), capture_output=True, timeout=60)
    if result.returncode != 0:
        return {"error": result.stderr.decode("utf-8", "replace").strip()}
    return json.loads(result.stdout)


def verdict(record, report):
    """What diagnose said, and whether that is right."""
    if "error" in report:
        return "error: " + report["error"], False
    causes = [cause["slug"] for cause in report.get("causes", [])]
    routine = report.get("routine", {}).get("count", 0)
    said = causes[0] if causes else ("routine" if routine else "unexplained")
    expected = record["expected"]
    if expected == "none":
        return said, not causes
    return said, said == expected


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("servers", nargs="*")
    parser.add_argument("--at-least", type=float)
    arguments = parser.parse_args()
    chosen = [r for r in records() if not arguments.servers or r["server"] in arguments.servers]
    scored = [r for r in chosen if r.get("expected")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        reports = list(pool.map(lambda r: diagnose(r["line"]), scored))
    tally = collections.defaultdict(lambda: collections.Counter())
    misses = []
    for record, report in zip(scored, reports):
        said, right = verdict(record, report)
        key = (record["server"], half(record["line"]))
        tally[key]["total"] += 1
        tally[key]["right"] += right
        if not right:
            misses.append((half(record["line"]), record, said))
    servers = sorted({server for server, _ in tally})
    right = sum(counts["right"] for counts in tally.values())
    total = sum(counts["total"] for counts in tally.values())
    for server in servers:
        halves = {name: tally[(server, name)] for name in ("tuned", "held-out")}
        both = halves["tuned"] + halves["held-out"]
        print(f"{server}: {both['right']}/{both['total']} right "
              f"(tuned {halves['tuned']['right']}/{halves['tuned']['total']}, "
              f"held-out {halves['held-out']['right']}/{halves['held-out']['total']})")
    unscored = len(chosen) - len(scored)
    percent = 100.0 * right / total if total else 100.0
    print(f"all: {right}/{total} right ({percent:.1f} %); {unscored} lines whose cause no one found, not scored")
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "misses.txt"), "w", encoding="utf-8") as out:
        for name, record, said in sorted(misses, key=lambda m: (m[0] != "tuned", m[1]["server"])):
            out.write(f"[{name}] lines.jsonl:{record['number']} {record['server']}: expected {record['expected']}, "
                      f"diagnose said {said}\n  {record['line']}\n  {record['source']}: {record['cause']}\n")
    print(f"misses: {os.path.relpath(os.path.join(OUT, 'misses.txt'), ROOT)}")
    if arguments.at_least is not None and percent < arguments.at_least:
        print(f"below {arguments.at_least} %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
