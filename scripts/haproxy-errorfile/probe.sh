#!/usr/bin/env bash
# Asks the installed HAProxy which statuses `errorfile` takes: one tiny configuration per
# status from 100 to 599, checked with `haproxy -c`, which refuses the others ("status code
# 'N' not handled"). Prints the statuses it takes, one line, space-separated; the list is
# HAProxyFacts.errorfileStatuses in Sources/DetourSupport/HAProxyFacts.swift.
set -euo pipefail
haproxy=${HAPROXY:-haproxy}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
taken=()
for status in $(seq 100 599); do
    printf 'HTTP/1.0 %s Probe\r\nContent-Length: 0\r\n\r\n' "$status" > "$work/page.http"
    printf 'defaults\n    mode http\n    timeout client 1s\n    timeout server 1s\n    timeout connect 1s\n    errorfile %s %s\nfrontend probe\n    bind 127.0.0.1:18999\n    default_backend probe\nbackend probe\n' \
        "$status" "$work/page.http" > "$work/haproxy.cfg"
    if "$haproxy" -c -f "$work/haproxy.cfg" > /dev/null 2>&1; then taken+=("$status"); fi
done
echo "${taken[*]}"
