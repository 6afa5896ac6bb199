#!/usr/bin/env bash
# The root filesystem of detour's container image (Containerfile, FROM scratch): the binary
# under its own name (/detour-backend), each shared library it loads (ldd's list, the loader
# included) at its own path, and a built site at /public, all owned by root and read-only to
# everyone else.
#
#     scripts/container-root.sh BINARY PUBLIC OUT
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/container-root.sh BINARY PUBLIC OUT" >&2; exit 64; }
binary=$1 public=$2 out=$3
[ -x "$binary" ] || { echo "container-root: no executable at $binary (make backend-release builds it)" >&2; exit 1; }
[ -d "$public/errors" ] || { echo "container-root: no errors/ in $public (detour build writes it)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
# Stripped: the image needs no debugging symbols.
install -s -m 0555 "$binary" "$out/$(basename "$binary")"
# `libfoo.so => /lib/x86_64-linux-gnu/libfoo.so (0x…)` and the loader's own line.
ldd "$binary" | grep -o '/[^ ]*' | sort -u | while read -r library; do
    mkdir -p "$out$(dirname "$library")"
    cp -L "$library" "$out$library"
    chmod 0555 "$out$library"
done
cp -r "$public" "$out/public"
chmod -R a+rX,go-w "$out"
