#!/usr/bin/env python3
"""Runs `detour verify nginx` on every case of a corpus laid out as cases/<name>/expect (the
`# run (from this folder): detour check nginx ARGS` line gives the arguments; `finding` and
`plant` lines are what must be found, `allow` what may be, `nginx-t FAIL FILE:LINE` a refusal
that must be reported there) and prints, per case, agreement, then the totals.

    scripts/verify-corpus.py CORPUS_DIR [DETOUR_BINARY]
"""
import json
import os
import re
import subprocess
import sys

CONFIG_RULES = {"nginx.syntax", "nginx.directive", "nginx.include-missing", "nginx.include-cycle", "nginx.include-depth", "nginx.include-size"}
RUN = "# run (from this folder): detour check nginx "


def expectations(lines):
    required, allowed = [], []
    for line in lines:
        if line.startswith(("finding ", "plant ", "allow ")):
            kind, rules, place = line.split()[:3]
            path, numbers = place.rsplit(":", 1)
            spec = (set(rules.split("|")), path, {int(n) for n in numbers.split("|")})
            (allowed if kind == "allow" else required).append(spec)
        elif match := re.match(r"nginx-t FAIL (\S+):(\d+) ", line):
            required.append((CONFIG_RULES, match.group(1), {int(match.group(2))}))
        elif line.startswith("nginx-t FAIL"):
            allowed.append((CONFIG_RULES, None, None))
    return required, allowed


def hits(spec, finding):
    rules, path, lines = spec
    return finding[0] in rules and (path is None or (finding[1] == path and finding[2] in lines))


def main(corpus, detour):
    totals = dict(cases=0, ran=0, refused=0, agree=0, required=0, found=0, false_alarms=0)
    for name in sorted(os.listdir(os.path.join(corpus, "cases"))):
        folder = os.path.join(corpus, "cases", name)
        expect = os.path.join(folder, "expect")
        if not os.path.exists(expect):
            continue
        lines = open(expect, encoding="utf-8").read().splitlines()
        arguments = next((line[len(RUN):].split() for line in lines if line.startswith(RUN)), None)
        if arguments is None:
            continue
        totals["cases"] += 1
        run = subprocess.run([detour, "verify", "nginx", *arguments, "--format", "json", "--timeout", "5"], cwd=folder, capture_output=True, text=True, timeout=600)
        if run.returncode == 2:
            totals["refused"] += 1
            print(f"{name}: cannot run here: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else '?'}")
            continue
        totals["ran"] += 1
        found = {(d["rule"], d["location"]["path"], d["location"]["line"]) for d in json.loads(run.stdout)["diagnostics"]}
        required, allowed = expectations(lines)
        matched = sum(1 for spec in required if any(hits(spec, f) for f in found))
        false_alarms = sorted(f for f in found if not any(hits(spec, f) for spec in required + allowed))
        agree = matched == len(required) and not false_alarms
        totals["agree"] += agree
        totals["required"] += len(required)
        totals["found"] += matched
        totals["false_alarms"] += len(false_alarms)
        print(f"{name}: {'agrees' if agree else 'disagrees'}: found {matched}/{len(required)}, false alarms {len(false_alarms)} {false_alarms[:2]}")
    print(
        f"{totals['cases']} cases: {totals['ran']} run ({totals['refused']} cannot run here); agreement {totals['agree']}/{totals['ran']}; "
        f"findings {totals['found']}/{totals['required']}; false alarms {totals['false_alarms']}"
    )


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "detour")
