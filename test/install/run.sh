#!/usr/bin/env bash
# test/install/run.sh: `make install` into a DESTDIR, as a user or a
# package build does, for PREFIX=/usr and PREFIX=/usr/local, then:
#   - every file is where GNUInstallDirs (lib/<multiarch>) puts it;
#   - librelocore.so.MAJOR has SONAME librelocore.so.MAJOR (MAJOR: the
#     installed header's RC_VERSION_MAJOR) and exports exactly the
#     functions relocore.h declares (all rc_*), nothing of the internals;
#   - a C program built with `pkg-config --cflags --libs relocore` alone
#     (PKG_CONFIG_SYSROOT_DIR/PKG_CONFIG_PATH into DESTDIR) links against
#     the installed .so and runs; statically against the installed .a too;
#   - the installed CLI and plugin run; man pages and completion are there;
#   - `make uninstall` removes every file again.
# Prints PASS:/FAIL: lines for scripts/check.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/need.sh
source "$root/scripts/need.sh"
need cmake cmake
need make make
need gcc gcc
need clang clang
need pkg-config pkg-config
need readelf binutils
need nm binutils
need groff groff-base
need man man-db

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ma=$(gcc -print-multiarch)
pass() { echo "PASS: install/$1"; }
fail() { echo "FAIL: install/$1: $2"; }
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "failed: $*"; fi; }

# exports_ok LIB HEADER: the dynamic symbols LIB defines are exactly the
# functions HEADER declares (version nodes aside); prints the difference
exports_ok() {
	local lib=$1 hdr=$2
	nm -D --defined-only "$lib" | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort -u >"$t/exp.have"
	grep -oE '^[a-z][^(;]*\b[a-z_][a-z0-9_]*\(' "$hdr" | grep -oE '[a-z_][a-z0-9_]*\($' | tr -d '(' | sort -u >"$t/exp.want"
	if ! cmp -s "$t/exp.have" "$t/exp.want"; then
		diff "$t/exp.want" "$t/exp.have" | grep '^[<>]' | sed 's/^</    declared, not exported:/; s/^>/    exported, not declared:/'
		return 1
	fi
	grep -qv '^rc_' "$t/exp.have" && { echo "    not rc_*: $(grep -v '^rc_' "$t/exp.have" | tr '\n' ' ')"; return 1; }
	return 0
}

# BPF objects for the consumer: one field read, and the target layout
clang -target bpf -O2 -g -c "$here/prog.bpf.c" -o "$t/prog.o" &&
	clang -target bpf -O2 -g -DTARGET -c "$here/prog.bpf.c" -o "$t/target.o" ||
	{ fail objects "clang -target bpf failed"; exit 1; }
expect="byte_off s.b: 4 -> 16"
# the commands of the CLI, as its --help lists them: each has a man page
mapfile -t cmds < <("$root/build/bin/relocore" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z_]*\) .*/\1/p' | sort -u)
[ "${#cmds[@]}" -ge 5 ] || { fail commands "relocore --help lists ${#cmds[@]} commands"; exit 1; }
cmds=("${cmds[@]/%/.1}")

# man_ok PAGE: renders with neither groff's nor man's warnings
man_ok() {
	local e
	e=$( { groff -ww -z -man "$1" 2>&1 >/dev/null; MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null; } )
	[ -z "$e" ] || { echo "    $e" | head -5; return 1; }
}

