#!/usr/bin/env bash
# test/deb/run.sh: the Debian packages.  Builds them with scripts/deb.sh
# (dpkg-buildpackage -us -uc -b in a copy of the tree, then lintian) and
# checks:
#   - relocore, librelocore1, librelocore-dev are built, at the version of
#     debian/changelog, which is relocore.h's RC_VERSION_*;
#   - lintian reports no error;
#   - each package holds what it should (and librelocore1 exactly the .so);
#   - the packages' files, unpacked together into a directory, work: a C
#     program built with `pkg-config --cflags --libs relocore` alone links
#     and runs, the packaged CLI explains an object, the man pages are there.
# (Installing with dpkg -i on an empty machine is a separate check: it
# needs a root file system of its own.)  Prints PASS:/FAIL: lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/need.sh
source "$root/scripts/need.sh"
need dpkg-deb dpkg
need dpkg-parsechangelog dpkg-dev
need gcc gcc
need clang clang
need pkg-config pkg-config
pass() { echo "PASS: deb/$1"; }
fail() { echo "FAIL: deb/$1: $2"; }

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
out=$root/build/deb
bash "$root/scripts/deb.sh" "$out" 2>&1 | tee "$t/deb.log"
rc=${PIPESTATUS[0]}
if grep -q '^deb: built in' "$t/deb.log"; then pass build; else fail build "dpkg-buildpackage failed"; exit 1; fi
e=$(sed -n 's/^deb: lintian: \([0-9]*\) errors.*/\1/p' "$t/deb.log")
if [ "$rc" -eq 0 ] && [ "$e" = 0 ]; then pass lintian-no-errors; else fail lintian-no-errors "lintian: ${e:-?} errors (build/deb/lintian.txt)"; fi

version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
hdr=$(awk '$1 == "#define" && $2 ~ /^RC_VERSION_(MAJOR|MINOR|PATCH)$/ {printf "%s%s", sep, $3; sep="."}' "$root/loader/relocore.h")
if [ "$version" = "$hdr" ]; then pass version; else fail version "debian/changelog says $version, relocore.h $hdr"; fi
arch=$(dpkg --print-architecture)
ma=$(gcc -print-multiarch)

# contents PKG FILE...: PKG's .deb exists and holds every FILE
contents() {
	local pkg=$1 deb=$out/$1_${version}_$arch.deb f miss=""
	shift
	[ -f "$deb" ] || { fail "$pkg/built" "no $deb"; return 1; }
	dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$t/$pkg.list"
	for f in "$@"; do grep -qxF "$f" "$t/$pkg.list" || miss+=" $f"; done
	if [ -z "$miss" ]; then pass "$pkg/contents"; else fail "$pkg/contents" "missing:$miss"; fi
	dpkg-deb -x "$deb" "$t/root"
}
mkdir -p "$t/root"
man=(relocore.1 relocore-explain.1 relocore-reloc.1 relocore-run.1 relocore-btfgen.1 relocore-archive.1 relocore-gen.1 relocore-extract.1 relocore-matrix.1)
man=("${man[@]/%/.gz}")
contents relocore /usr/bin/relocore "/usr/lib/$ma/relocore/relocore-pass.so" \
	/usr/share/bash-completion/completions/relocore "${man[@]/#//usr/share/man/man1/}" \
	/usr/share/doc/relocore/copyright /usr/lib/relocore/relocore-static /usr/lib/relocore/vm/matrix.py \
	/usr/lib/relocore/vm/kernels.list /usr/lib/relocore/vm/boot.sh /usr/lib/relocore/scripts/cache.sh
contents librelocore1 "/usr/lib/$ma/librelocore.so.1" "/usr/lib/$ma/librelocore.so.$version"
if [ -f "$t/librelocore1.list" ] && ! grep -vE "^/usr/lib/$ma/librelocore\.so\.1(\.[0-9.]+)?$|^/usr/share/doc/|/$" "$t/librelocore1.list" | grep -q .; then
	pass librelocore1/only-the-library
else
	fail librelocore1/only-the-library "$(grep -vE "librelocore\.so\.1|/usr/share/doc/|/$" "$t/librelocore1.list" 2>/dev/null | tr '\n' ' ')"
fi
contents librelocore-dev /usr/include/relocore.h "/usr/lib/$ma/librelocore.a" \
	"/usr/lib/$ma/librelocore.so" "/usr/lib/$ma/pkgconfig/relocore.pc"
deps=$(dpkg-deb -f "$out/librelocore1_${version}_$arch.deb" Depends 2>/dev/null)
if grep -q libbpf1 <<<"$deps" && grep -q libelf1 <<<"$deps"; then pass librelocore1/depends; else fail librelocore1/depends "Depends: $deps"; fi

# the unpacked files at work
clang -target bpf -O2 -g -c "$root/test/install/prog.bpf.c" -o "$t/prog.o" &&
	clang -target bpf -O2 -g -DTARGET -c "$root/test/install/prog.bpf.c" -o "$t/target.o"
lib=$t/root/usr/lib/$ma
# shellcheck disable=SC2046
if gcc -o "$t/consumer" "$root/test/install/consumer.c" $(PKG_CONFIG_SYSROOT_DIR=$t/root PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags --libs relocore) 2>"$t/cc.err" &&
	LD_LIBRARY_PATH=$lib "$t/consumer" "$t/prog.o" "$t/target.o" | grep -qxF "byte_off s.b: 4 -> 16"; then
	pass consumer
else
	fail consumer "$(head -3 "$t/cc.err")"
fi
if "$t/root/usr/bin/relocore" explain "$t/prog.o" --btf "$t/target.o" | grep -q 's\.b .*4 -> 16' &&
	[ "$("$t/root/usr/bin/relocore" --version | awk '{print $2}')" = "$version" ]; then
	pass cli
else
	fail cli "the packaged relocore does not explain, or its --version is not $version"
fi
if MANWIDTH=80 man -l "$t/root/usr/share/man/man1/relocore-gen.1.gz" 2>&1 | grep -q 'min_core_btf'; then pass man; else fail man "relocore-gen.1.gz does not render"; fi
# the symbols file lists what the version script exports
a=$(grep -oE '^ rc_[a-z0-9_]+@' "$root/debian/librelocore1.symbols" | tr -d ' @' | sort)
b=$(awk '/global:/ {g=1; next} /local:|}/ {g=0} g {gsub(/[ \t;]/, ""); if ($0 != "") print}' "$root/loader/librelocore.map" | sort)
if [ -n "$a" ] && [ "$a" = "$b" ]; then pass symbols-file; else fail symbols-file "debian/librelocore1.symbols and loader/librelocore.map differ: $(diff <(echo "$a") <(echo "$b") | grep '^[<>]' | tr '\n' ' ')"; fi
