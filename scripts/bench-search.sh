#!/usr/bin/env bash
# Search figures, measured in headless Chromium against nginx on 127.0.0.1, each query in a
# fresh browser (cold cache): the shipped knowledge base, then a synthetic one of N articles
# (default 10000) with its build time, the index's share of it, peak memory and what one
# edited article rewrites. The queries are drawn from each corpus by class (queries.py: its
# most frequent words, words found once, their prefixes, statuses, two words, typos, log
# lines: LOG_LINES=40 for forty of as many shapes), and the worst of each class is printed last. Pagefind's, on the same pages, when `pagefind` (PyPI:
# pagefind[bin]) is installed. Requests and bytes are exact; times are real milliseconds.
set -euo pipefail
articles=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-search.XXXXXX")
chmod 755 "$work"  # nginx workers run as nobody
nginx_pid=
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
detour="$root/.build/static/release/detour"

serve() { # folder → starts nginx on a free port, sets $port
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && sleep 0.3
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mkdir -p "$work/nginx" "$1/bench"
    cp "$root/scripts/bench-search/bench.js" "$1/bench/"
    echo '<!doctype html><meta charset="utf-8"><iframe id="page"></iframe><script src="bench.js"></script>' > "$1/bench/index.html"
    # The help site under a strict CSP; Pagefind needs 'wasm-unsafe-eval', so its files and the
    # bench page go without one.
    cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1; pid $work/nginx/pid; events { worker_connections 256; }
http { include /etc/nginx/mime.types; log_format bench '\$msec \$request_time \$body_bytes_sent \$uri'; access_log $work/nginx/access.log bench; client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$port; root $1;
    location / { add_header Content-Security-Policy "default-src 'self'" always; }
    location /bench/ { }
    location /pagefind/ { } } }
CONF
    nginx -p "$work/nginx/" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" -g 'daemon off;' & nginx_pid=$!
    sleep 0.5
}

measure() { # label engine site → one line per query, then the worst of each class
    echo "$1"
    python3 "$root/scripts/bench-search/queries.py" "$3" | python3 "$root/scripts/bench-search/measure.py" "$port" "$work/nginx/access.log" "$2"
}

mkdir -p "$work/shipped"
cp -R "$root/content" "$root/templates" "$work/shipped/"
(cd "$work/shipped" && "$detour" build --quiet)
echo "search.js as served: $(wc -c < "$work/shipped/public/search.js") bytes, $(gzip -9c "$work/shipped/public/search.js" | wc -c) gzipped"
serve "$work/shipped/public"
measure "shipped knowledge base ($(ls "$work/shipped/public/search/en" | wc -l) index file(s) in English):" detour "$work/shipped"

"$root/.build/static/release/detour-synth" --articles "$articles" --from "$root/content" --shape vocabulary "$work/synth/content" >/dev/null
cp -R "$root/templates" "$work/synth/templates"
(cd "$work/synth" && /usr/bin/time -f "%e %M" -o "$work/time.txt" "$detour" build --quiet --timings 2> "$work/phases.txt")
read -r seconds kilobytes < "$work/time.txt"
echo "synthetic knowledge base: $articles articles; build with the index ${seconds} s, peak memory $((kilobytes / 1024)) MiB;" \
    "index $(find "$work/synth/public/search/en" -type f | wc -l) files, $(du -sh --apparent-size "$work/synth/public/search/en" | cut -f1)"
# The index's share, from three rebuilds' --timings (a shared machine's file system is noisy).
for run in 1 2 3; do
    (cd "$work/synth" && "$detour" build --quiet --no-cache --timings 2> "$work/phases.txt")
    awk 'match($0, /[0-9.]+ s /) { seconds = substr($0, RSTART, RLENGTH - 3) + 0; total += seconds } /^search index/ { index_s += seconds } END { printf "  rebuild %d: index built and written in %.2f s, adding %.0f%% to the build without it\n", run, index_s, 100 * index_s / (total - index_s) }' run=$run "$work/phases.txt"
done

# One article edited (a new sentence): which index files the rebuild writes anew. Unchanged
# files keep their inode (the build hard-links them from the previous output).
(cd "$work/synth/public/search" && find . -type f -printf '%i %p\n' | sort) > "$work/before.txt"
edited=$(find "$work/synth/content/articles" -name '*.md' | sort | sed -n 1p)
echo "Operators also see a zygomorphic handshake stall here." >> "$edited"
(cd "$work/synth" && "$detour" build --quiet 2>/dev/null)
(cd "$work/synth/public/search" && find . -type f -printf '%i %p\n' | sort) > "$work/after.txt"
echo "  one article edited: $(comm -13 "$work/before.txt" "$work/after.txt" | wc -l) of $(wc -l < "$work/after.txt") index files rewritten" \
    "($(comm -13 "$work/before.txt" "$work/after.txt" | awk '{ print $2 }' | sed 's|^\./||' | tr '\n' ' '))"

pagefind=
if command -v pagefind >/dev/null; then pagefind=pagefind; elif python3 -m pagefind --version >/dev/null 2>&1; then pagefind="python3 -m pagefind"; fi
if [ -n "$pagefind" ]; then
    /usr/bin/time -f "%e %M" -o "$work/pf.txt" $pagefind --site "$work/synth/public" --output-subdir pagefind >/dev/null
    read -r pf_seconds pf_kilobytes < "$work/pf.txt"
fi
serve "$work/synth/public"
measure "synthetic knowledge base, cold, one query each:" detour "$work/synth"
if [ -n "$pagefind" ]; then
    echo "pagefind $($pagefind --version | awk '{ print $NF }') on the same pages: indexing ${pf_seconds} s, peak memory $((pf_kilobytes / 1024)) MiB, $(du -sh --apparent-size "$work/synth/public/pagefind" | cut -f1)"
    measure "pagefind, cold, one query each (its API: search, then the first result's data):" pagefind "$work/synth"
else
    echo "pagefind: not installed (pip install 'pagefind[bin]') — no comparison"
fi
