#!/usr/bin/env bash
# bench/run.sh - relocore vs libbpf: open Debian 6.12's vmlinux BTF and
# decide every CO-RE relocation of the example objects.  Wall time as a
# ratio measured in one process (alternating runs, medians), and
# callgrind instruction counts of each side (repeatable).
# Not a test: it prints numbers and asserts nothing.
set -euo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
need valgrind valgrind
cd "$RC_ROOT"
out=build/bench
mkdir -p "$out"
echo "bench: building examples and core_bench"
bash examples/build.sh "$out/examples" >/dev/null
objs=("$out"/examples/*.bpf.o)
cc -O2 -g -Wall -Iloader -Icli -Itest/crosscheck -o "$out/core_bench" bench/core_bench.c \
	test/crosscheck/libbpf_oracle.c cli/heap.c build/lib/librelocore.a \
	/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz
btf=$(vm/kernel-btf.sh cloud-6.12)
echo "bench: target $(basename "$(dirname "$btf")") ($(stat -c %s "$btf") bytes), ${#objs[@]} objects"
"$out/core_bench" both "${ITER:-21}" "$btf" "${objs[@]}"
for side in libbpf relocore; do
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.$side" \
		"$out/core_bench" $side 1 "$btf" "${objs[@]}" >/dev/null 2>"$out/cg.$side.log"
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/cg.$side.log")
	[ -n "$ir" ] || ir=$(grep -o 'refs: *[0-9,]*' "$out/cg.$side.log" | tr -dc 0-9)
	echo "callgrind $side: $ir instructions"
	eval "ir_$side=$ir"
done
awk -v a="$ir_relocore" -v b="$ir_libbpf" 'BEGIN { printf "callgrind ratio relocore/libbpf: %.3f\n", a / b }'

# --- as each tool's start does: the libbpf-tools corpus, target opened per object
# Per object, libbpf: btf__parse(vmlinux BTF), libelf + btf__parse_elf of the
# object, bpf_core_add_cands per local type (its linear scan, list cached),
# bpf_core_calc_relo_insn + bpf_core_patch_insn per record; relocore:
# rc_target_open (map the file, one walk that indexes, checks and hashes
# the names of its types), rc_object_open, rc_object_relocate (decide and
# patch every record).
root=$(bash test/crosscheck/libbpf-tools.sh bookworm)
rm -rf "$out/tools"
mkdir -p "$out/tools"
for f in "$root"/root/usr/sbin/*; do
	[ -f "$f" ] && build/bin/relocore extract "$f" -o "$out/tools" >/dev/null 2>&1 || true
done
tools=("$out"/tools/*.o)
btf61=$(vm/kernel-btf.sh cloud-6.1)
echo "bench: tool starts: ${#tools[@]} libbpf-tools objects, target cloud-6.1 ($(stat -c %s "$btf61") bytes) opened per object"
"$out/core_bench" read 11 "$btf61" | sed 's/^/physical reference: /'
# Three ways, because the wall time of this work is mostly memory, not
# instructions.  libbpf's side reads the file into a buffer and btf__new
# copies it (two 5 MB buffers); relocore maps it and reads it in place.  In
# one process glibc gives the freed top of the heap back to the kernel once
# more than twice the mmap threshold is free: libbpf's two buffers cross
# that line and every start faults its 10 MB in anew.  With trimming off,
# libbpf's reused buffers fault nothing; in a process per object (as a
# tool's start really is) every side faults in all it touches, which the
# page-fault counts show.
echo "in one process:"
"$out/core_bench" both-tool "${ITER:-7}" "$btf61" "${tools[@]}" | sed 's/^/  /'
echo "in one process, glibc's heap trimming off (GLIBC_TUNABLES):"
GLIBC_TUNABLES=glibc.malloc.trim_threshold=4000000000:glibc.malloc.mmap_threshold=33554432 \
	"$out/core_bench" both-tool "${ITER:-7}" "$btf61" "${tools[@]}" | sed 's/^/  /'
echo "a process per object (fork; as a tool's start):"
"$out/core_bench" both-proc "${ITER_PROC:-3}" "$btf61" "${tools[@]}" | sed 's/^/  /'
# A tool's start on a real machine reads the running kernel's BTF: trusted
# (the kernel checked it at boot), so relocore does not check it again, and
# mapped where the kernel allows it (6.16 on; read into memory before).
# Reading it loads nothing into the kernel.
if [ -r /sys/kernel/btf/vmlinux ]; then
	echo "a process per object, target this machine's /sys/kernel/btf/vmlinux ($(uname -r), $(stat -c %s /sys/kernel/btf/vmlinux) bytes):"
	"$out/core_bench" both-proc "${ITER_PROC:-3}" /sys/kernel/btf/vmlinux "${tools[@]}" | sed 's/^/  /'
fi
for side in libbpf relocore; do
	valgrind --tool=callgrind --callgrind-out-file="$out/cgt.$side" \
		"$out/core_bench" "$side-tool" 1 "$btf61" "${tools[@]:0:8}" >/dev/null 2>"$out/cgt.$side.log"
	eval "irt_$side=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/cgt.$side.log")"
done
awk -v a="$irt_relocore" -v b="$irt_libbpf" 'BEGIN {
	printf "callgrind, 8 tool starts: libbpf %d, relocore %d instructions, ratio %.3f\n", b, a, a / b }'
