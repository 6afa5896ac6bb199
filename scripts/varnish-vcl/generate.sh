#!/bin/sh
# Regenerates the VCL table the Varnish checker embeds, from the installed varnishd.
set -eu
cd "$(dirname "$0")/../.."
python3 scripts/varnish-vcl/probe.py > Sources/DetourVarnish/VCL/varnish-vcl.tsv
# The VCL varnishd appends to every VCL: the checker follows it where a VCL falls through.
varnishd -x builtin > Sources/DetourVarnish/VCL/builtin.vcl
