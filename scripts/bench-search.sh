#!/usr/bin/env bash
# Search figures, measured in headless Chromium against nginx on 127.0.0.1, each query in a
# fresh browser (cold cache): the shipped knowledge base, then a synthetic one of N articles
# (default 10000) with its build time and peak memory. Pagefind's, on the same pages, when
# `pagefind` (PyPI: pagefind[bin]) is installed. Requests and bytes are exact; times are the
# browser's virtual time (--virtual-time-budget), which does not advance while a file loads.
set -euo pipefail
articles=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-search.XXXXXX")
chmod 755 "$work"  # nginx workers run as nobody
nginx_pid=
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
detour="$root/.build/release/detour"
words=(upstream timeout php-fpm 502 certificate refused keepalive nginx)

serve() { # folder → starts nginx on a free port, sets $port
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && sleep 0.3
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mkdir -p "$work/nginx" "$1/bench"
    cp "$root/scripts/bench-search/bench.js" "$1/bench/"
    echo '<!doctype html><meta charset="utf-8"><pre id="out">waiting</pre><iframe id="page"></iframe><script src="bench.js"></script>' > "$1/bench/index.html"
    cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1; pid $work/nginx/pid; events { worker_connections 256; }
http { include /etc/nginx/mime.types; access_log off; client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$port; root $1; add_header Content-Security-Policy "default-src 'self'" always; } }
CONF
    nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" -g 'daemon off;' & nginx_pid=$!
    sleep 0.5
}

measure() { # label → one line per word
    echo "$1"
    for word in "${words[@]}"; do
        profile=$(mktemp -d "$work/profile.XXXXXX")
        chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$profile" --virtual-time-budget=20000 \
            --dump-dom "http://127.0.0.1:$port/bench/?q=$word" 2>/dev/null |
            sed -n 's/.*<pre id="out">\(.*\)<\/pre>.*/\1/p' | sed 's/&quot;/"/g' |
            python3 -c 'import json,sys
text=sys.stdin.read().strip()
if not text.startswith("{"): print("  (no result within the budget)"); sys.exit()
r=json.loads(text)
w=sorted(r["warmMs"])
print("  %-12s first result at %7.1f ms (virtual time), %d index requests, %6.1f KB index + %5.1f KB page (%d files); the same query once loaded: median %.1f ms, max %.1f ms (virtual time)" % (r["q"], r["firstResultMs"], r["indexRequests"], r["indexBytes"]/1024, r["pageBytes"]/1024, r["pageFiles"], w[len(w)//2], w[-1]))'
        rm -rf "$profile"
    done
}

echo "search.js: $(wc -c < "$root/templates/assets/search.js") bytes"
mkdir -p "$work/shipped"
cp -R "$root/content" "$root/templates" "$work/shipped/"
(cd "$work/shipped" && "$detour" build --quiet)
serve "$work/shipped/public"
measure "shipped knowledge base ($(ls "$work/shipped/public/search/en" | wc -l) index file(s) in English):"

"$root/.build/release/detour-synth" --articles "$articles" --from "$root/content" "$work/synth/content" >/dev/null
cp -R "$root/templates" "$work/synth/templates"
(cd "$work/synth" && /usr/bin/time -f "%e %M" -o "$work/time.txt" "$detour" build --quiet)
read -r seconds kilobytes < "$work/time.txt"
echo "synthetic knowledge base: $articles articles; build with the index ${seconds} s, peak memory $((kilobytes / 1024)) MiB;" \
    "index $(find "$work/synth/public/search/en" -type f | wc -l) files, $(du -sh --apparent-size "$work/synth/public/search/en" | cut -f1)"
serve "$work/synth/public"
measure "synthetic knowledge base, cold, one word each:"

if command -v pagefind >/dev/null; then
    /usr/bin/time -f "%e %M" -o "$work/pf.txt" pagefind --site "$work/synth/public" --output-subdir pagefind >/dev/null
    read -r seconds kilobytes < "$work/pf.txt"
    echo "pagefind on the same pages: indexing ${seconds} s, peak memory $((kilobytes / 1024)) MiB, $(du -sh --apparent-size "$work/synth/public/pagefind" | cut -f1)"
else
    echo "pagefind: not installed (pip install 'pagefind[bin]') — no comparison"
fi
