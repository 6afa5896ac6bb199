#!/usr/bin/env python3
"""Runs `detour verify` on every case of a corpus laid out as cases/<name>/expect (the
`# run (from this folder): detour check SERVER ARGS` line gives the server and the arguments;
`# env: K=V ...` lines the environment it runs in; `finding` and `plant` lines are what must be found, `allow` what may be, `nginx-t FAIL FILE:LINE`
(`caddy-validate`, `haproxy-c`, `apache2-t`) a refusal that must be reported there, the first
the server meets, so others are not judged) and prints,
per case, agreement, then the totals per server. Cases of a server `detour verify` does not run
are counted apart.

    scripts/verify-corpus.py CORPUS_DIR [DETOUR_BINARY]

VERBOSE=1 lists each case's missed findings and false alarms.
"""
import collections
import json
import os
import re
import subprocess
import sys

# The findings a server's refusal of the configuration is reported as.
CONFIG_RULES = {
    "nginx": {"nginx.syntax", "nginx.directive", "nginx.include-missing", "nginx.include-cycle", "nginx.include-depth", "nginx.include-size"},
    "caddy": {"caddy.syntax", "caddy.directive", "caddy.import"},
    "haproxy": {"haproxy.syntax", "haproxy.errorfile-code", "haproxy.error-page-missing-file", "haproxy.errorfile-invalid"},
    "apache": {"apache.syntax"},
}
REFUSAL = {"nginx-t": "nginx", "caddy-validate": "caddy", "haproxy-c": "haproxy", "apache2-t": "apache"}
RUN = "# run (from this folder): detour check "
# Ids one shared check had in a dialect before, as expect files may still name them.
SAME_CHECK = [("code-not-covered", "uncovered-code"), ("error-page-missing-file", "error-document-missing-file"),
              ("upstream-errors-pass-through", "backend-errors-pass-through")]


def canonical(rule):
    dialect, _, check = rule.partition(".")
    for group in SAME_CHECK:
        if check in group:
            return dialect + "." + group[0]
    return rule


def expectations(lines, server):
    required, allowed = [], []
    config_rules = CONFIG_RULES.get(server, set())
    for line in lines:
        if line.startswith(("finding ", "plant ", "allow ")):
            # RULE[|RULE…] PATH:LINE[|LINE…][,PATH:LINE…]: any of the rules at any of the places.
            kind, rules, places = line.split()[:3]
            spots = set()
            for place in places.split(","):
                path, numbers = place.rsplit(":", 1)
                spots |= {(path, int(n)) for n in numbers.split("|")}
            spec = ({canonical(rule) for rule in rules.split("|")}, spots)
            (allowed if kind == "allow" else required).append(spec)
        elif match := re.match(r"(\S+) FAIL (\S+):(\d+) ", line):
            required.append((config_rules, {(match.group(2), int(match.group(3)))}))
            # The server stops at the first line it refuses, the one recorded: a refusal
            # verify finds after blanking it is not judged.
            allowed.append((config_rules, None))
        elif re.match(r"(\S+) FAIL", line):
            allowed.append((config_rules, None))
    return required, allowed


def hits(spec, finding):
    rules, spots = spec
    return finding[0] in rules and (spots is None or (finding[1], finding[2]) in spots)


def main(corpus, detour):
    servers = subprocess.run([detour, "verify", "--help"], capture_output=True, text=True).stdout
    all_totals = {}
    # Per server: required findings missed, and false alarms, by rule.
    missed_by_rule = collections.defaultdict(collections.Counter)
    false_by_rule = collections.defaultdict(collections.Counter)
    for name in sorted(os.listdir(os.path.join(corpus, "cases"))):
        folder = os.path.join(corpus, "cases", name)
        expect = os.path.join(folder, "expect")
        if not os.path.exists(expect):
            continue
        lines = open(expect, encoding="utf-8").read().splitlines()
        arguments = next((line[len(RUN):].split() for line in lines if line.startswith(RUN)), None)
        if arguments is None:
            continue
        server, arguments = arguments[0], arguments[1:]
        totals = all_totals.setdefault(server, dict(cases=0, ran=0, refused=0, agree=0, required=0, found=0, false_alarms=0, unsupported=0))
        totals["cases"] += 1
        if f"detour verify {server} " not in servers:
            totals["unsupported"] += 1
            continue
        # `# env: K=V …` lines: the environment the case's configuration reads.
        environment = dict(os.environ)
        for line in lines:
            if line.startswith("# env: "):
                environment.update(pair.split("=", 1) for pair in line[len("# env: "):].split() if "=" in pair)
        run = subprocess.run(
            [detour, "verify", server, *arguments, "--format", "json", "--timeout", "5"], cwd=folder, capture_output=True, text=True, timeout=600, env=environment
        )
        if run.returncode == 2:
            totals["refused"] += 1
            print(f"{name}: cannot run here: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else '?'}")
            continue
        totals["ran"] += 1
        found = {(d["rule"], d["location"]["path"], d["location"]["line"]) for d in json.loads(run.stdout)["diagnostics"]}
        required, allowed = expectations(lines, server)
        matched = sum(1 for spec in required if any(hits(spec, f) for f in found))
        for spec in required:
            if not any(hits(spec, f) for f in found):
                missed_by_rule[server]["|".join(sorted(spec[0])) if len(spec[0]) < 3 else "refusal"] += 1
        false_alarms = sorted(f for f in found if not any(hits(spec, f) for spec in required + allowed))
        agree = matched == len(required) and not false_alarms
        totals["agree"] += agree
        totals["required"] += len(required)
        totals["found"] += matched
        totals["false_alarms"] += len(false_alarms)
        false_by_rule[server].update(f[0] for f in false_alarms)
        print(f"{name}: {'agrees' if agree else 'disagrees'}: found {matched}/{len(required)}, false alarms {len(false_alarms)} {false_alarms[:2]}")
        if os.environ.get("VERBOSE"):
            for spec in required:
                if not any(hits(spec, f) for f in found):
                    print(f"  missed {'|'.join(sorted(spec[0]))} {','.join(f'{path}:{line}' for path, line in sorted(spec[1] or []))}")
            for finding in false_alarms:
                print(f"  false alarm {finding[0]} {finding[1]}:{finding[2]}")
    for server, totals in sorted(all_totals.items()):
        if totals["unsupported"] == totals["cases"]:
            print(f"{server}: {totals['cases']} cases, not run (detour verify does not run {server} yet)")
            continue
        print(
            f"{server}: {totals['cases']} cases: {totals['ran']} run ({totals['refused']} cannot run here); agreement {totals['agree']}/{totals['ran']}; "
            f"findings {totals['found']}/{totals['required']}; false alarms {totals['false_alarms']}"
        )
        if missed_by_rule[server]:
            print(f"  missed: " + ", ".join(f"{rule} {count}" for rule, count in missed_by_rule[server].most_common()))
        if false_by_rule[server]:
            print(f"  false alarms: " + ", ".join(f"{rule} {count}" for rule, count in false_by_rule[server].most_common()))


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "detour")
