#!/usr/bin/env python3
"""Lists every termination state HAProxy can write in its request log (the first two of its four
letters: why the session ended, and where it was then) and every reason a health check can fail
for, from HAProxy's own source (src/log.c's sess_term_cond and sess_fin_state, src/check.c's
check_statuses): the catalogue `detour diagnose` is held to (Tests/DetourCLITests/LogCatalogue/
haproxy-verdicts.tsv says which article explains each one, or why none does).

    scripts/server-messages/haproxy.py HAPROXY_GIT_DIR [--tag v2.6.0] [--out Tests/DetourCLITests/LogCatalogue/haproxy-2.6.tsv]

HAPROXY_GIT_DIR is a clone of HAProxy's repository (github.com/haproxy/haproxy); its 2.6 branch's
stable releases (Debian 12 ships 2.6.12) keep the same letters and reasons as v2.6.0.
"""
import argparse, re, sys

import catalogue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tag", default="v2.6.0")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/haproxy-2.6.tsv")
    options = parser.parse_args()
    log = catalogue.source(options.git_dir, options.tag, "src/log.c")
    conditions = re.search(r'sess_term_cond\[\d+\]\s*=\s*"([^"]+)";\s*/\*([^*]+)\*/', log)
    states = re.search(r'sess_fin_state\[\d+\]\s*=\s*"([^"]+)";\s*/\*([^*]+)\*/', log)
    condition_names = ["normal"] + [w.strip() for w in conditions.group(2).split(",")][1:]
    state_names = ["none"] + [w.strip() for w in states.group(2).split(",")]
    rows = []
    seen = set()
    for index, condition in enumerate(conditions.group(1)):
        if condition in seen:
            continue
        seen.add(condition)
        for state_index, state in enumerate(states.group(1)):
            rows.append(("state", condition + state + "--", f"{condition_names[index]}, {state_names[state_index]}"))
    check = catalogue.source(options.git_dir, options.tag, "src/check.c")
    for code, reason in re.findall(r'\{\s*CHK_RES_FAILED,\s*"([A-Z0-9]+)",\s*"([^"]+)"\s*\}', check):
        rows.append(("check", reason, code))
    catalogue.write(options.out, [
        f"Every termination state (the first two letters, no persistence cookie) HAProxy {options.tag.lstrip('v')} writes in its request",
        "log, with what each letter means, and every reason a health check fails for, with its code. Written by",
        "scripts/server-messages/haproxy.py; do not edit.",
    ], rows)
    print(f"{sum(r[0] == 'state' for r in rows)} states, {sum(r[0] == 'check' for r in rows)} failing check reasons", file=sys.stderr)


if __name__ == "__main__":
    main()
