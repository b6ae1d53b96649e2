#!/usr/bin/env bash
# bench/probe.sh OUT.o PROGRAMS READS [SEED] - build a large CO-RE probe.
#
# The source is written by bench/probe-gen.py (PROGRAMS kprobe programs of
# READS reads of real kernel types each, about 1.9 relocations a read,
# deterministic) from the types of Debian's 6.1 cloud kernel, and compiled
# as the examples are (examples/build.sh: clang -target bpf -O2 -g against
# that kernel's vmlinux.h).  Compiling one of 20,000 relocations takes
# clang 14 about 90 s, so the object is cached in $RC_CACHE/probe/<key>,
# keyed by the generator, the kernel's BTF, the compiler and the counts.
# RC_EXAMPLES_BTF and CLANG as for examples/build.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"
[ $# -ge 3 ] || { echo "usage: $0 OUT.o PROGRAMS READS [SEED]" >&2; exit 2; }
out=$1 progs=$2 reads=$3 seed=${4:-1}
need bpftool bpftool
need python3 python3

btf=${RC_EXAMPLES_BTF:-$("$RC_ROOT/vm/kernel-btf.sh" cloud-6.1)}
[ -s "$btf" ] || { echo "probe: no BTF at '$btf'" >&2; exit 1; }
key=$( { sha256sum "$here/probe-gen.py" "$btf" | cut -c1-64; "${CLANG:-clang}" --version | head -1
	 echo "$progs $reads $seed"; } | sha256sum | cut -c1-16)
dir="$RC_CACHE/probe/$key"
name="probe-${progs}x${reads}-s${seed}"
if [ ! -s "$dir/$name.bpf.o" ]; then
	start=$(date +%s)
	echo "probe: generating $name ($progs programs x $reads reads) into $dir" >&2
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	bpftool btf dump file "$btf" >"$dir.tmp/types.txt"
	python3 "$here/probe-gen.py" "$dir.tmp/types.txt" "$progs" "$reads" "$seed" >"$dir.tmp/$name.bpf.c"
	rm "$dir.tmp/types.txt"
	echo "probe: compiling $name ($(tail -n1 "$dir.tmp/$name.bpf.c" | sed 's|^// ||'); clang 14 takes about 90 s for 20,000)" >&2
	RC_EXAMPLES_BTF=$btf "$RC_ROOT/examples/build.sh" "$dir.tmp" "$dir.tmp/$name.bpf.c" >&2
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	rc_time build "probe $name" "$start" "compiled"
fi
mkdir -p "$(dirname "$out")"
cp "$dir/$name.bpf.o" "$out"
