#!/usr/bin/env bash
# `make install` into a scratch prefix, then the installed binary, with no Swift on its PATH and
# no Swift library beside it, builds the shipped content/ in a folder outside the repository
# with its built-in theme and checks it. Exits non-zero, naming what failed, otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

make -C "$root" --no-print-directory install PREFIX="$work/prefix" >/dev/null
binary="$work/prefix/bin/detour"
if ldd "$binary" | grep -q 'libswift\|libFoundation'; then
    echo "test-install: $binary still loads the Swift runtime:" >&2
    ldd "$binary" >&2
    exit 1
fi
mkdir "$work/project"
cp -R "$root/content" "$work/project/content"
cd "$work/project"
env -i PATH=/usr/bin:/bin HOME="$work" "$binary" build --quiet
line='2026/11/23 01:00:00 [error] 7#7: *1 connect() failed (111: Connection refused) while connecting to upstream'
report=$(echo "$line" | env -i PATH=/usr/bin:/bin HOME="$work" "$binary" diagnose --format json)
grep -q '"slug" : "upstream-connection-refused"' <<<"$report" \
    || { echo "test-install: the installed detour diagnose did not name upstream-connection-refused" >&2; exit 1; }
for page in index.html errors/502.html search.js snippets/nginx.conf articles/upstream-timed-out/index.html; do
    [ -f "public/$page" ] || { echo "test-install: the installed detour did not write public/$page" >&2; exit 1; }
done

# A new project from `detour init` builds clean, and `detour serve` previews it.
env -i PATH=/usr/bin:/bin HOME="$work" "$binary" init "$work/starter" >/dev/null
cd "$work/starter"
env -i PATH=/usr/bin:/bin HOME="$work" "$binary" build --quiet --strict
env -i PATH=/usr/bin:/bin HOME="$work" "$binary" serve --port 0 >"$work/serve.log" 2>&1 &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do grep -q '^Serving at' "$work/serve.log" && break; sleep 0.05; done
address=$(sed -n 's/^Serving at \(http[^ ]*\) .*/\1/p' "$work/serve.log")
[ -n "$address" ] || { echo "test-install: the installed detour serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
curl -sf "${address}codes/502/" | grep -q '/__detour/live.js' \
    || { echo "test-install: the installed detour serve did not serve codes/502/ with its reload script" >&2; exit 1; }
kill "$serve_pid"
echo "test-install: $("$binary" --version) from $work/prefix/bin builds content/ and a detour init project outside the repository, and serves it"
