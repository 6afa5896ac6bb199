#!/usr/bin/env python3
"""Lists every message Caddy's reverse_proxy (with php_fastcgi's transport and the health checks)
can log, from Caddy's own source at one release: its logger's messages with their level, and the
errors it makes, which reach the log as http.log.error's "msg" (or, made while Caddy provisions
its configuration, in the "Error: loading http app module: …" that refuses it). The function each
one is in tells which. Go's own error texts (net, net/http, crypto/tls: "connection refused",
"i/o timeout", "EOF") are not in Caddy's source and not in this list. The catalogue `detour
diagnose` is held to: Tests/DetourCLITests/LogCatalogue/caddy-verdicts.tsv says which article
explains each one, or why none does.

    scripts/server-messages/caddy.py CADDY_GIT_DIR [--tag v2.6.2] [--out Tests/DetourCLITests/LogCatalogue/caddy-2.6.tsv]

CADDY_GIT_DIR is a clone of Caddy's repository (github.com/caddyserver/caddy). Left out are the
Caddyfile adapter, the reverse-proxy command and the admin API: they refuse a configuration or a
command before anything is served.
"""
import argparse, re, subprocess, sys

import catalogue

FOLDER = "modules/caddyhttp/reverseproxy/"
SKIPPED = ("caddyfile.go", "command.go", "admin.go")
LOG = re.compile(r'\b(\w*[lL]ogger)\.(Error|Warn|Info)\("((?:[^"\\]|\\.)*)"')
ERROR = re.compile(r'\b(?:errors\.New|fmt\.Errorf)\("((?:[^"\\]|\\.)*)"')
FUNCTION = re.compile(r"^func (?:\([^)]*\) )?(\w+)\(", re.M)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tag", default="v2.6.2")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/caddy-2.6.tsv")
    options = parser.parse_args()
    files = subprocess.run(["git", "-C", options.git_dir, "ls-tree", "-r", "--name-only", options.tag, FOLDER], check=True, capture_output=True, text=True).stdout.split()
    rows, seen = [], set()
    for path in files:
        name = path.split("/")[-1]
        if not name.endswith(".go") or name.endswith("_test.go") or name in SKIPPED:
            continue
        source = catalogue.source(options.git_dir, options.tag, path)
        functions = [(m.start(), m.group(1)) for m in FUNCTION.finditer(source)]
        def enclosing(offset):
            names = [n for start, n in functions if start < offset]
            return names[-1] if names else "-"
        found = [(m.start(), "log", m.group(2).lower(), m.group(3)) for m in LOG.finditer(source)]
        found += [(m.start(), "error", "error", m.group(1)) for m in ERROR.finditer(source)]
        for offset, kind, level, text in sorted(found):
            function = enclosing(offset)
            when = "provision" if re.match(r"(?i)provision|validate|cleanup|load|new", function) and kind == "error" else "request"
            key = (kind, when, level, text)
            if key in seen:
                continue
            seen.add(key)
            rows.append((f"{name}:{source.count(chr(10), 0, offset) + 1}", function, f"{kind}/{when}", level, text))
    catalogue.write(options.out, [
        f"Every message Caddy {options.tag.lstrip('v')}'s reverse_proxy, its FastCGI transport and health checks log: source line, the",
        "function it is in, its kind (log: the logger's own line; error: made here and logged as http.log.error's msg, or, at",
        "provision, in the Error that refuses the configuration), level and text. Written by scripts/server-messages/caddy.py; do not edit.",
    ], rows)
    print(f"{len(rows)} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
