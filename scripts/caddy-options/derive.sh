#!/usr/bin/env bash
# Lists the global options and the `servers` options a Caddy version's Caddyfile adapter
# registers, from a clone of github.com/caddyserver/caddy, for CaddyGlobalOptions.swift:
#   scripts/caddy-options/derive.sh path/to/caddy v2.6.2
# CaddyGlobalOptionsTests asks the installed `caddy adapt` about the same names.
set -euo pipefail
repo=$1
tag=${2:-v2.6.2}
echo "global options:"
git -C "$repo" grep -h -o 'RegisterGlobalOption("[a-z_0-9]*"' "$tag" | sed 's/.*("//;s/"//' | sort -u | tr '\n' ' '
echo
echo "servers options:"
# The cases of the switch directly under the servers block (three tabs deep in the file).
git -C "$repo" show "$tag:caddyconfig/httpcaddyfile/serveroptions.go" | grep -o $'^\t\t\tcase "[a-z_0-9]*"' | sed 's/.*"\(.*\)"/\1/' | tr '\n' ' '
echo
