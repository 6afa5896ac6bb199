#!/usr/bin/env bash
# Prints what the tests run against, one line each: the toolchain, the named Debian packages
# (the servers, the browser, the tools) and the shared libraries they load, with the archive's
# version where it is newer (a server built against a newer library may warn at every start).
# Libraries only the browser loads are counted, and named only when they are behind.
set -euo pipefail
echo "Test environment:"
echo "  $(swift --version 2>/dev/null | head -1)"
for package in "$@"; do
    echo "  $(dpkg-query -W -f='${Package} ${Version}' "$package" 2>/dev/null || echo "$package not installed")"
done
"$(dirname "$0")/runtime-libraries.py" --versions "$@" | awk -F '\t' '
    {
        behind = $3 != "(none)" && $2 != $3
        if ($4 == "chromium" && !behind) { browser++; next }
        gsub(",", ", ", $4)
        printf "  %s %s%s (loaded by %s)\n", $1, $2, behind ? ", the archive has " $3 : "", $4
    }
    END { if (browser) printf "  and %d more libraries only chromium loads, each at the archive'\''s version\n", browser }'
