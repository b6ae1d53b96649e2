#!/usr/bin/env bash
# scripts/deb.sh [OUTDIR]: build the Debian packages (debian/) from this
# tree as `dpkg-buildpackage -us -uc -b` does, in a copy of the tree under
# a temporary directory (dpkg-buildpackage writes its .deb files into the
# source's parent), then run lintian on the result.  The .deb files and
# lintian's report land in OUTDIR (default build/deb).
#   relocore_VERSION_ARCH.deb        the CLI, the plugin, man pages, completion
#   librelocore1_VERSION_ARCH.deb    librelocore.so.1
#   librelocore-dev_VERSION_ARCH.deb relocore.h, librelocore.a, relocore.pc
# Exit 1 when the build fails or lintian reports an error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=need.sh
source "$root/scripts/need.sh"
need dpkg-buildpackage dpkg-dev
need dh debhelper
need lintian lintian
need git git
out=${1:-$root/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
src=$t/relocore-$version
mkdir -p "$src"
# the tracked files and the new ones not ignored: what a clone would hold
(cd "$root" && git ls-files -co --exclude-standard -z) |
	(cd "$root" && xargs -0 cp --parents -t "$src" 2>/dev/null)
[ -f "$src/debian/control" ] || { echo "deb: copying the tree failed"; exit 1; }
echo "deb: dpkg-buildpackage -us -uc -b in $src (a few minutes: the plugin is C++)"
start=$(date +%s)
if ! (cd "$src" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
	timeout 1800 dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	echo "deb: dpkg-buildpackage failed ($out/build.log):"
	tail -25 "$out/build.log" | sed 's/^/    /'
	exit 1
fi
echo "deb: built in $(( $(date +%s) - start ))s"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
cp "$t"/*.deb "$t"/*.changes "$t"/*.buildinfo "$out"/
ls -l "$out"/*.deb | awk '{print "deb: " $5 " " $NF}'
changes=$(ls "$out"/*.changes)
lintian --info --display-info --pedantic --tag-display-limit 0 "$changes" >"$out/lintian.txt" 2>&1
e=$(grep -c '^E: ' "$out/lintian.txt")
w=$(grep -c '^W: ' "$out/lintian.txt")
i=$(grep -c '^I: ' "$out/lintian.txt")
echo "deb: lintian: $e errors, $w warnings, $i infos ($out/lintian.txt)"
grep -E '^(E|W): ' "$out/lintian.txt" | sed 's/^/    /'
[ "$e" -eq 0 ]
