#!/usr/bin/env bash
# Generates Caddyfiles of 1,000 and 5,000 site blocks (a snippet imported in each, named
# matchers, handle_response, handle_errors) and times `detour check caddy` on them with the
# release binary, best of five runs; and `caddy adapt` on the 1,000, when caddy is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-caddy.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/errors"
for code in 500 502 503 504; do echo "<h1>$code</h1>" > "$work/errors/$code.html"; done

generate() { # sites file
    awk -v sites="$1" 'BEGIN {
        print "{\n\tadmin off\n}\n"
        print "(pages) {\n\thandle_errors {\n\t\t@server_error expression `{err.status_code} >= 500`"
        print "\t\thandle @server_error {\n\t\t\troot * /usr/share/detour/errors\n\t\t\trewrite * /{err.status_code}.html\n\t\t\tfile_server\n\t\t}\n\t}\n}\n"
        print "(upstream_errors) {\n\t@error status 5xx\n\thandle_response @error {\n\t\terror \"upstream error\" {rp.status_code}\n\t}\n}\n"
        for (i = 0; i < sites; i++) {
            printf "site%d.example.com, www.site%d.example.com {\n\timport pages\n\troot * /var/www/site%d\n", i, i, i
            printf "\t@api path /api/*\n\treverse_proxy @api 127.0.0.1:%d {\n\t\timport upstream_errors\n\t}\n", 9000 + i % 100
            printf "\t@static path *.css *.js *.png\n\theader @static Cache-Control \"max-age=3600\"\n\tencode gzip\n\tfile_server\n}\n\n"
        }
    }' > "$2"
}

# shellcheck source=bench-lib.sh
source "$root/scripts/bench-lib.sh"

for sites in 1000 5000; do
    generate "$sites" "$work/Caddyfile-$sites"
    check=("$root/.build/static/release/detour" check caddy "$work/Caddyfile-$sites" --pages "$work/errors" --map "/usr/share/detour=$work" --quiet)
    findings=$("${check[@]}" 2>&1 | tail -1)
    printf 'detour check caddy, %d site blocks (%s): best of 5 wall %.3f s, findings: %s\n' "$sites" "$(du -h --apparent-size "$work/Caddyfile-$sites" | cut -f1)" "$(best "${check[@]}")" "${findings:-none}"
done
if command -v caddy > /dev/null; then
    seconds=$(cd "$work" && HOME=$work XDG_DATA_HOME=$work XDG_CONFIG_HOME=$work best caddy adapt --config Caddyfile-1000 --adapter caddyfile)
    printf 'caddy adapt, 1000 site blocks: best of 5 wall %.3f s\n' "$seconds"
fi
