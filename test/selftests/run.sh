#!/usr/bin/env bash
# Offline conformance test of relocore against the kernel's CO-RE selftests
# (tools/testing/selftests/bpf/prog_tests/core_reloc.c of linux-source-6.1).
#
#   test/selftests/run.sh [CASE...]
#
# Environment:
#   RELOCORE        relocore binary (default: build/bin/relocore).  Any
#                   executable taking `reloc OBJ --btf T [--module M]... -o OUT`
#                   works, e.g. test/selftests/relocore-identity.sh.
#   RC_BPF_CLANG    clang used for the BPF objects (default: newest of
#                   clang-16, clang-15, clang).  The kernel, type_based and
#                   enum64val programs need clang >= 15 (they set data.skip
#                   otherwise, which counts as a failure here).
#   RC_SELFTEST_ALLOW_CORE_RELO=1  accept outputs that still carry .BTF.ext
#                   core_relo records (for stand-ins that copy the object).
#   RC_SELFTEST_VERBOSE=1          more detail per case.
#
# Everything is built into "$RC_CACHE/selftests-<hash>" (outside the clone)
# and reused; the per-run outputs of relocore go to a fresh work dir inside.
# Nothing is loaded into the running kernel: see core_reloc_runner.c.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"
need clang-16 clang-16
need /usr/src/linux-source-6.1.tar.xz linux-source-6.1

say() { echo "selftests: $*" >&2; }

