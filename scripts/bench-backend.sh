#!/usr/bin/env bash
# The page service beside nginx serving the same built pages on this machine, all on 127.0.0.1
# without access logs, under wrk at 64 connections: requests per second, p99 latency, the
# service's peak resident memory, and the ratios (targets: >= 0.8 x nginx's requests per second,
# p99 <= 2 x nginx's, <= 30 MiB) for detour-backend, the binary the container image runs; then
# the same service as `detour backend` of the full binary. Each figure is the median of ROUNDS
# (3) rounds of SECONDS_PER_RUN (10) seconds per server. The service is asked as ingress-nginx asks it (X-Code,
# X-Format, Accept-Language: a different code and language each request); nginx serves the file
# of the same code and language by path, as a static error page would be served.
set -euo pipefail
seconds=${SECONDS_PER_RUN:-10}
connections=${CONNECTIONS:-64}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-backend.XXXXXX")
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
detour="$root/.build/static/release/detour"
image_binary="$root/.build/static/release/detour-backend"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_open() { for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1" >&2; exit 1; }

cp -r "$root/content" "$work/content"
(cd "$work" && "$detour" build --quiet)
codes=$(cd "$work/public/errors/en" && ls ./*.html | sed 's|./||; s|.html||' | paste -sd, -)
languages=$(cd "$work/public/errors" && ls -d */ | tr -d / | grep -v cloudflare | paste -sd, -)

backend_port=$(free_port)
"$image_binary" --public "$work/public" --bind 127.0.0.1 --port "$backend_port" --no-access-log 2> "$work/backend.log" &
backend_pid=$!
pids+=("$backend_pid")
full_port=$(free_port)
"$detour" backend --public "$work/public" --bind 127.0.0.1 --port "$full_port" --no-access-log 2> "$work/full.log" &
full_pid=$!
pids+=("$full_pid")
nginx_port=$(free_port)
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi; uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
    types { text/html html; application/problem+json json; text/plain txt; }
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/public;
        add_header Cache-Control no-store;
    }
}
CONF
nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
pids+=("$!")
wait_open "$backend_port"
wait_open "$full_port"
wait_open "$nginx_port"

# One wrk script for both: each request a code and language of the site's in turn, asked by
# header of the service, by path of nginx.
cat > "$work/requests.lua" <<LUA
local codes = {}; for c in string.gmatch("$codes", "[^,]+") do codes[#codes + 1] = c end
local languages = {}; for l in string.gmatch("$languages", "[^,]+") do languages[#languages + 1] = l end
local n = 0
request = function()
    n = n + 1
    local code = codes[n % #codes + 1]
    local language = languages[math.floor(n / #codes) % #languages + 1]
    if mode == "backend" then
        return wrk.format("GET", "/", { ["X-Code"] = code, ["X-Format"] = "text/html", ["Accept-Language"] = language })
    end
    return wrk.format("GET", "/errors/" .. language .. "/" .. code .. ".html")
end
init = function(args) mode = args[1] end
done = function(summary, latency, requests)
    io.write(string.format("RESULT %.1f %.3f %d\n", summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000, summary.errors.status))
end
LUA
# `run PORT MODE SECONDS`: "requests/s p99-ms non-2xx-count".
run() { wrk -t2 -c"$connections" -d"$3s" -s "$work/requests.lua" "http://127.0.0.1:$1/" -- "$2" | sed -n 's/^RESULT //p'; }
# A warm-up round each, not counted.
run "$backend_port" backend 2 > /dev/null
run "$full_port" backend 2 > /dev/null
run "$nginx_port" nginx 2 > /dev/null
# Rounds in turn, each server once a round, and the median of each figure: on a machine whose
# cores the load generator shares, one run's figure moves by a fifth from the next one's.
rounds=${ROUNDS:-3}
for _ in $(seq "$rounds"); do
    run "$backend_port" backend "$seconds" >> "$work/backend.runs"
    run "$nginx_port" nginx "$seconds" >> "$work/nginx.runs"
    run "$full_port" backend "$seconds" >> "$work/full.runs"
done
# `median FILE COLUMN`: the middle value of a column of the runs.
median() { cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
backend_rps=$(median "$work/backend.runs" 1) backend_p99=$(median "$work/backend.runs" 2)
nginx_rps=$(median "$work/nginx.runs" 1) nginx_p99=$(median "$work/nginx.runs" 2)
full_rps=$(median "$work/full.runs" 1) full_p99=$(median "$work/full.runs" 2)
rss_kib=$(awk '/VmHWM/ { print $2 }' "/proc/$backend_pid/status")
full_rss_kib=$(awk '/VmHWM/ { print $2 }' "/proc/$full_pid/status")
mib() { echo "$1 / 1024" | bc -l; }
echo "pages: $(echo "$codes" | tr , '\n' | wc -l) codes x $(echo "$languages" | tr , '\n' | wc -l) languages; $(nproc) cores; wrk -t2 -c$connections -d${seconds}s; median of $rounds rounds"
printf 'detour-backend:  %10.0f requests/s, p99 %7.2f ms, peak RSS %.1f MiB\n' "$backend_rps" "$backend_p99" "$(mib "$rss_kib")"
printf 'nginx (files):   %10.0f requests/s, p99 %7.2f ms\n' "$nginx_rps" "$nginx_p99"
printf 'ratios: requests/s %.2f x nginx (target >= 0.8), p99 %.2f x nginx (target <= 2), memory %.1f MiB (target <= 30)\n' \
    "$(echo "$backend_rps / $nginx_rps" | bc -l)" "$(echo "$backend_p99 / $nginx_p99" | bc -l)" "$(mib "$rss_kib")"
printf 'detour backend (the full binary): %.0f requests/s (%.2f x nginx), p99 %.2f ms, peak RSS %.1f MiB\n' \
    "$full_rps" "$(echo "$full_rps / $nginx_rps" | bc -l)" "$full_p99" "$(mib "$full_rss_kib")"
