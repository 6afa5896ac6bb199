#!/usr/bin/env bash
# Builds dist/detour_<version>_<arch>.deb from the static release binary (`make release`): the
# binary, a manual page for detour and each subcommand (swift-argument-parser's generate-manual,
# from the same definitions as --help), bash, zsh and fish completions, the README and the
# copyright file. Depends: is what dpkg-shlibdeps finds the binary loads. The same binary and
# SOURCE_DATE_EPOCH (default: the last commit's time) give the same bytes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(tr -d '[:space:]' < VERSION)
arch=$(dpkg --print-architecture)
binary=.build/static/release/detour
[ -x "$binary" ] || { echo "make-deb: $binary is missing; run 'make release' first" >&2; exit 1; }
built=$("$binary" --version)
[ "$built" = "$version" ] || { echo "make-deb: $binary is version $built, VERSION says $version; run 'make release' first" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || stat -c %Y VERSION)}
export TZ=UTC LC_ALL=C.UTF-8
umask 022

work=$(mktemp -d "${TMPDIR:-/tmp}/detour-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/detour
mkdir -p "$stage/DEBIAN"

install -D -m 755 "$binary" "$stage/usr/bin/detour"
# The symbols and debug information are not needed to run, and Debian ships binaries without them.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/detour"

# Manual pages from the argument parser's definitions, one per command, named as man(1)
# finds them: `man detour-check`.
manuals=.build/plugins/GenerateManual/outputs/detour
rm -rf "$manuals"
swift package --configuration debug generate-manual --multi-page --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" >"$work/manual.log" 2>&1 \
    || { cat "$work/manual.log" >&2; exit 1; }
mkdir -p "$stage/usr/share/man/man1"
for page in "$manuals"/*.1; do
    name=$(basename "$page" .1)
    [ "$name" = detour.help ] && continue
    words=${name//./ } dashed=${name//./-}
    # The NAME section names the page as whatis and lintian read it (detour-check, no space);
    # the synopsis keeps the command as typed. mdoc has no empty lines: a paragraph is .Pp.
    sed -e "s/^\.Dt ${name^^} /.Dt ${dashed^^} /" -e "0,/^\.Nm \"$words\"\$/s//.Nm $dashed/" -e "s/^\.Nm\$/.Nm \"$words\"/" "$page" \
        | cat -s | sed 's/^$/.Pp/' | gzip -9n > "$stage/usr/share/man/man1/$dashed.1.gz"
done

# Completions where each shell looks for them.
"$stage/usr/bin/detour" --generate-completion-script bash | sed '1{/^#!/d}' | install -D -m 644 /dev/stdin "$stage/usr/share/bash-completion/completions/detour"
"$stage/usr/bin/detour" --generate-completion-script zsh | install -D -m 644 /dev/stdin "$stage/usr/share/zsh/vendor-completions/_detour"
"$stage/usr/bin/detour" --generate-completion-script fish | install -D -m 644 /dev/stdin "$stage/usr/share/fish/vendor_completions.d/detour.fish"

docs=$stage/usr/share/doc/detour
install -D -m 644 scripts/deb/copyright "$docs/copyright"
gzip -9nc README.md > "$docs/README.md.gz"
install -D -m 644 scripts/deb/lintian-overrides "$stage/usr/share/lintian/overrides/detour"
sed "s/@VERSION@/$version/; s/@DATE@/$(date -u -R -d "@$SOURCE_DATE_EPOCH")/" scripts/deb/changelog | gzip -9n > "$docs/changelog.gz"

# Depends: what the binary loads, as the package system resolves it.
mkdir -p "$work/shlibs/debian"
printf 'Source: detour\n\nPackage: detour\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/detour" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" \
    -e "s/@SIZE@/$(du -sk --exclude=DEBIAN "$stage" | cut -f1)/" scripts/deb/control > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f | sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
find "$stage" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p dist
package=dist/detour_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >/dev/null
echo "$package"
