#!/usr/bin/env bash
# Regenerates detour's nginx directive table from Debian's nginx and every libnginx-mod-*
# package. The module packages are unpacked into a scratch folder and loaded from there (the
# system's nginx configuration is left alone); the libraries they link against are installed.
# Needs root, apt and python3; takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
packages=$(apt-cache search --names-only '^libnginx-mod-' | awk '{print $1}' | grep -v -- '-dev$')
(cd "$scratch" && apt-get download $packages)
for deb in "$scratch"/*.deb; do dpkg -x "$deb" "$scratch/root"; done
libraries=$(for deb in "$scratch"/*.deb; do dpkg-deb -f "$deb" Depends; done | tr ',' '\n' |
    sed 's/^ *//; s/ (.*//; s/ |.*//' | grep -v -e '^nginx' -e '^libnginx' -e '^perl' -e 'abi' -e '-dev$' | sort -u)
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $libraries
python3 scripts/nginx-directives/probe.py --modules "$scratch/root/usr/lib/nginx/modules" \
    --out Sources/DetourNginx/Directives/nginx-directives.tsv
