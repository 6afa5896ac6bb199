#!/usr/bin/env python3
"""Writes the messages HAProxy up to 2.2 logs at the notice level through its log targets
(send_log(..., LOG_NOTICE, "...")) as `detour diagnose` patterns, for LogRoutine: such a line
reaches syslog or a container's output without the `[NOTICE]` its standard error shows
(`Proxy web started.`), and nothing failed with it. HAProxy 2.3 stopped writing most of them;
2.6, installed here, writes none, so they are read from the source at REF (a clone of
github.com/haproxy/haproxy, as the search tool's fetch brings it). A format that is a field
alone (`%s.`) says nothing and is left out.

    scripts/server-messages/haproxy-notices.py --git-dir DIR [--ref v2.2.0] [--out Sources/DetourLogs/HAProxyNoticeLines.swift]
"""
import argparse, os, re, subprocess

import catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIELD = re.compile(r"%[-+ #0-9.*]*(ll|l|h|z)?[a-zA-Z]")
CALL = re.compile(r'send_log\(\s*[^,]+,\s*LOG_NOTICE\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
MINIMUM_LETTERS = 8


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--ref", default="v2.2.0")
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "DetourLogs", "HAProxyNoticeLines.swift"))
    arguments = parser.parse_args()
    files = subprocess.run(["git", "-C", arguments.git_dir, "grep", "-l", "LOG_NOTICE", arguments.ref, "--", "src"],
                           check=True, capture_output=True, text=True).stdout.split()
    patterns = []
    for name in sorted(files):
        text = catalogue.source(arguments.git_dir, arguments.ref, name.split(":", 1)[1])
        for call in CALL.finditer(text):
            message = "".join(LITERAL.findall(call.group(1))).replace("\\n", "").replace('\\"', '"').strip()
            candidate = catalogue.pattern(message, FIELD)
            if sum(character.isalpha() for character in FIELD.sub("", message)) >= MINIMUM_LETTERS and candidate not in patterns:
                patterns.append(candidate)
    catalogue.write_swift_patterns(
        arguments.out, f"scripts/server-messages/haproxy-notices.py from HAProxy's source at {arguments.ref}",
        ["What HAProxy up to 2.2 logs at the notice level through its log targets, where no `[NOTICE]`",
         "says so: nothing failed with these lines."], "HAProxyNoticeLines", patterns)
    print(f"{len(patterns)} patterns -> {os.path.relpath(arguments.out, ROOT)}")


if __name__ == "__main__":
    main()
