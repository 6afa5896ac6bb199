#!/usr/bin/env bash
# Generates a knowledge base of N articles (default 10000) in a temporary folder, builds it
# with Hugo in the same languages (scripts/bench-hugo), then with the release binary, and prints
# wall time and peak memory of each. detour's first build writes into an empty output folder
# and prints the time of each phase (--timings); the second replaces it, as a redeploy does
# (--no-cache); a third, with nothing changed, finds the output up to date (.detour-cache/); a
# fourth follows one article's edited text. Last, the first and the --no-cache build's time
# over Hugo's. Hugo runs first so that neither writes where the other has just deleted.
# Two corpora, each in turn: articles shaped like the shipped ones (their configuration blocks,
# tables, alerts, log patterns, links and translations; detour-synth --shape shipped), then
# articles of proxy vocabulary (--shape vocabulary). SHAPES picks which. Each keeps its folder
# until the end: a Hugo build right after the removal of the last corpus's output would pay
# for ext4's reuse of the inodes it freed.
set -euo pipefail
articles=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench.XXXXXX")
trap 'rm -rf "$base"' EXIT

# Runs a command in the corpus's work folder, prints its wall time and peak memory and leaves the
# seconds in $seconds.
measure() {
    local label=$1
    shift
    sync
    (cd "${in:-$work}" && /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@")
    read -r seconds kilobytes < "$work/time.txt"
    printf '%-28s wall %6.2f s   peak memory %5d MiB\n' "$label" "$seconds" $((kilobytes / 1024))
}

for shape in ${SHAPES:-shipped vocabulary}; do
    work=$base/$shape
    mkdir -p "$work"
    echo "== corpus: $shape =="
    "$root/.build/static/release/detour-synth" --articles "$articles" --from "$root/content" --shape "$shape" "$work/content" >/dev/null
    cp -R "$root/templates" "$work/templates"
    echo "knowledge base: $articles articles, $(du -sh --apparent-size "$work/content" | cut -f1) of Markdown and YAML, $(nproc) cores"

    # Hugo: the same articles mounted once per language of site.yml, the first the default. It
    # holds every page in memory (6.5 GiB for 10,000 vocabulary articles in 5 languages, 11.5 GiB
    # for 10,000 shaped like the shipped ones), so larger bases are
    # built by detour alone.
    if [ "$articles" -gt "${HUGO_MAX_ARTICLES:-20000}" ]; then
        echo "hugo: not run above ${HUGO_MAX_ARTICLES:-20000} articles (HUGO_MAX_ARTICLES): its memory grows with the site"
        hugo_seconds=""
    else
        languages=$(sed -n 's/^languages: *\[\(.*\)\].*/\1/p' "$work/content/site.yml" | tr -d ' ' | tr ',' ' ')
        mkdir -p "$work/hugo"
        cp -R "$root/scripts/bench-hugo/layouts" "$work/hugo/"
        {
            echo "defaultContentLanguage = \"${languages%% *}\""
            cat "$root/scripts/bench-hugo/hugo.toml"
            weight=1
            for language in $languages; do
                printf '[languages.%s]\nweight = %d\n' "$language" "$weight"
                weight=$((weight + 1))
            done
            for language in $languages; do
                printf '[[module.mounts]]\nsource = "%s"\ntarget = "content"\nlang = "%s"\n' "$work/content/articles" "$language"
            done
        } > "$work/hugo/hugo.toml"
        measure "hugo $(hugo version | sed -n 's/^hugo v\([0-9.]*\).*/\1/p') ($(echo "$languages" | wc -w) languages)" hugo --quiet -s "$work/hugo" -d "$work/hugo-public"
        echo "hugo output: $(find "$work/hugo-public" -type f | wc -l) files, $(du -sh --apparent-size "$work/hugo-public" | cut -f1)"
        hugo_seconds=$seconds
    fi

    detour="$root/.build/static/release/detour"
    # Above 10,000 articles, how the build scales: 10,000 built first, in a folder of their own, so
    # that neither build follows the removal of the other's output (ext4 is slow to reuse inodes
    # freed moments before).
    if [ "$articles" -gt 10000 ]; then
        "$root/.build/static/release/detour-synth" --articles 10000 --from "$root/content" --shape "$shape" "$work/small/content" >/dev/null
        in="$work/small" measure "first build, 10000 articles" "$detour" build --quiet
        small_seconds=$seconds
    fi
    measure "first build (empty output)" "$detour" build --quiet --timings 2> "$work/phases.txt"
    first=$seconds first_kilobytes=$kilobytes
    sed 's/^/    /' "$work/phases.txt"
    measure "rebuild (replaces output)" "$detour" build --quiet --no-cache
    rebuild=$seconds
    measure "rebuild, nothing changed" "$detour" build --quiet
    # One article's text edited (a sentence added to a paragraph) and built at once, as an editor's
    # save and make do: only its pages and index entries are rewritten.
    article=$(find "$work/content/articles" -name '*.md' ! -name '*.*.md' | sort | sed -n 1p)
    line=$(awk 'NR > 1 && /^---$/ { body = 1; next } body && /^[A-Za-z]/ { print NR; exit }' "$article")
    sed -i "${line}s/\$/ Operators also saw a zygomorphic handshake stall here./" "$article"
    measure "one article's text edited" "$detour" build --quiet
    echo "output: $(find "$work/public" -type f | wc -l) files, $(du -sh --apparent-size "$work/public" | cut -f1)"

    [ -z "$hugo_seconds" ] || awk -v detour="$first" -v rebuild="$rebuild" -v hugo="$hugo_seconds" -v shape="$shape" \
        'BEGIN { printf "detour / hugo (%s): %.2f x (first build), %.2f x (--no-cache rebuild)\n", shape, detour / hugo, rebuild / hugo }'

    if [ "$articles" -gt 10000 ]; then
        awk -v large="$first" -v small="$small_seconds" -v articles="$articles" -v memory="$first_kilobytes" \
            'BEGIN { printf "%d articles: %.1f x the time of 10000 (%.1f x the articles), peak memory %d MiB\n", articles, large / small, articles / 10000, memory / 1024 }'
    fi
done
