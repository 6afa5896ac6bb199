#!/usr/bin/env bash
# Generates a mixed error log of N lines (default 2,000,000, about 1 GB: nginx, Apache,
# HAProxy through syslog, Caddy JSON and PHP-FPM, explained and not) and times
# `detour diagnose` on it with the release binary beside `grep -E -c` with every pattern of
# content/, best of three runs each, with peak memory.
set -euo pipefail
lines=${1:-2000000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-diagnose.XXXXXX")
trap 'rm -rf "$work"' EXIT

awk -v lines="$lines" 'BEGIN {
    pad = "request: \"GET /shop/catalogue/items?page=2&sort=price HTTP/1.1\", host: \"shop.example.com\", referrer: \"https://shop.example.com/shop/catalogue/items?page=1&sort=price&filter=colour-blue-size-medium-brand-northwind&utm_source=newsletter&utm_medium=email&utm_campaign=winter-sale-2026\", user_agent: \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36\""
    for (i = 0; i < lines; i++) {
        s = i % 60; m = int(i / 60) % 60; h = int(i / 3600) % 24
        t = sprintf("2026/11/22 %02d:%02d:%02d", h, m, s)
        ip = sprintf("10.%d.%d.%d", i % 250, (i * 7) % 250, (i * 13) % 250)
        kind = i % 10
        if (kind == 0) printf "%s [error] %d#%d: *%d connect() failed (111: Connection refused) while connecting to upstream, client: %s, server: shop.example.com, %s, upstream: \"http://127.0.0.1:%d/\"\n", t, 1000 + i % 7, 1000 + i % 7, i, ip, pad, 8000 + i % 50
        else if (kind == 1) printf "%s [error] %d#%d: *%d upstream timed out (110: Connection timed out) while reading response header from upstream, client: %s, server: shop.example.com, %s\n", t, 1000 + i % 7, 1000 + i % 7, i, ip, pad
        else if (kind == 2) printf "{\"level\":\"error\",\"ts\":%d.%06d,\"logger\":\"http.log.error\",\"msg\":\"dial tcp %s:%d: connect: connection refused\",\"request\":{\"remote_ip\":\"%s\",\"proto\":\"HTTP/1.1\",\"method\":\"GET\",\"host\":\"shop.example.com\",\"uri\":\"/shop/catalogue/items?page=2\"},\"duration\":0.000342,\"status\":502}\n", 1795389093 + i, i % 1000000, ip, 9000 + i % 50, ip
        else if (kind == 3) printf "[Sun Nov 22 %02d:%02d:%02d.%06d 2026] [proxy:error] [pid %d:tid %d] (111)Connection refused: AH00957: http: attempt to connect to 127.0.0.1:%d (127.0.0.1:%d) failed, referer: https://shop.example.com/shop/catalogue/items?page=1&sort=price&filter=colour-blue-size-medium\n", h, m, s, i % 1000000, 4000 + i % 9, 140000000 + i, 8000 + i % 50, 8000 + i % 50
        else if (kind == 4) printf "Nov 22 %02d:%02d:%02d lb1 haproxy[%d]: backend app has no server available! while serving %s for shop.example.com with the request GET /shop/catalogue/items?page=2&sort=price and referrer https://shop.example.com/\n", h, m, s, 800 + i % 5, ip
        else if (kind == 5) printf "[22-Nov-2026 %02d:%02d:%02d] WARNING: [pool www] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers), spawning %d children, there are %d idle, and %d total children; busy since the deploy of release %d at the shop for shop.example.com\n", h, m, s, 8, i % 4, 20 + i % 30, i
        else printf "%s [error] %d#%d: *%d open() \"/var/www/shop/public/assets/img/product-%d.webp\" failed (2: No such file or directory), client: %s, server: shop.example.com, %s\n", t, 1000 + i % 7, 1000 + i % 7, i, i % 5000, ip, pad
    }
}' > "$work/mixed.log"
echo "log: $lines lines, $(du -h --apparent-size "$work/mixed.log" | cut -f1)"

# Every log_patterns entry of content/, as an extended regular expression.
awk '/^log_patterns:/ { on = 1; next } on && /^  - / { sub(/^  - "?/, ""); sub(/"$/, ""); gsub(/\\"/, "\""); gsub(/`/, ""); print; next } { on = 0 }' \
    $(find "$root/content/articles" -name '*.md') | sed 's/[][\\.^$*+?(){}|/]/\\&/g' > "$work/patterns.txt"
echo "patterns: $(wc -l < "$work/patterns.txt")"

measure() { # label command... → best of three wall seconds and the peak memory of that run
    local label=$1 best="" memory="" run out
    shift
    for run in 1 2 3; do
        # Not to /dev/null: GNU grep stops at the first match when it sees its output goes nowhere.
        out=$(/usr/bin/time -f "%e %M" "$@" 2>&1 >"$work/output" | tail -1)
        if [ -z "$best" ] || [ "$(echo "${out% *} < $best" | bc)" = 1 ]; then best=${out% *}; memory=${out#* }; fi
    done
    printf '%s: best of 3 wall %s s, peak memory %d MiB\n' "$label" "$best" $((memory / 1024))
}
cd "$work"
measure "detour diagnose" "$root/.build/static/release/detour" diagnose mixed.log --content "$root/content" --format json
measure "grep -E -c (every pattern)" grep -E -c -f patterns.txt mixed.log
"$root/.build/static/release/detour" diagnose mixed.log --content "$root/content" | head -3
