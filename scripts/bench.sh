#!/usr/bin/env bash
# Generates a synthetic knowledge base of N articles (default 10000) in a temporary folder,
# builds it with the release binary and prints wall time and peak memory. The first build
# writes into an empty output folder; the second replaces it, as a redeploy does.
set -euo pipefail
articles=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/.build/static/release/detour-synth" --articles "$articles" --from "$root/content" "$work/content" >/dev/null
cp -R "$root/templates" "$work/templates"
echo "knowledge base: $articles articles, $(du -sh --apparent-size "$work/content" | cut -f1) of Markdown and YAML, $(nproc) cores"

measure() {
    local label=$1
    sync
    (cd "$work" && /usr/bin/time -f "%e %M" -o "$work/time.txt" "$root/.build/static/release/detour" build --quiet)
    read -r seconds kilobytes < "$work/time.txt"
    printf '%-28s wall %6.2f s   peak memory %5d MiB\n' "$label" "$seconds" $((kilobytes / 1024))
}
measure "first build (empty output)"
measure "rebuild (replaces output)"
echo "output: $(find "$work/public" -type f | wc -l) files, $(du -sh --apparent-size "$work/public" | cut -f1)"
