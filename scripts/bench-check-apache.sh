#!/usr/bin/env bash
# Generates an Apache configuration of N virtual hosts (default 5000), each with ServerName,
# DocumentRoot, an Alias to the pages, ProxyPass rules and ErrorDocument lines, and times
# `detour check apache` on it beside `apache2 -t`, best of five wall times each.
set -euo pipefail
hosts=${1:-5000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-apache.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/errors" "$work/www"
for code in 500 502 503 504; do echo "<h1>$code</h1>" > "$work/errors/$code.html"; done

awk -v hosts="$hosts" -v work="$work" 'BEGIN {
    print "ServerRoot " work "\nServerName localhost\nListen 127.0.0.1:8080\nPidFile " work "/apache.pid\nErrorLog " work "/error.log\nDefaultRuntimeDir " work
    split("mpm_event authz_core alias proxy proxy_http", modules, " ")
    for (m = 1; m <= 5; m++) printf "LoadModule %s_module /usr/lib/apache2/modules/mod_%s.so\n", modules[m], modules[m]
    print "ProxyPass /detour-errors/ !\nProxyErrorOverride On 500 502 503 504\n"
    for (i = 0; i < hosts; i++) {
        printf "<VirtualHost 127.0.0.1:8080>\n    ServerName site%d.example.com\n    ServerAlias www.site%d.example.com\n    DocumentRoot %s/www\n", i, i, work
        printf "    Alias /detour-errors/ %s/errors/\n", work
        for (c = 500; c <= 504; c++) if (c != 501) printf "    ErrorDocument %d /detour-errors/%d.html\n", c, c
        printf "    ProxyPass /static/ !\n    ProxyPass / http://127.0.0.1:%d/\n    ProxyPassReverse / http://127.0.0.1:%d/\n</VirtualHost>\n\n", 9000 + i % 1000, 9000 + i % 1000
    }
}' > "$work/apache.conf"

# shellcheck source=bench-lib.sh
source "$root/scripts/bench-lib.sh"

beside_server "$hosts virtual hosts" 0.2 "$work/apache.conf" \
    -- "$root/.build/static/release/detour" check apache "$work/apache.conf" --pages "$work/errors" --quiet \
    -- apache2 -t -f "$work/apache.conf"

# The same virtual hosts, one included file each, as Debian's sites-enabled/ holds them.
mkdir -p "$work/sites"
awk -v sites="$work/sites" '
    /^<VirtualHost/ { file = sprintf("%s/%05d.conf", sites, ++count) }
    file { print > file }
    /^<\/VirtualHost>/ { close(file); file = "" }
    !file && !/^<\/VirtualHost>/ { print > (sites "/../main.conf") }
' "$work/apache.conf"
echo "IncludeOptional $work/sites/*.conf" >> "$work/main.conf"
beside_server "$hosts virtual hosts in $hosts included files" 0.2 "$work/main.conf" \
    -- "$root/.build/static/release/detour" check apache "$work/main.conf" --pages "$work/errors" --quiet \
    -- apache2 -t -f "$work/main.conf"
