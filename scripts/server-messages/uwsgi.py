#!/usr/bin/env python3
"""Lists every line uWSGI's master, workers, sockets, request reader and writer, uwsgi and HTTP
protocols, HTTP router and Python plugin can log, and its start-up besides (options, privileges,
cgroups, namespaces, the pidfile: core/init.c, core/utils.c), from uWSGI's own source at the release Debian 12
ships (2.0.21): the catalogue `detour diagnose` is held to
(Tests/DetourCLITests/LogCatalogue/uwsgi-verdicts.tsv says which article explains each one, or why
none does).

    scripts/server-messages/uwsgi.py UWSGI_GIT_DIR [--tag 2.0.21] [--out Tests/DetourCLITests/LogCatalogue/uwsgi-2.0.tsv]

UWSGI_GIT_DIR is a clone of uWSGI's repository (github.com/unbit/uwsgi). uWSGI logs without
levels. Read are the calls uwsgi_log, uwsgi_log_verbose (the same line after a date),
uwsgi_log_initial and uwsgi_log_safe with a string, and the macros that log an errno the way
uwsgi.h writes them: uwsgi_error("bind()") is `bind(): %s [core/socket.c line %d]`,
uwsgi_req_error adds the request, and the HTTP router's uwsgi_cr_log and uwsgi_cr_error put its
`[uwsgi-http key: … client_addr: … client_port: …]` first. A format of several lines gives one row
a line; a line with no letters outside its fields (`%s`) says nothing to judge and is left out.
"""
import argparse, re, sys

import catalogue

FILES = [
    "core/master.c", "core/master_utils.c", "core/master_checks.c", "core/socket.c", "core/reader.c",
    "core/writer.c", "core/protocol.c", "core/uwsgi.c", "plugins/python/python_plugin.c",
    "plugins/python/pyloader.c", "plugins/python/wsgi_handlers.c", "plugins/python/wsgi_subhandler.c",
    "plugins/python/wsgi_headers.c", "proto/uwsgi.c", "proto/http.c", "proto/base.c",
    "plugins/corerouter/corerouter.c", "plugins/corerouter/cr_common.c", "plugins/corerouter/cr_map.c",
    "plugins/http/http.c", "core/gateway.c", "core/utils.c", "core/init.c",
]
# The gateways whose lines are read: the HTTP router, by the name its plugin gives it
# (`uhttp.cr.name = "uWSGI http"`), which core/gateway.c and the router write for their `%s`
# (`spawned %s %d (pid: %d)`, `%s bound on %s fd %d`).
GATEWAY_PLUGINS = ["plugins/http/http.c"]
GATEWAY_NAME = re.compile(r'\.cr\.name\s*=\s*(?:uwsgi_str\()?"([^"]+)"')
# A call whose format (one literal) is followed by the gateway's name.
GATEWAY_ARGUMENT = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*,\s*(?:ug|ucr)->name\b')
# Each call that logs, and which of its arguments is the format: the HTTP router's cr.h macros
# (cr_read(peer, "hr_read()")) log through uwsgi_cr_error.
LOGGERS = {
    "uwsgi_log_verbose": 0, "uwsgi_log_initial": 0, "uwsgi_log_safe": 0, "uwsgi_log": 0, "uwsgi_error_safe": 0,
    "uwsgi_error_open": 0, "uwsgi_error_realpath": 0, "uwsgi_error": 0, "uwsgi_req_error": 0, "uwsgi_cr_error": 1,
    "uwsgi_cr_log": 1, "cr_write": 1, "cr_write_buf": 2, "cr_read": 1, "cr_read_exact": 2, "cr_peer_connected": 1,
}
CALL = re.compile(r"\b(" + "|".join(sorted(LOGGERS, key=len, reverse=True)) + r")\s*\(")
# What the HTTP router (corerouter) writes before its own messages, as cr.h does.
ROUTER = "[uwsgi-%s key: %.*s client_addr: %s client_port: %s]"
# Macros of <inttypes.h> and uwsgi.h that stand inside formats.
MACROS = {"PRIu64": "llu", "PRId64": "lld", "PRIx64": "llx", "UWSGI_VERSION": "%s"}


