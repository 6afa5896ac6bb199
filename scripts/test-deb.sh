#!/usr/bin/env bash
# The Debian package as a user gets it: `make deb` twice gives the same bytes, lintian reports
# no error and no warning, `apt-get install ./detour_*.deb` gives a detour that shows VERSION,
# starts and builds a project, its manual pages and bash completion where man and bash look,
# and `apt-get remove` leaves none of its files. Installing needs root: elsewhere the install
# part is skipped, unless CI=true, where that is a failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fail() { echo "test-deb: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/detour-deb-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

make --no-print-directory release > "$work/release.log" 2>&1 || { cat "$work/release.log" >&2; fail "make release failed"; }
package=$(scripts/make-deb.sh | tail -1)
first=$(sha256sum "$package" | cut -d' ' -f1)
sleep 1  # the second build's clock differs: nothing of it may reach the package
package=$(scripts/make-deb.sh | tail -1)
[ "$(sha256sum "$package" | cut -d' ' -f1)" = "$first" ] || fail "two builds of $package differ"
lintian --fail-on error,warning "$package" > "$work/lintian.log" 2>&1 || { cat "$work/lintian.log" >&2; fail "lintian reports errors or warnings on $package"; }

if [ "$(id -u)" != 0 ]; then
    [ "${CI:-}" = true ] && fail "installing the package needs root"
    echo "test-deb: not root; the package was built and checked but not installed" >&2
    exit 0
fi
dpkg -s detour > /dev/null 2>&1 && fail "a detour package is installed already; remove it first"
trap 'apt-get remove -y detour > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
apt-get install -y "./$package" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "apt-get install ./$package failed"; }
dpkg -L detour > "$work/files"

[ "$(/usr/bin/detour --version)" = "$(tr -d '[:space:]' < VERSION)" ] || fail "detour --version is not VERSION's $(cat VERSION)"
ldd /usr/bin/detour | grep -q 'libswift\|libFoundation' && fail "the packaged detour loads the Swift runtime"
(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work" detour init project > /dev/null \
    && cd project && env -i PATH=/usr/bin:/bin HOME="$work" detour build --quiet --strict) || fail "detour init and build in an empty folder failed"
[ -f "$work/project/public/errors/502.html" ] || fail "the packaged detour built no error pages"
page=$(man -w detour-check) || fail "man -w detour-check finds no page"
[ "$page" = /usr/share/man/man1/detour-check.1.gz ] || fail "man -w detour-check found $page"
man -w detour > /dev/null || fail "man -w detour finds no page"
completions=$(pkg-config --variable=completionsdir bash-completion 2> /dev/null || echo /usr/share/bash-completion/completions)
[ -s "$completions/detour" ] || fail "no bash completion in $completions"
grep -q 'check' "$completions/detour" || fail "the bash completion does not complete the subcommands"

apt-get remove -y detour > "$work/remove.log" 2>&1 || { cat "$work/remove.log" >&2; fail "apt-get remove detour failed"; }
status=$(dpkg-query -W -f '${db:Status-Status}' detour 2> /dev/null || echo not-installed)
[ "$status" = not-installed ] || fail "dpkg still lists detour ($status) after its removal"
while read -r path; do
    [ -d "$path" ] && continue
    [ -e "$path" ] && fail "$path is left after apt-get remove"
done < "$work/files"
echo "test-deb: $package built twice the same ($first), lintian clean, installed, used and removed"
