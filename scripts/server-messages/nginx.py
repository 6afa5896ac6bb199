#!/usr/bin/env python3
"""Lists every message nginx's proxy, upstream, FastCGI/uwsgi/SCGI/gRPC, connect, socket I/O,
resolver, rate-limit and request code can log at run time, and the modules every request passes
through besides (the core's locations, limits and internal redirects, the request body, rewrites,
static files and indexes, access rules, basic and subrequest authentication, subrequests' output,
HTTP/2, accepting connections, reading a PROXY protocol header), from nginx's own source at one release, and
writes them with their level and source line: the catalogue that `detour diagnose` is held to
(Tests/DetourCLITests/LogCatalogue/nginx-verdicts.tsv says which article explains each one, or
why none does; NginxMessageCatalogueTests fails on a message without a verdict).

    scripts/server-messages/nginx.py NGINX_GIT_DIR [--tag release-1.22.1] [--out Tests/DetourCLITests/LogCatalogue/nginx-1.22.tsv]

NGINX_GIT_DIR is a clone of nginx's repository (github.com/nginx/nginx). Read are the calls of
ngx_log_error and ngx_ssl_error, and of ngx_connection_error and ngx_ssl_connection_error, which
log at the connection's level: error for an upstream, info for a client. Left out are the alert level (nginx's own
failures: memory, a system call that cannot fail) and debug.
"""
import argparse, re, sys

import catalogue

FILES = [
    "src/event/ngx_event_connect.c",
    "src/event/ngx_event_pipe.c",
    "src/event/ngx_event_openssl.c",
    "src/os/unix/ngx_recv.c",
    "src/os/unix/ngx_readv_chain.c",
    "src/os/unix/ngx_send.c",
    "src/os/unix/ngx_writev_chain.c",
    "src/os/unix/ngx_linux_sendfile_chain.c",
    "src/core/ngx_resolver.c",
    "src/http/ngx_http_upstream.c",
    "src/http/ngx_http_upstream_round_robin.c",
    "src/http/ngx_http_request.c",
    "src/http/modules/ngx_http_proxy_module.c",
    "src/http/modules/ngx_http_fastcgi_module.c",
    "src/http/modules/ngx_http_uwsgi_module.c",
    "src/http/modules/ngx_http_scgi_module.c",
    "src/http/modules/ngx_http_grpc_module.c",
    "src/http/modules/ngx_http_limit_req_module.c",
    "src/http/modules/ngx_http_limit_conn_module.c",
    "src/event/ngx_event_accept.c",
    "src/http/ngx_http_core_module.c",
    "src/http/ngx_http_request_body.c",
    "src/http/ngx_http_script.c",
    "src/http/modules/ngx_http_static_module.c",
    "src/http/modules/ngx_http_index_module.c",
    "src/http/modules/ngx_http_autoindex_module.c",
    "src/http/modules/ngx_http_rewrite_module.c",
    "src/http/modules/ngx_http_access_module.c",
    "src/http/modules/ngx_http_auth_basic_module.c",
    "src/http/modules/ngx_http_auth_request_module.c",
    "src/http/ngx_http_postpone_filter_module.c",
    "src/http/v2/ngx_http_v2.c",
    "src/core/ngx_proxy_protocol.c",
]
CALL = re.compile(r"\b(ngx_log_error|ngx_connection_error|ngx_ssl_error|ngx_ssl_connection_error)\s*\(")
LEVELS = {"NGX_LOG_EMERG": "emerg", "NGX_LOG_CRIT": "crit", "NGX_LOG_ERR": "error", "NGX_LOG_WARN": "warn",
          "NGX_LOG_NOTICE": "notice", "NGX_LOG_INFO": "info", "NGX_LOG_ALERT": "alert"}
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def arguments(text, start):
    """The top-level arguments of the call whose '(' is at start, and where it ends."""
    depth, current, args, i, quoted = 0, "", [], start, False
    while i < len(text):
        c = text[i]
        if quoted:
            current += c
            if c == "\\":
                current += text[i + 1]
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            current += c
        elif c == "(":
            depth += 1
            if depth > 1:
                current += c
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(current.strip())
                return args, i
            current += c
        elif c == "," and depth == 1:
            args.append(current.strip())
            current = ""
        else:
            current += c
        i += 1
    return args, i


def messages(source, path):
    for match in CALL.finditer(source):
        function = match.group(1)
        args, _ = arguments(source, match.end() - 1)
        strings = [a for a in args if a.startswith('"')]
        if not strings:
            continue
        fmt = "".join(STRING.findall(strings[0]))
        if function in ("ngx_log_error", "ngx_ssl_error"):
            level = LEVELS.get(args[0], "variable")
        else:
            level = "connection"
        if level in ("alert",):
            continue
        line = source.count("\n", 0, match.start()) + 1
        yield f"{path.split('/')[-1]}:{line}", level, fmt.replace("\t", " ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--tag", default="release-1.22.1")
    parser.add_argument("--out", default="Tests/DetourCLITests/LogCatalogue/nginx-1.22.tsv")
    options = parser.parse_args()
    rows = []
    for path in FILES:
        rows += messages(catalogue.source(options.git_dir, options.tag, path), path)
    catalogue.write(options.out, [
        f"Every message nginx {options.tag.removeprefix('release-')} logs at run time from its proxy, upstream, FastCGI, uwsgi, SCGI,",
        "gRPC, connect, socket I/O, resolver, rate-limit and request code, and the core, request body, rewrite, static,",
        "index, access, authentication, HTTP/2, accept and PROXY protocol code every request passes through: source line,",
        "level (connection: the connection's, error for an upstream and info for a client; variable: set by a directive), and",
        "the message as nginx's printf writes it. Written by scripts/server-messages/nginx.py; do not edit.",
    ], rows)
    print(f"{len(rows)} messages, {len(set(r[2] for r in rows))} distinct", file=sys.stderr)


if __name__ == "__main__":
    main()
