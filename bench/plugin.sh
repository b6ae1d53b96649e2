#!/usr/bin/env bash
# bench/plugin.sh [ROUNDS] - compile-time overhead of the relocore plugin.
#
# Compiles every examples/*.bpf.c ROUNDS times (default 5) each way and
# prints the total wall time and the ratio:
#   base      clang -target bpf -O2 -g                (the programs as written)
#   plugin    the same + -fpass-plugin=build/lib/relocore-pass.so
#   plain     the plugin on the programs compiled as plain C
#             (-DBPF_NO_PRESERVE_ACCESS_INDEX: vmlinux.h without the
#             attribute, so the plugin relocates every direct access)
# Target: plugin/base <= 1.05.  Runs are interleaved so machine load affects
# all three alike; the best (minimum) CPU time (user+sys) over the rounds is
# used.
set -euo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
rounds=${1:-5}
plugin="$RC_BUILD/lib/relocore-pass.so"
[ -f "$plugin" ] || { echo "bench/plugin: build first (make)" >&2; exit 1; }
CLANG=${CLANG:-clang}

hdr=${RC_VMLINUX_H:-}
if [ -z "$hdr" ]; then
	hdr=$(ls -t "$RC_CACHE"/vmlinux-h/*/vmlinux.h 2>/dev/null | head -1 || true)
fi
if [ -z "$hdr" ]; then
	tmp=$(mktemp -d)
	bash "$RC_ROOT/examples/build.sh" "$tmp" >/dev/null
	rm -rf "$tmp"
	hdr=$(ls -t "$RC_CACHE"/vmlinux-h/*/vmlinux.h | head -1)
fi
hdir=$(dirname "$hdr")
srcs=("$RC_ROOT"/examples/*.bpf.c)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

compile_all() { # MODE
	local mode=$1 s extra=()
	case $mode in
	base) ;;
	plugin) extra=(-fpass-plugin="$plugin") ;;
	plain) extra=(-fpass-plugin="$plugin" -DBPF_NO_PRESERVE_ACCESS_INDEX) ;;
	esac
	for s in "${srcs[@]}"; do
		"$CLANG" -target bpf -O2 -g -D__TARGET_ARCH_x86 -I"$hdir" \
			-I"$RC_ROOT/examples" "${extra[@]}" -c "$s" -o "$out/x.o"
	done
}
declare -A best
for mode in base plugin plain; do best[$mode]=999999; done
for ((r = 1; r <= rounds; r++)); do
	for mode in base plugin plain; do
		# CPU time (user+sys of clang), less sensitive to other load
		# on the machine than wall time
		TIMEFORMAT='%U+%S'
		t=$( { time compile_all "$mode" >/dev/null; } 2>&1 | tail -1 | awk -F+ '{print $1 + $2}')
		if awk -v a="$t" -v b="${best[$mode]}" 'BEGIN{exit !(a < b)}'; then best[$mode]=$t; fi
	done
done
printf 'bench/plugin: %d programs, best of %d rounds (CPU s): base %.3f, plugin %.3f, plain+plugin %.3f\n' \
	"${#srcs[@]}" "$rounds" "${best[base]}" "${best[plugin]}" "${best[plain]}"
printf 'bench/plugin: ratio plugin/base %.3f  (plain+plugin)/base %.3f  (target <= 1.05)\n' \
	"$(awk -v a="${best[plugin]}" -v b="${best[base]}" 'BEGIN{print a / b}')" "$(awk -v a="${best[plain]}" -v b="${best[base]}" 'BEGIN{print a / b}')"
