#!/usr/bin/env bash
# Generates a configuration of N sites (default 50) for each server detour verify runs (nginx,
# Caddy, HAProxy), each site with its own port (and name), a proxied route, a second upstream under
# /api/, and detour's pages (nginx: a FastCGI location too), and times one `detour verify` of each
# with the release binary.
# The run starts the server and waits on timeouts, so its time is mostly the probes'. The
# target: under a minute for 50 sites on 2 cores.
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
awk -v sites="$sites" 'BEGIN {
    print "{\n\temail ops@example.com\n}\n"
    for (i = 0; i < sites; i++) {
        printf "site%d.example.com:%d {\n", i, 8000 + i
        printf "\thandle /api/* {\n\t\treverse_proxy 10.0.1.%d:3000\n\t}\n", i % 250
        printf "\thandle {\n\t\treverse_proxy 10.0.0.10:8080 10.0.0.11:8080 {\n\t\t\t@failed status 5xx\n"
        printf "\t\t\thandle_response @failed {\n\t\t\t\terror \"failed\" {rp.status_code}\n\t\t\t}\n\t\t}\n\t}\n"
        printf "\thandle_errors {\n\t\troot * /usr/share/detour\n\t\trewrite * /errors/{err.status_code}.html\n\t\tfile_server\n\t}\n}\n\n"
    }
}' > "$work/Caddyfile"
awk -v sites="$sites" 'BEGIN {
    print "global\n    daemon\n    user haproxy\n    stats socket /run/haproxy/admin.sock mode 660 level admin\n"
    print "defaults\n    mode http\n    timeout connect 5s\n    timeout client 50s\n    timeout server 50s"
    for (code = 500; code <= 504; code += (code == 500 ? 2 : 1)) printf "    errorfile %d /usr/share/detour/errors/%d.http\n", code, code
    print ""
    for (i = 0; i < sites; i++) {
        printf "frontend site%d\n    bind :%d\n    use_backend api%d if { path_beg /api }\n    default_backend app\n\n", i, 8000 + i, i
        printf "backend api%d\n    server api 10.0.1.%d:3000 check\n\n", i, i % 250
    }
    print "backend app\n    server app1 10.0.0.10:8080 check\n    server app2 10.0.0.11:8080 check"
}' > "$work/haproxy.cfg"
for code in 500 502 503 504; do printf 'HTTP/1.0 %s Error\r\nContent-Type: text/html\r\n\r\n<h1>%s</h1>\n' $code $code > "$work/public/errors/$code.http"; done
cd "$work"
for server in nginx caddy haproxy; do
    case $server in nginx) config=nginx.conf ;; caddy) config=Caddyfile ;; haproxy) config=haproxy.cfg ;; esac
    start=$EPOCHREALTIME
    status=0
    "$binary" verify "$server" "$config" --map /usr/share/detour=public --format json > "$server.json" 2> "$server.err" || status=$?
    end=$EPOCHREALTIME
    printf 'detour verify %s, %d sites, %s probes: %.1f s wall, exit %d (%s errors, %s warnings)\n' "$server" "$sites" \
        "$(grep -c '"reached_upstream"' "$server.json" || true)" "$(echo "$end - $start" | bc)" "$status" \
        "$(sed -n 's/^  "errors" : \([0-9]*\).*/\1/p' "$server.json")" "$(sed -n 's/^  "warnings" : \([0-9]*\).*/\1/p' "$server.json")"
done
