#!/usr/bin/env bash
# `detour serve` on a synthetic knowledge base of N articles (default 10000): the full build's
# wall time, the time from starting serve to the first page served, then for a few one-file
# edits (an article's body, then its title) the time from the save to the new text being
# served. Times are real milliseconds, from the save to the first answer that has the text.
set -euo pipefail
articles=${1:-10000}
rounds=${ROUNDS:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-serve.XXXXXX")
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
detour="$root/.build/static/release/detour"
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

"$root/.build/static/release/detour-synth" --articles "$articles" --from "$root/content" --shape vocabulary "$work/content" >/dev/null
echo "knowledge base: $articles articles, $(nproc) cores"
start=$(now)
(cd "$work" && "$detour" build --quiet 2>/dev/null)
echo "full build (detour build):        $(ms "$start" "$(now)") ms"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start=$(now)
(cd "$work" && exec "$detour" serve --port "$port" > "$work/serve.log" 2>&1) &
serve_pid=$!
# One process asks every 10 ms: a curl started that often takes a share of the two cores from
# the build it waits for.
python3 - "http://127.0.0.1:$port/" <<'EOF'
import sys, time, urllib.request
while True:
    try:
        urllib.request.urlopen(sys.argv[1], timeout=60).read()
        break
    except OSError:
        time.sleep(0.01)
EOF
echo "first serve, ready:               $(ms "$start" "$(now)") ms"

# Waits until $1 serves text $2, prints the milliseconds since $3.
wait_for() {
    until curl -s "http://127.0.0.1:$port$1" | grep -q "$2"; do sleep 0.005; done
    ms "$3" "$(now)"
}
article=$(ls "$work/content/articles/section-7/" | head -1)
file="$work/content/articles/section-7/$article"
slug=${article%.md}
body=()
for round in $(seq "$rounds"); do
    marker="edited-body-$round-$RANDOM"
    start=$(now)
    printf '\n%s\n' "$marker" >> "$file"
    body+=("$(wait_for "/articles/$slug/" "$marker" "$start")")
    sleep 2
done
title=()
for round in $(seq 2); do
    marker="Edited title $round $RANDOM"
    start=$(now)
    sed -i "0,/^title: .*/s//title: $marker/" "$file"
    title+=("$(wait_for "/articles/$slug/" "$marker" "$start")")
    sleep 2
done
echo "one article's body saved → served: ${body[*]} ms (rounds; target < 300)"
echo "one article's title saved → served (with the lists showing it): ${title[*]} ms"
grep -E "^(Built|Rebuilt)" "$work/serve.log"