def argument(source, start, index):
    """The format a call opening at start passes as its argument number index: its adjacent
    literals joined, a macro between them replaced, or None when the argument is no literal."""
    position = start
    for _ in range(index):
        depth = 0
        while depth > 0 or source[position] != ",":
            depth += {"(": 1, ")": -1}.get(source[position], 0)
            position += 1
        position += 1
    parts = []
    while True:
        while position < len(source) and source[position] in " \t\r\n":
            position += 1
        if source.startswith('"', position):
            end = position + 1
            while source[end] != '"':
                end += 2 if source[end] == "\\" else 1
            parts.append(source[position + 1:end])
            position = end + 1
            continue
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", source[position:])
        if word and word.group(0) in MACROS and parts:
            parts.append(MACROS[word.group(0)])
            position += len(word.group(0))
            continue
        if source[position] in ",)" and parts:
            return "".join(parts)
        return None


def formats(name, written, path):
    """The lines a call writes, as printf formats, given the format it passes (`written`)."""
    if name in ("uwsgi_error", "uwsgi_error_safe"):
        return [f"{written or '%s'}: %s [{path} line %d]"]
    if name == "uwsgi_error_open":
        return [f'open(\\"%s\\"): %s [{path} line %d]']
    if name == "uwsgi_error_realpath":
        return [f"realpath() of %s failed: %s [{path} line %d]"]
    if name in ("uwsgi_cr_error", "cr_write", "cr_write_buf", "cr_read", "cr_read_exact"):
        return [f"{ROUTER} {written or '%s'}: %s [{path} line %d]"]
    if name == "cr_peer_connected":
        return [f"{ROUTER} {written}/getsockopt(): %s [{path} line %d]"] if written is not None else []
    if name == "uwsgi_cr_log":
        return [ROUTER + written] if written is not None else []
    if name == "uwsgi_req_error":
        return [f"{written}: %s [{path} line %d] during %.*s %.*s (%.*s)", f"{written} %s [{path} line %d] "]
    return [written] if written is not None else []


def messages(source, path, gateways=()):
    """The lines source (at path) logs; a format whose `%s` is a gateway's name (`ug->name`,
    `ucr->name`) gives one line per name in gateways."""
    for match in CALL.finditer(source):
        # A call inside the macros' own definitions or a comment's prose is no log line.
        line_start = source.rfind("\n", 0, match.start()) + 1
        if source[line_start:match.start()].lstrip().startswith(("#define", "//", "*")):
            continue
        name = match.group(1)
        lineno = source.count("\n", 0, match.start()) + 1
        written = argument(source, match.end(), LOGGERS[name])
        texts = formats(name, written, path)
        if GATEWAY_ARGUMENT.match(source, match.end()):
            texts = [text.replace("%s", gateway, 1) for text in texts for gateway in gateways]
        for text in texts:
            for line in text.split("\\n"):
                line = line.replace("\\t", " ").rstrip()
                if re.search(r"[A-Za-z]{2}", re.sub(r"%[-+ #0-9.*]*(ll|l|h|z)?[a-zA-Z]", "", line)):
                    yield f"{path}:{lineno}", "verbose" if name == "uwsgi_log_verbose" else "-", line


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tag", default="2.0.21")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/uwsgi-2.0.tsv")
    options = parser.parse_args()
    rows = {}
    gateways = [name for path in GATEWAY_PLUGINS for name in GATEWAY_NAME.findall(catalogue.source(options.git_dir, options.tag, path))]
    if not gateways:
        sys.exit(f"no gateway name in {', '.join(GATEWAY_PLUGINS)} at {options.tag}: the gateways' lines would be lost")
    for path in FILES:
        for where, kind, text in messages(catalogue.source(options.git_dir, options.tag, path), path, gateways):
            rows.setdefault(text, (where, kind))
    catalogue.write(options.out, [
        f"Every line uWSGI {options.tag} logs from its master, workers, sockets, protocols, request reader and writer, HTTP router, gateways, Python plugin and start-up:",
        "source line, `verbose` when uwsgi_log_verbose writes it after a date (else -), and the line as its printf format",
        "writes it. Written by scripts/server-messages/uwsgi.py; do not edit.",
    ], [(where, kind, text) for text, (where, kind) in rows.items()])
    print(f"{len(rows)} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
