#!/usr/bin/env bash
# Installs the named Debian packages that are missing, and brings the shared libraries they load
# (scripts/runtime-libraries.py) to the versions the package lists name. apt installs a server
# built against the archive's libraries, but leaves an older library in place when its version
# still satisfies the dependency; the server then warns at every start (Apache's mod_ssl:
# "compiled against a newer library"). Uses apt-get as root, or through sudo.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null; then
    sudo=(sudo)
else
    sudo=(false)
fi

if [ ${#missing[@]} -gt 0 ]; then
    if [ "${sudo[0]:-}" = false ]; then
        echo "detour needs these Debian packages: ${missing[*]}; install them with apt-get as root." >&2
        exit 1
    fi
    echo "Installing ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The libraries whose installed version is not the one apt would install now (none when the
# package lists do not name one).
command -v python3 >/dev/null || exit 0
mapfile -t upgrades < <("$(dirname "$0")/runtime-libraries.py" --versions "$@" | awk -F '\t' '$3 != "(none)" && $2 != $3 { print $1 }')
[ ${#upgrades[@]} -eq 0 ] && exit 0
if [ "${sudo[0]:-}" = false ]; then
    echo "warning: these packages are older than the archive's, and the servers built against it may warn at start: ${upgrades[*]}; upgrade them with apt-get install --only-upgrade as root." >&2
    exit 0
fi
echo "Upgrading what the servers run on to the archive's versions: ${upgrades[*]}" >&2
# apt-get install marks what it names as installed by hand; those installed as dependencies stay so.
mapfile -t automatic < <(apt-mark showauto "${upgrades[@]}")
"${sudo[@]}" apt-get install -y -qq --only-upgrade "${upgrades[@]}" >/dev/null
[ ${#automatic[@]} -eq 0 ] || "${sudo[@]}" apt-mark auto "${automatic[@]}" >/dev/null
