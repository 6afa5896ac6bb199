#!/usr/bin/env python3
"""Lists every message Apache httpd 2.4's mod_proxy (with its HTTP, FastCGI, uwsgi, WebSocket
and balancer modules and proxy_util), mod_ssl's handshakes and certificate checks, the core's
request reading (server/protocol.c), and the other modules every request passes through (the
event MPM, mod_rewrite, mod_authz_core and mod_access_compat, the core's request walk, HTTP
filters and error redirects) can log, from httpd's own source, with its AH number, level and
source line: the catalogue `detour diagnose` is held to (Tests/DetourCLITests/LogCatalogue/
apache-verdicts.tsv says which article explains each one, or why none does; ApacheMessageCatalogueTests
fails on a message without a verdict).

    scripts/server-messages/apache.py HTTPD_GIT_DIR [--ref 2.4.x] [--out Tests/DetourCLITests/LogCatalogue/apache-2.4.tsv]

HTTPD_GIT_DIR is a clone of httpd's repository (github.com/apache/httpd). Read are the calls of
ap_log_error, ap_log_rerror, ap_log_cerror, ap_log_perror and ap_log_serror with an APLOGNO;
debug and trace levels are left out. A macro between a format's string literals (APR_TIME_T_FMT,
APR_SIZE_T_FMT) stands for one printf field and is written %s (after a lone %, s).
"""
import argparse, re, sys

import catalogue

FILES = [
    "server/mpm/event/event.c",
    "modules/mappers/mod_rewrite.c",
    "modules/aaa/mod_authz_core.c",
    "modules/aaa/mod_access_compat.c",
    "server/request.c",
    "modules/http/http_filters.c",
    "modules/http/http_request.c",
    "modules/proxy/mod_proxy.c",
    "modules/proxy/proxy_util.c",
    "modules/proxy/mod_proxy_http.c",
    "modules/proxy/mod_proxy_fcgi.c",
    "modules/proxy/mod_proxy_uwsgi.c",
    "modules/proxy/mod_proxy_wstunnel.c",
    "modules/proxy/mod_proxy_balancer.c",
    "modules/ssl/ssl_engine_io.c",
    "modules/ssl/ssl_engine_kernel.c",
    "server/protocol.c",
]
CALL = re.compile(r"\bap_log_(?:r|c|p|s)?error\s*\(\s*APLOG_MARK\s*,")
LEVELS = ["EMERG", "ALERT", "CRIT", "ERR", "WARNING", "NOTICE", "INFO", "DEBUG", "TRACE"]
CODE = re.compile(r"APLOGNO\((\d{5})\)")
TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z_0-9]*)')


def call_text(source, start):
    """The call's text from start to its closing parenthesis."""
    depth, i, quoted = 0, start, False
    while i < len(source):
        c = source[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return source[start:i + 1]
        i += 1
    return source[start:]


def level_of(args_text):
    first = args_text.split(",")[0]
    for name in LEVELS:
        if "APLOG_" + name in first:
            return name.lower()
    return "variable"


def messages(source, path):
    for match in CALL.finditer(source):
        text = call_text(source, match.start() + match.group(0).index("("))
        code = CODE.search(text)
        if not code:
            continue
        level = level_of(text[len("(APLOG_MARK,"):].strip().lstrip(",").strip() if text.startswith("(") else text[match.end() - match.start():])
        if level in ("debug", "trace"):
            continue
        # The format: the string literals right after APLOGNO(...), a macro between them a field.
        rest = text[code.end():]
        fmt, started = "", False
        for token in TOKEN.finditer(rest):
            literal, name = token.group(1), token.group(2)
            between = rest[:token.start()] if not started else rest[previous_end:token.start()]
            if started and between.strip():
                break
            if literal is not None:
                fmt += literal
                started = True
            elif started and name.isupper():
                # "%" APR_TIME_T_FMT: the macro is the conversion of the % before it.
                fmt += "s" if fmt.endswith("%") and not fmt.endswith("%%") else "%s"
            elif started:
                break
            previous_end = token.end()
        line = source.count("\n", 0, match.start()) + 1
        yield f"{path.split('/')[-1]}:{line}", "AH" + code.group(1), level, fmt.replace("\t", " ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--ref", default="2.4.x")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/apache-2.4.tsv")
    options = parser.parse_args()
    rows = []
    for path in FILES:
        rows += messages(catalogue.source(options.git_dir, f"refs/heads/{options.ref}", path), path)
    catalogue.write(options.out, [
        f"Every message Apache httpd's {options.ref} branch logs from mod_proxy and its HTTP, FastCGI, uwsgi, WebSocket and",
        "balancer modules, mod_ssl's handshakes and certificate checks, the core's request reading, the event MPM, mod_rewrite,",
        "mod_authz_core, mod_access_compat, the request walk, HTTP filters and error redirects: source line,",
        "AH number, level and the message as its printf writes it. Written by scripts/server-messages/apache.py; do not edit.",
    ], rows)
    print(f"{len(rows)} messages, {len(set(r[1] for r in rows))} AH numbers", file=sys.stderr)


if __name__ == "__main__":
    main()