RELOCORE="${RELOCORE:-$RC_ROOT/build/bin/relocore}"
case "$RELOCORE" in /*) ;; *) RELOCORE="$PWD/$RELOCORE" ;; esac
if [ ! -x "$RELOCORE" ]; then
	say "relocore binary not found or not executable: $RELOCORE (set RELOCORE)"
	exit 2
fi

src=$(rc_linux_src)
sb="$src/tools/testing/selftests/bpf"
[ -f "$sb/prog_tests/core_reloc.c" ] || { say "no core_reloc.c in $sb"; exit 2; }

say "locating the Debian 6.1 cloud kernel BTF (downloaded once)"
vmlinux_btf=$("$RC_ROOT/vm/kernel-btf.sh" cloud-6.1)

# --- compilers -------------------------------------------------------------
if [ -n "${RC_BPF_CLANG:-}" ]; then
	bpf_clang=$RC_BPF_CLANG
else
	bpf_clang=
	for c in clang-16 clang-15 clang; do
		if command -v "$c" >/dev/null; then bpf_clang=$(command -v "$c"); break; fi
	done
fi
[ -n "$bpf_clang" ] || { say "no clang found"; exit 2; }
clang_major=$("$bpf_clang" -dM -E - </dev/null | awk '/__clang_major__/{print $3}')
if [ "${clang_major:-0}" -lt 15 ]; then
	say "WARNING: $bpf_clang is clang $clang_major; the kernel, type_based and enum64val"
	say "         programs need clang >= 15 (apt-get install clang-16) and will fail"
fi
host_cc=${CC:-cc}

# --- build dir ---------------------------------------------------------------
# Keyed by what the BPF objects depend on (this script holds their flags).
key=$( { cat "${BASH_SOURCE[0]}"; echo "$src"; "$bpf_clang" --version | head -n1;
	 echo "$vmlinux_btf"; } | sha1sum | cut -c1-12)
B="$RC_CACHE/selftests-$key"
mkdir -p "$B/include/bpf" "$B/obj"

# vmlinux.h, as the selftests Makefile makes it
if [ ! -s "$B/include/vmlinux.h" ]; then
	say "generating vmlinux.h from $vmlinux_btf"
	bpftool btf dump file "$vmlinux_btf" format c >"$B/include/vmlinux.h.tmp"
	mv "$B/include/vmlinux.h.tmp" "$B/include/vmlinux.h"
fi

# libbpf's BPF-side headers from the same tree (the Makefile installs them
# into its include dir), with the generated bpf_helper_defs.h.
if [ ! -s "$B/include/bpf/bpf_helper_defs.h" ]; then
	say "installing libbpf headers of the tree and generating bpf_helper_defs.h"
	cp "$src"/tools/lib/bpf/bpf_helpers.h "$src"/tools/lib/bpf/bpf_core_read.h \
	   "$src"/tools/lib/bpf/bpf_tracing.h "$src"/tools/lib/bpf/bpf_endian.h "$B/include/bpf/"
	python3 "$src/scripts/bpf_doc.py" --header --file "$src/tools/include/uapi/linux/bpf.h" \
		>"$B/include/bpf/bpf_helper_defs.h.tmp"
	mv "$B/include/bpf/bpf_helper_defs.h.tmp" "$B/include/bpf/bpf_helper_defs.h"
fi

# Host runner: rebuilt when its sources change (cheap).
rsum=$(cat "$here"/core_reloc_runner.c "$here"/bpf_interp.c "$here"/bpf_interp.h \
	   "$here"/shim/test_progs.h "$sb/prog_tests/core_reloc.c" | sha1sum | cut -c1-12)
runner="$B/core_reloc_runner-$rsum"
if [ ! -x "$runner" ]; then
	say "building the runner"
	"$host_cc" -O1 -g -Wall -Wno-unused-function -Wno-format-truncation \
		-I"$here/shim" -I"$here" -I"$sb" \
		-DRC_CORE_RELOC_C="\"$sb/prog_tests/core_reloc.c\"" \
		"$here/core_reloc_runner.c" "$here/bpf_interp.c" \
		-lbpf -lelf -lz -o "$runner.tmp"
	mv "$runner.tmp" "$runner"
fi

# BPF objects, with the selftests Makefile's flags (BPF_CFLAGS, CLANG_CFLAGS,
# CLANG_BPF_BUILD_RULE).
sys_includes=()
while read -r d; do sys_includes+=(-idirafter "$d"); done < <(
	"$bpf_clang" -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|\1|p }')
bpf_cflags=(-g -Werror -D__TARGET_ARCH_x86 -mlittle-endian
	    -I"$B/include" -I"$sb" -I"$src/tools/include/uapi"
	    "${sys_includes[@]}" -Wno-compare-distinct-pointer-types)
objs_list=$("$runner" list-objs)
mapfile -t objs <<<"$objs_list"
[ ${#objs[@]} -gt 1 ] || { say "the runner lists no BPF objects"; exit 2; }
todo=()
for o in "${objs[@]}"; do [ -s "$B/obj/$o" ] || todo+=("$o"); done
if [ ${#todo[@]} -gt 0 ]; then
	say "compiling ${#todo[@]} BPF objects with $bpf_clang (of ${#objs[@]})"
	n=0
	for o in "${todo[@]}"; do
		c="$sb/progs/${o%.bpf.o}.c"
		"$bpf_clang" "${bpf_cflags[@]}" -O2 -target bpf -c "$c" -mcpu=v3 -o "$B/obj/$o.tmp"
		mv "$B/obj/$o.tmp" "$B/obj/$o"
		n=$((n + 1))
		if [ $((n % 10)) -eq 0 ]; then say "  $n/${#todo[@]}"; fi
	done
fi

# bpf_testmod's BTF, split over the vmlinux BTF.
if [ ! -s "$B/bpf_testmod.btf" ]; then
	say "building bpf_testmod split BTF"
	"$runner" mkmodbtf "$vmlinux_btf" "$B/bpf_testmod.btf.tmp"
	mv "$B/bpf_testmod.btf.tmp" "$B/bpf_testmod.btf"
fi

# --- run -----------------------------------------------------------------------
mkdir -p "$B/runs"
work=$(mktemp -d "$B/runs/run.XXXXXX")
# keep only the 5 most recent work dirs
ls -1dt "$B"/runs/run.* 2>/dev/null | tail -n +6 | xargs -r rm -rf
say "running $("$runner" count) cases with $RELOCORE (outputs in $work)"
args=(run --objdir "$B/obj" --relocore "$RELOCORE" --vmlinux-btf "$vmlinux_btf"
      --module-btf "$B/bpf_testmod.btf" --workdir "$work")
[ "${RC_SELFTEST_ALLOW_CORE_RELO:-0}" = 1 ] && args+=(--allow-core-relo)
[ "${RC_SELFTEST_VERBOSE:-0}" = 1 ] && args+=(-v)
"$runner" "${args[@]}" "$@"
