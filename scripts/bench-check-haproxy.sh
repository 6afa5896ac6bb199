#!/usr/bin/env bash
# Generates an HAProxy configuration of N backends (default 5000), each with health checks, two
# servers and detour-style `http-response return` rules, routed from one frontend by Host, and
# times `detour check haproxy` on it beside `haproxy -c`, best of five wall times each; then the
# same backends with the frontend's `default_backend` alone (no `use_backend` lines).
set -euo pipefail
backends=${1:-5000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-haproxy.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/errors"
for code in 500 502 503 504; do
    body="<h1>$code</h1>"
    printf 'HTTP/1.0 %s Error\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s' "$code" "${#body}" "$body" > "$work/errors/$code.http"
    echo "$body" > "$work/errors/$code.html"
done

awk -v backends="$backends" -v pages="$work/errors" 'BEGIN {
    print "global\n    tune.bufsize 16384\n\ndefaults pages\n    mode http\n    timeout connect 5s\n    timeout client 30s\n    timeout server 30s"
    for (c = 500; c <= 504; c++) if (c != 501) printf "    errorfile %d %s/%d.http\n", c, pages, c
    print "\ndefaults backend_pages from pages"
    for (c = 500; c <= 504; c++) if (c != 501) printf "    http-response return status %d content-type \"text/html; charset=utf-8\" file %s/%d.html hdr Cache-Control no-store if { status %d }\n", c, pages, c, c
    print "\nfrontend web from pages\n    bind 127.0.0.1:8080"
    for (i = 0; i < backends; i++) printf "    use_backend site%d if { hdr(host) -i site%d.example.com }\n", i, i
    print "    default_backend site0\n"
    for (i = 0; i < backends; i++) {
        printf "backend site%d from backend_pages\n    option httpchk GET /health\n    http-check expect status 200\n", i
        printf "    server app%da 127.0.0.1:%d check inter 5s\n    server app%db 127.0.0.1:%d check inter 5s backup\n\n", i, 9000 + i % 1000, i, 10000 + i % 1000
    }
}' > "$work/haproxy.cfg"

# shellcheck source=bench-lib.sh
source "$root/scripts/bench-lib.sh"

beside_server "$backends backends" 0.2 "$work/haproxy.cfg" \
    -- "$root/.build/static/release/detour" check haproxy "$work/haproxy.cfg" --pages "$work/errors" --quiet \
    -- haproxy -c -f "$work/haproxy.cfg"

grep -v '^    use_backend ' "$work/haproxy.cfg" > "$work/default-backend.cfg"
beside_server "$backends backends, default_backend only" 0.2 "$work/default-backend.cfg" \
    -- "$root/.build/static/release/detour" check haproxy "$work/default-backend.cfg" --pages "$work/errors" --quiet \
    -- haproxy -c -f "$work/default-backend.cfg"