# docs_ok MANDIR COMPLETION: every long option each command's --help
# prints is in its man page and offered by the completion
docs_ok() {
	local mandir=$1 comp=$2 c o page help want defs got bad=0
	for c in "${cmds[@]%.1}"; do
		page=$mandir/relocore-$c.1
		help=$("$root/build/bin/relocore" "$c" --help 2>&1)
		want=$(grep -oE -- '--[a-z][a-z-]+' <<<"$help" | sort -u)
		# the options the help defines (at a line's start) are completed
		defs=$(grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]+' <<<"$help" | grep -oE -- '--[a-z-]+' | sort -u)
		got=$(bash -c 'source "$1"; COMP_WORDS=(relocore "$2" --); COMP_CWORD=2
			[ "$2" = archive ] && { for s in create list extract install; do COMP_WORDS=(relocore archive "$s" --); COMP_CWORD=3; _relocore; printf "%s\n" "${COMPREPLY[@]}"; done; exit; }
			_relocore; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$c")
		for o in $want; do
			[ "$o" = --help ] && continue
			# (not sed | grep -q: grep leaves early, sed gets SIGPIPE
			# and pipefail made a documented option look missing)
			if ! grep -qF -- "$o" <<<"$(sed 's/\\-/-/g' "$page")"; then echo "    relocore-$c.1 does not document $o"; bad=1; fi
			if grep -qxF -- "$o" <<<"$defs" && ! grep -qxF -- "$o" <<<"$got"; then echo "    completion of relocore $c does not offer $o"; bad=1; fi
		done
	done
	return $bad
}

for prefix in /usr /usr/local; do
	n=${prefix//\//_}; n=${n#_}
	d=$t/dest$n
	echo "== make install PREFIX=$prefix DESTDIR=$d"
	if ! make -C "$root" --no-print-directory install PREFIX="$prefix" DESTDIR="$d" >"$t/install$n.log" 2>&1; then
		fail "$n/make-install" "make install failed:"; tail -20 "$t/install$n.log" | sed 's/^/    /'
		continue
	fi
	pass "$n/make-install"
	p=$d$prefix
	lib=$p/lib/$ma
	hdr=$p/include/relocore.h
	major=$(awk '$1 == "#define" && $2 == "RC_VERSION_MAJOR" {print $3}' "$hdr" 2>/dev/null)
	ver=$(awk '$1 == "#define" && $2 ~ /^RC_VERSION_(MAJOR|MINOR|PATCH)$/ {printf "%s%s", sep, $3; sep="."}' "$hdr" 2>/dev/null)
	[ -n "$major" ] || { fail "$n/header" "$hdr has no RC_VERSION_MAJOR"; continue; }
	for f in bin/relocore "lib/$ma/librelocore.so.$major" "lib/$ma/librelocore.so.$ver" \
		"lib/$ma/librelocore.so" "lib/$ma/librelocore.a" include/relocore.h \
		"lib/$ma/pkgconfig/relocore.pc" "lib/$ma/relocore/relocore-pass.so" \
		share/bash-completion/completions/relocore share/man/man1/relocore.1 \
		"${cmds[@]/#/share/man/man1/relocore-}"; do
		check "$n/file/$f" test -e "$p/$f"
	done
	# the plugin of every LLVM this build made it for
	for v in "$root"/build/lib/llvm-*/relocore-pass.so; do
		[ -e "$v" ] || continue
		f="lib/$ma/relocore/$(basename "$(dirname "$v")")/relocore-pass.so"
		check "$n/file/$f" test -e "$p/$f"
	done
	soname=$(readelf -d "$lib/librelocore.so.$ver" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	if [ "$soname" = "librelocore.so.$major" ]; then pass "$n/soname"; else fail "$n/soname" "SONAME '$soname', want librelocore.so.$major"; fi
	if [ "$(readlink "$lib/librelocore.so.$major")" = "librelocore.so.$ver" ] &&
		[ "$(readlink "$lib/librelocore.so")" = "librelocore.so.$major" ]; then
		pass "$n/symlinks"
	else
		fail "$n/symlinks" "librelocore.so -> $(readlink "$lib/librelocore.so"), .so.$major -> $(readlink "$lib/librelocore.so.$major")"
	fi
	if out=$(exports_ok "$lib/librelocore.so.$ver" "$hdr"); then pass "$n/exports"; else fail "$n/exports" "exports differ from relocore.h"; echo "$out"; fi
	if readelf -d "$p/bin/relocore" "$lib/librelocore.so.$ver" | grep -qE 'R(UN)?PATH'; then
		fail "$n/no-rpath" "an installed binary keeps the build tree's RPATH"
	else
		pass "$n/no-rpath"
	fi

	# man pages and completion
	for f in relocore.1 "${cmds[@]/#/relocore-}"; do
		[ -e "$p/share/man/man1/$f" ] || continue
		if out=$(man_ok "$p/share/man/man1/$f"); then pass "$n/man/$f/renders"; else fail "$n/man/$f/renders" "warnings:"; echo "$out"; fi
	done
	comp=$p/share/bash-completion/completions/relocore
	if [ -e "$comp" ]; then
		if out=$(docs_ok "$p/share/man/man1" "$comp"); then pass "$n/options-documented"; else fail "$n/options-documented" "options missing:"; echo "$out"; fi
		got=$(bash -c 'source "$1"; COMP_WORDS=(relocore ""); COMP_CWORD=1; _relocore; printf "%s " "${COMPREPLY[@]}"' _ "$comp")
		miss=""
		for c in "${cmds[@]%.1}"; do grep -qw -- "$c" <<<"$got" || miss+=" $c"; done
		if [ -z "$miss" ]; then pass "$n/completion-commands"; else fail "$n/completion-commands" "not offered:$miss (got: $got)"; fi
		got=$(cd "$t" && bash -c 'source "$1"; COMP_WORDS=(relocore explain --btf targ); COMP_CWORD=3; _relocore; printf "%s " "${COMPREPLY[@]}"' _ "$comp")
		if [ "$got" = "target.o " ]; then pass "$n/completion-files"; else fail "$n/completion-files" "relocore explain --btf targ<TAB>: '$got'"; fi
	fi

	# a consumer built with pkg-config alone
	export PKG_CONFIG_SYSROOT_DIR=$d PKG_CONFIG_PATH=$lib/pkgconfig
	if ! flags=$(pkg-config --cflags --libs relocore 2>"$t/pc.err"); then
		fail "$n/pkg-config" "$(cat "$t/pc.err")"
	else
		pass "$n/pkg-config"
		reqs=$(pkg-config --print-requires relocore | awk '{print $1}' | sort | tr '\n' ' ')
		if [ "$reqs" = "libbpf libelf " ]; then pass "$n/pkg-config-requires"; else fail "$n/pkg-config-requires" "Requires: $reqs"; fi
		pc_ver=$(pkg-config --modversion relocore)
		if [ "$pc_ver" = "$ver" ]; then pass "$n/pkg-config-version"; else fail "$n/pkg-config-version" "$pc_ver, header says $ver"; fi
		# shellcheck disable=SC2086
		if gcc -Wall -Werror -o "$t/consumer$n" "$here/consumer.c" $flags 2>"$t/cc.err"; then
			pass "$n/consumer-builds"
			if readelf -d "$t/consumer$n" | grep -q "NEEDED.*\[librelocore.so.$major\]"; then
				pass "$n/consumer-needs-so"
			else
				fail "$n/consumer-needs-so" "the consumer does not link librelocore.so.$major"
			fi
			out=$(LD_LIBRARY_PATH=$lib "$t/consumer$n" "$t/prog.o" "$t/target.o" 2>&1)
			if grep -qxF "$expect" <<<"$out" && grep -qxF "header $ver library $ver" <<<"$out" &&
				[ "$(LD_LIBRARY_PATH=$lib ldd "$t/consumer$n" | awk '/librelocore/ {print $3}')" = "$lib/librelocore.so.$major" ]; then
				pass "$n/consumer-runs"
			else
				fail "$n/consumer-runs" "output: $out"
			fi
		else
			fail "$n/consumer-builds" "$(head -5 "$t/cc.err")"
		fi
		# shellcheck disable=SC2086
		if gcc -static -o "$t/consumer-static$n" "$here/consumer.c" $(pkg-config --static --cflags --libs relocore) 2>"$t/cc.err" &&
			out=$("$t/consumer-static$n" "$t/prog.o" "$t/target.o" 2>&1) && grep -qxF "$expect" <<<"$out"; then
			pass "$n/consumer-static"
		else
			fail "$n/consumer-static" "$(head -5 "$t/cc.err") $out"
		fi
		plugin=$(pkg-config --variable=plugin relocore)
		if [ "$plugin" = "$lib/relocore/relocore-pass.so" ] &&
			clang -target bpf -O2 -g -fpass-plugin="$plugin" -c "$here/prog.bpf.c" -o "$t/plugin$n.o" 2>"$t/cc.err"; then
			pass "$n/plugin-loads"
		else
			fail "$n/plugin-loads" "plugin '$plugin': $(head -3 "$t/cc.err")"
		fi
	fi
	unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH

	# the installed CLI
	if [ "$("$p/bin/relocore" --version)" = "relocore $ver (librelocore $ver, libbpf $(pkg-config --modversion libbpf | sed 's/^/v/; s/\.[0-9]*$//'))" ]; then
		pass "$n/cli-version"
	else
		fail "$n/cli-version" "$("$p/bin/relocore" --version 2>&1)"
	fi
	if "$p/bin/relocore" explain "$t/prog.o" --btf "$t/target.o" | grep -q 's\.b .*4 -> 16'; then
		pass "$n/cli-explain"
	else
		fail "$n/cli-explain" "installed relocore explain failed"
	fi

	if make -C "$root" --no-print-directory uninstall >"$t/uninstall$n.log" 2>&1; then
		left=$(find "$d" -type f -o -type l)
		if [ -z "$left" ] && [ ! -e "$lib/relocore" ]; then
			pass "$n/uninstall"
		else
			fail "$n/uninstall" "left behind: $(echo $left)"
		fi
	else
		fail "$n/uninstall" "make uninstall failed: $(tail -3 "$t/uninstall$n.log")"
	fi
done

# self-test: the man check sees a groff warning, the docs check a missing option
printf '.TH X 1\n.SH NAME\nx \\- y\n.XX undefined macro\n' >"$t/bad.1"
if ! man_ok "$t/bad.1" >/dev/null; then pass self-test-man; else fail self-test-man "a page with an undefined macro passed"; fi
mkdir -p "$t/m"
for c in "${cmds[@]%.1}"; do printf '.TH X 1\n' >"$t/m/relocore-$c.1"; done
printf '_relocore() { COMPREPLY=(); }\n' >"$t/comp"
out=$(docs_ok "$t/m" "$t/comp")
if [ $? -ne 0 ] && grep -q 'relocore-explain.1 does not document --json' <<<"$out" &&
	grep -q 'completion of relocore reloc does not offer --kconfig' <<<"$out"; then
	pass self-test-docs
else
	fail self-test-docs "the docs check missed undocumented options: $out"
fi

# self-test: the export check notices an internal symbol and a missing one
printf 'int rc_a(void);\nint rc_b(int x);\n' >"$t/h.h"
printf 'int rc_a(void){return 0;}\nint rc_internal(void){return 1;}\nint helper(void){return 2;}\n' >"$t/l.c"
gcc -shared -fPIC -o "$t/l.so" "$t/l.c"
out=$(exports_ok "$t/l.so" "$t/h.h")
if [ $? -ne 0 ] && grep -q 'exported, not declared: rc_internal' <<<"$out" &&
	grep -q 'declared, not exported: rc_b' <<<"$out" && grep -q 'helper' <<<"$out"; then
	pass self-test
else
	fail self-test "the export check missed planted differences: $out"
fi
