#!/usr/bin/env python3
"""Writes the messages HAProxy up to 2.2 logs at the notice level through its log targets
(send_log(..., LOG_NOTICE, "...")) as `detour diagnose` patterns, for LogRoutine: such a line
reaches syslog or a container's output without the `[NOTICE]` its standard error shows
(`Proxy web started.`), and nothing failed with it. HAProxy 2.3 stopped writing most of them;
2.6, installed here, writes none, so they are read from the source at REF (a clone of
github.com/haproxy/haproxy, as the search tool's fetch brings it). A format that is a field
alone (`%s.`) says nothing and is left out.

With them, the warnings (ha_warning) of the functions that apply a saved server state as HAProxy
starts (STARTUP_FUNCTIONS, in src/server.c; init() calls apply_server_state() once): `[WARNING]
119/203906 (1) : Can't open global server state file '…'` is written before any request, and
HAProxy carries on with the configuration's state. 2.4 and later write the same warnings behind
`config :`, which LogRoutine already reads as start-up.

    scripts/server-messages/haproxy-notices.py --git-dir DIR [--ref v2.2.0] [--out Sources/DetourLogs/HAProxyNoticeLines.swift]
"""
import argparse, os, re, subprocess

import catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIELD = re.compile(r"%[-+ #0-9.*]*(ll|l|h|z)?[a-zA-Z]")
CALL = re.compile(r'send_log\(\s*[^,]+,\s*LOG_NOTICE\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
WARNING = re.compile(r'ha_warning\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
STARTUP_FUNCTIONS = ("apply_server_state", "srv_update_state")
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

    def add(call):
        message = "".join(LITERAL.findall(call.group(1))).replace("\\n", "").replace('\\"', '"').strip()
        candidate = catalogue.pattern(message, FIELD)
        if sum(character.isalpha() for character in FIELD.sub("", message)) >= MINIMUM_LETTERS and candidate not in patterns:
            patterns.append(candidate)

    for name in sorted(files):
        for call in CALL.finditer(catalogue.source(arguments.git_dir, arguments.ref, name.split(":", 1)[1])):
            add(call)
    server = catalogue.source(arguments.git_dir, arguments.ref, "src/server.c")
    for function in STARTUP_FUNCTIONS:
        for call in WARNING.finditer(body(server, function)):
            add(call)
    catalogue.write_swift_patterns(
        arguments.out, f"scripts/server-messages/haproxy-notices.py from HAProxy's source at {arguments.ref}",
        ["What HAProxy up to 2.2 logs at the notice level through its log targets, where no `[NOTICE]`",
         "says so, and the warnings it writes as it applies a saved server state at start (before 2.4",
         "without `config :`): nothing failed with these lines."], "HAProxyNoticeLines", patterns)
    print(f"{len(patterns)} patterns -> {os.path.relpath(arguments.out, ROOT)}")


def body(text, function):
    """The braces-delimited body of C function `function` in `text`, string literals blanked so
    a brace inside one does not count."""
    match = re.search(r"^(?:static\s+)?\w[\w\s\*]*\b" + function + r"\([^;{]*\)\s*\{", text, re.MULTILINE)
    if not match:
        raise SystemExit(f"src/server.c has no function {function}")
    blanked = LITERAL.sub(lambda literal: '"' + " " * (len(literal.group(0)) - 2) + '"', text)
    depth, at = 0, match.end() - 1
    for at in range(match.end() - 1, len(blanked)):
        depth += {"{": 1, "}": -1}.get(blanked[at], 0)
        if depth == 0:
            break
    return text[match.start():at + 1]


if __name__ == "__main__":
    main()
