#!/usr/bin/env bash
# Generates an nginx configuration with N server blocks (default 5000, about 5-6 MB) and
# times `detour check` on it with the release binary, best of five runs, and beside `nginx -t`.
set -euo pipefail
servers=${1:-5000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/detour-bench-check.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/errors"
for code in 500 502 503 504; do echo "<h1>$code</h1>" > "$work/errors/$code.html"; done
# The files a Debian nginx.conf includes.
echo "types { text/html html; text/css css; }" > "$work/mime.types"
echo "fastcgi_param QUERY_STRING \$query_string;" > "$work/fastcgi_params"

awk -v servers="$servers" 'BEGIN {
    print "user www-data;\nworker_processes auto;\nevents { worker_connections 1024; }\nhttp {"
    print "    include mime.types;\n    default_type application/octet-stream;\n    sendfile on;\n    keepalive_timeout 65;"
    for (i = 0; i < 100; i++) printf "    upstream app%d {\n        server 127.0.0.1:%d;\n        keepalive 16;\n    }\n", i, 9000 + i
    for (i = 0; i < servers; i++) {
        printf "    server {\n        listen 443 ssl http2;\n"
        printf "        server_name site%d.example.com www.site%d.example.com;\n", i, i
        printf "        ssl_certificate /etc/letsencrypt/live/site%d/fullchain.pem;\n", i
        printf "        ssl_certificate_key /etc/letsencrypt/live/site%d/privkey.pem;\n", i
        printf "        root /var/www/site%d/public;\n        index index.html index.php;\n", i
        printf "        # error pages made by detour\n"
        printf "        error_page 500 /errors/500.html;\n        error_page 502 /errors/502.html;\n"
        printf "        error_page 503 /errors/503.html;\n        error_page 504 /errors/504.html;\n"
        printf "        proxy_intercept_errors on;\n        fastcgi_intercept_errors on;\n"
        printf "        location / {\n            try_files $uri $uri/ @app;\n        }\n"
        printf "        location @app {\n            proxy_pass http://app%d;\n", i % 100
        printf "            proxy_set_header Host $host;\n            proxy_set_header X-Real-IP $remote_addr;\n"
        printf ""
        printf "            proxy_read_timeout 60s;\n            proxy_buffer_size 16k;\n            proxy_buffers 8 16k;\n        }\n"
        printf "        location ~ \\.php$ {\n            include fastcgi_params;\n"
        printf "            fastcgi_pass unix:/run/php/php8.2-fpm.sock;\n"
        printf "            fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n        }\n"
        printf "        location ^~ /errors/ {\n            internal;\n            root /usr/share/detour;\n"
        printf "            add_header Cache-Control \"no-store\" always;\n        }\n    }\n"
    }
    print "}"
}' > "$work/nginx.conf"
echo "configuration: $servers server blocks, $(du -h --apparent-size "$work/nginx.conf" | cut -f1)"

# The same servers one file each, as in sites-enabled/: includes read thousands of files.
mkdir -p "$work/split/sites"
awk -v dir="$work/split" '/^    upstream / { upstream = 1 } upstream { print > (dir "/upstreams.conf") } upstream && /^    }/ { upstream = 0 }
    /^    server \{/ { file = sprintf("%s/sites/site%05d.conf", dir, n++) } file && $0 != "}" { print > file }' "$work/nginx.conf"
printf 'user www-data;\nevents { worker_connections 1024; }\nhttp {\n    include ../mime.types;\n    include upstreams.conf;\n    include sites/*.conf;\n}\n' > "$work/split/nginx.conf"
cp "$work/fastcgi_params" "$work/split/"

detour=("$root/.build/static/release/detour" check nginx)
options=(--pages "$work/errors" --map "/usr/share/detour=$work" --quiet)
check() { "${detour[@]}" "$1" "${options[@]}"; }

# Best of five wall times and the peak memory of a check of $1, described as $2.
measure() {
    local best="" run start end seconds
    for run in 1 2 3 4 5; do
        start=$EPOCHREALTIME
        check "$1" > /dev/null 2>&1 || true
        end=$EPOCHREALTIME
        seconds=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$seconds < $best" | bc)" = 1 ]; then best=$seconds; fi
    done
    local findings
    findings=$(check "$1" 2>&1 | tail -1)
    /usr/bin/time -f "%M" -o "$work/memory" "${detour[@]}" "$1" "${options[@]}" > /dev/null 2>&1 || true
    printf 'detour check nginx, %s: best of 5 wall %.3f s, peak memory %d MiB, findings: %s\n' "$2" "$best" $(( $(tail -1 "$work/memory") / 1024 )) "${findings:-none}"
}

measure "$work/nginx.conf" "one file"
measure "$work/split/nginx.conf" "$servers included files"

# Beside nginx's own test: the same one-file configuration with a real certificate for every
# server (nginx -t loads each), as nginx -t needs it, and without TLS.
if command -v nginx > /dev/null && command -v openssl > /dev/null; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 -subj /CN=bench > /dev/null 2>&1
    sed -e "s|/etc/letsencrypt/live/site[0-9]*/fullchain.pem|$work/cert.pem|; s|/etc/letsencrypt/live/site[0-9]*/privkey.pem|$work/key.pem|" \
        "$work/nginx.conf" > "$work/nginx-t.conf"
    # shellcheck source=bench-lib.sh
    source "$root/scripts/bench-lib.sh"
    beside_server "$servers server blocks, with certificates" 0.2 "$work/nginx-t.conf" \
        -- "${detour[@]}" "$work/nginx-t.conf" "${options[@]}" \
        -- nginx -t -q -c "$work/nginx-t.conf" -g "error_log /dev/null; pid $work/nginx.pid;"
    # And the same servers on plain HTTP, where nginx -t has no certificate to load.
    sed -e 's|listen 443 ssl http2;|listen 80;|' -e '/ssl_certificate/d' "$work/nginx.conf" > "$work/nginx-plain.conf"
    beside_server "$servers server blocks, plain HTTP" 0.2 "$work/nginx-plain.conf" \
        -- "${detour[@]}" "$work/nginx-plain.conf" "${options[@]}" \
        -- nginx -t -q -c "$work/nginx-plain.conf" -g "error_log /dev/null; pid $work/nginx.pid;"
fi
