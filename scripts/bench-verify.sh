#!/usr/bin/env bash
# Generates an nginx configuration of N sites (default 50), each with its own listen and name, a
# proxied location, a FastCGI location and detour's pages, and times `detour verify` on it with
# the release binary (one run: it starts nginx and waits on timeouts, so its time is mostly
# the probes'). The target: under a minute for 50 sites on 2 cores.
set -euo pipefail
sites=${1:-50}
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${DETOUR:-$root/.build/static/release/detour}
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-verify.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/public/errors"
for code in 500 502 503 504; do echo "<h1>$code</h1>" > "$work/public/errors/$code.html"; done
awk -v sites="$sites" 'BEGIN {
    print "user www-data;\nworker_processes auto;\npid /run/nginx.pid;\nevents { worker_connections 1024; }\nhttp {"
    print "    upstream app { server 10.0.0.10:8080; server 10.0.0.11:8080; keepalive 16; }"
    for (i = 0; i < sites; i++) {
        printf "    server {\n        listen %d;\n        server_name site%d.example.com;\n", 8000 + i, i
        printf "        error_page 500 502 503 504 /errors/$status.html;\n"
        printf "        location /errors/ { root /usr/share/detour; internal; }\n"
        printf "        location / { proxy_pass http://app; proxy_intercept_errors on; }\n"
        printf "        location /api/ { proxy_pass http://10.0.1.%d:3000; }\n", i % 250
        printf "        location ~ \\.php$ { fastcgi_pass unix:/run/php/php8.2-fpm.sock; }\n    }\n"
    }
    print "}"
}' > "$work/nginx.conf"
cd "$work"
start=$EPOCHREALTIME
status=0
"$binary" verify nginx nginx.conf --map /usr/share/detour=public -q > verify.out 2>&1 || status=$?
end=$EPOCHREALTIME
printf 'detour verify nginx, %d sites, %s probes: %.1f s wall, exit %d (%s)\n' "$sites" \
    "$("$binary" verify nginx nginx.conf --map /usr/share/detour=public --format json 2>/dev/null | grep -c '"reached_upstream"')" \
    "$(echo "$end - $start" | bc)" "$status" "$(tail -1 verify.out)"
