#!/usr/bin/env bash
# test/deps/run.sh [ROOT]: keep scripts/deps.list true.  For every
# `need TOOL PACKAGE` in the tracked scripts of ROOT (default: this clone):
#   - PACKAGE is in scripts/deps.list                  (need/<pkg>/listed)
#   - PACKAGE really ships TOOL (dpkg -L of it or of a package it depends
#     on directly; a command in a bin directory, or the absolute path
#     itself)                                           (need/<tool>/owner)
# and every package of deps.list is installed here     (deps/<pkg>/installed).
# Then a self-test: a copy of the tree with one `need` whose package is not
# listed, and one that names the wrong package, must both be reported.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(cd "$here/../.." && pwd)}

# needs ROOT: "FILE TOOL PACKAGE" of every need call in ROOT's shell scripts
needs() {
	local r=$1 f
	(cd "$r" && { git ls-files -co --exclude-standard 2>/dev/null || find . -type f | sed 's|^\./||'; }) |
	grep -E '\.sh$|(^|/)run$' | sort -u | while read -r f; do
		[ "$f" = scripts/need.sh ] && continue
		[ -f "$r/$f" ] || continue
		awk -v f="$f" '$1 == "need" && NF >= 3 { gsub(/"/, "", $2); print f, $2, $3 }' "$r/$f"
	done
}

# ships PACKAGE TOOL: true when the file list of PACKAGE, or of a package it
# depends on directly (python3 -> python3-minimal), holds TOOL
ships() {
	local pkg=$1 tool=$2 files d
	files=$(dpkg -L "$pkg" 2>/dev/null) || return 1
	for d in $(dpkg-query -W -f='${Pre-Depends},${Depends}' "$pkg" 2>/dev/null | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//'); do
		files+=$'\n'$(dpkg -L "$d" 2>/dev/null)
	done
	case "$tool" in
	/*) grep -qxF -e "$tool" -e "${tool#/usr}" <<<"$files" ;;
	*) grep -qE "^(/usr)?/s?bin/${tool//./\\.}$" <<<"$files" ;;
	esac
}

# check ROOT PREFIX: the need checks of ROOT; prints PASS/FAIL lines
check() {
	local r=$1 p=$2 list="$1/scripts/deps.list" f tool pkg
	local listed
	listed=$(awk '!/^[[:space:]]*(#|$)/ {print $1}' "$list")
	declare -A seen=()
	while read -r f tool pkg; do
		case "$tool$pkg" in *'$'*|*'`'*)
			echo "FAIL: ${p}need/$tool: $f: write TOOL and PACKAGE literally (the check reads them)"; continue ;;
		esac
		if [ -z "${seen[l.$pkg]:-}" ]; then
			seen[l.$pkg]=1
			if grep -qxF "$pkg" <<<"$listed"; then
				echo "PASS: ${p}need/$pkg/listed"
			else
				echo "FAIL: ${p}need/$pkg/listed: $f asks for $tool from $pkg, which scripts/deps.list does not list"
			fi
		fi
		[ -n "${seen[o.$tool.$pkg]:-}" ] && continue
		seen[o.$tool.$pkg]=1
		if ships "$pkg" "$tool"; then
			echo "PASS: ${p}need/$tool/owner"
		else
			echo "FAIL: ${p}need/$tool/owner: $f says $tool comes with $pkg, but $pkg ships no such file (installed: $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || echo no))"
		fi
	done < <(needs "$r")
}

n=$(needs "$root" | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: deps/needs: no need calls found under $root"; exit 1; }
echo "deps: $n need calls in $(needs "$root" | awk '{print $1}' | sort -u | wc -l) scripts"
check "$root" ""
while read -r pkg; do
	if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		echo "PASS: deps/$pkg/installed"
	else
		echo "FAIL: deps/$pkg/installed: scripts/deps.list lists it, but it is not installed (make deps)"
	fi
done < <(awk '!/^[[:space:]]*(#|$)/ {print $1}' "$root/scripts/deps.list")

# self-test: the check must catch an unlisted package and a wrong owner
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts"
cp "$root/scripts/deps.list" "$t/scripts/deps.list"
printf 'need ls coreutils\nneed bpftool make\n' >"$t/a.sh"
out=$(check "$t" "")
if grep -q '^FAIL: need/coreutils/listed' <<<"$out" && grep -q '^FAIL: need/bpftool/owner' <<<"$out" &&
	grep -q '^PASS: need/make/listed' <<<"$out"; then
	echo "PASS: deps/self-test"
else
	echo "FAIL: deps/self-test: the check missed a planted error:"; sed 's/^/    /' <<<"$out"
fi
