#!/usr/bin/env bash
# bench/btfgen.sh - relocore btfgen vs bpftool gen min_core_btf, side by
# side in one run, on the example objects and the full BTF of each Debian
# kernel: wall time (best of N) and output size; and the archive of all
# kernels' full BTF against the sum of per-kernel xz files (the BTFHub way).
# Page faults of each side beside the instructions: on a machine where a
# fault is dear they, not instructions, decide the wall time.
# Prints numbers, asserts nothing.
set -euo pipefail
source "$(dirname "$0")/../scripts/cache.sh"
need bpftool bpftool
cd "$RC_ROOT"
out=build/bench/btfgen
mkdir -p "$out"
bash examples/build.sh "$out/ex" >/dev/null
objs=("$out"/ex/*.bpf.o)
N=${N:-7}
# Best wall time in ms of N runs of the command, spawned directly
# (posix_spawn, output to /dev/null) and timed around the spawn and the
# wait only: a `date` before and after in the shell would add two forks of
# the shell (a few ms here) to every measurement.
best() {
	python3 -c 'import os, sys, time
null = os.open(os.devnull, os.O_WRONLY)
best = None
for _ in range(int(sys.argv[1])):
	t = time.perf_counter()
	pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ, file_actions=[
		(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
	_, st = os.waitpid(pid, 0)
	d = (time.perf_counter() - t) * 1e3
	if os.waitstatus_to_exitcode(st):
		sys.exit("bench: " + " ".join(sys.argv[2:]) + " failed")
	best = d if best is None else min(best, d)
print("%.1f" % best)' "$N" "$@"
}
printf '%-12s %10s %10s %7s %10s %10s %7s\n' kernel relocore bpftool speedup rc-bytes bt-bytes size
args=()
sum=0
for k in cloud-6.1 cloud-6.12 rt-6.12; do
	full=$(vm/kernel-btf.sh "$k")
	tr=$(best build/bin/relocore btfgen --btf "$full" -o "$out/$k.rc.btf" "${objs[@]}")
	tb=$(best bpftool gen min_core_btf "$full" "$out/$k.bt.btf" "${objs[@]}")
	sr=$(stat -c %s "$out/$k.rc.btf"); sb=$(stat -c %s "$out/$k.bt.btf")
	awk -v k="$k" -v tr="$tr" -v tb="$tb" -v sr="$sr" -v sb="$sb" 'BEGIN {
		printf "%-12s %8.1fms %8.1fms %6.1fx %10d %10d %6.2fx\n", k, tr, tb, tb / (tr ? tr : 1), sr, sb, sr / sb }'
	rel=$(cat "$(vm/kernel.sh "$k")/release")
	args+=("$rel=$full")
	sum=$((sum + $(xz -9 -c "$full" | wc -c)))
done
build/bin/relocore archive create -o "$out/full.rcba" "${args[@]}" 2>/dev/null
a=$(stat -c %s "$out/full.rcba")
echo "archive of ${#args[@]} kernels' full BTF: $a bytes; per-kernel xz -9 files: $sum bytes; ratio $(awk -v a=$a -v s=$sum 'BEGIN{printf "%.2f", a/s}')"
build/bin/relocore archive create -o "$out/min.rcba" $(printf -- '--min %s ' "${objs[@]}") "${args[@]}" 2>/dev/null
echo "archive of the same kernels minimized for the examples: $(stat -c %s "$out/min.rcba") bytes"

# --- instructions (callgrind, repeatable): one small object, then the whole
# libbpf-tools corpus at once, against rt-6.12; and sizes object by object
need valgrind valgrind
rt=$(vm/kernel-btf.sh rt-6.12)
root=$(bash test/crosscheck/libbpf-tools.sh bookworm)
rm -rf "$out/tools"
mkdir -p "$out/tools"
for f in "$root"/root/usr/sbin/*; do
	[ -f "$f" ] && build/bin/relocore extract "$f" -o "$out/tools" >/dev/null 2>&1 || true
done
tools=("$out"/tools/*.o)
cg() {	# instructions of the command
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
faults() {	# page faults of the command's process (posix_spawn: no copy of python's)
	python3 -c 'import os, sys
null = os.open(os.devnull, os.O_WRONLY)
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=[
	(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
_, st, ru = os.wait4(pid, 0)
sys.exit(f"{sys.argv[1]} failed") if os.waitstatus_to_exitcode(st) else print(ru.ru_minflt + ru.ru_majflt)' "$@"
}
small="$out/ex/execsnoop.bpf.o"
for what in small corpus; do
	if [ "$what" = small ]; then set -- "$small"; else set -- "${tools[@]}"; fi
	a=$(cg build/bin/relocore btfgen --btf "$rt" -o "$out/cg.rc.btf" "$@")
	b=$(cg bpftool gen min_core_btf "$rt" "$out/cg.bt.btf" "$@")
	awk -v w="$what" -v n=$# -v a="$a" -v b="$b" 'BEGIN {
		printf "instructions, %s (%d objects), rt-6.12: relocore %d, bpftool %d, ratio %.3f\n", w, n, a, b, a / b }'
	a=$(faults build/bin/relocore btfgen --btf "$rt" -o "$out/cg.rc.btf" "$@")
	b=$(faults bpftool gen min_core_btf "$rt" "$out/cg.bt.btf" "$@")
	echo "page faults, $what: relocore $a, bpftool $b (each maps or copies the 5 MB target: see bench/run.sh)"
	a=$(best build/bin/relocore btfgen --btf "$rt" -o "$out/cg.rc.btf" "$@")
	b=$(best bpftool gen min_core_btf "$rt" "$out/cg.bt.btf" "$@")
	awk -v w="$what" -v a="$a" -v b="$b" 'BEGIN {
		printf "wall time, %s, best of '"$N"': relocore %.1f ms, bpftool %.1f ms, ratio %.3f\n", w, a, b, a / (b ? b : 1) }'
done
cc -O2 -Iloader -Icli -Itest/crosscheck -o "$out/core_bench" bench/core_bench.c \
	test/crosscheck/libbpf_oracle.c cli/heap.c build/lib/librelocore.a \
	/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz
"$out/core_bench" read 11 "$rt" | sed 's/^/physical reference: /'
# sizes: every object alone, and the corpus at once, on each kernel
for k in cloud-6.1 cloud-6.12 rt-6.12; do
	full=$(vm/kernel-btf.sh "$k")
	larger=0 sum_rc=0 sum_bt=0 n=0
	for o in "${tools[@]}" "${objs[@]}"; do
		build/bin/relocore btfgen --btf "$full" -o "$out/one.rc.btf" "$o" >/dev/null 2>&1 || continue
		bpftool gen min_core_btf "$full" "$out/one.bt.btf" "$o" >/dev/null 2>&1 || continue
		a=$(stat -c %s "$out/one.rc.btf") b=$(stat -c %s "$out/one.bt.btf")
		n=$((n + 1)) sum_rc=$((sum_rc + a)) sum_bt=$((sum_bt + b))
		if [ "$a" -gt "$b" ]; then
			larger=$((larger + 1))
			echo "larger than bpftool's ($k): $(basename "$o"): $a > $b"
		fi
	done
	build/bin/relocore btfgen --btf "$full" -o "$out/all.rc.btf" "${tools[@]}" >/dev/null 2>&1
	bpftool gen min_core_btf "$full" "$out/all.bt.btf" "${tools[@]}" >/dev/null 2>&1
	echo "sizes ($k): $n objects one by one, relocore's larger than bpftool's: $larger (sum $sum_rc vs $sum_bt bytes);" \
		"the ${#tools[@]} libbpf-tools objects at once: $(stat -c %s "$out/all.rc.btf") vs $(stat -c %s "$out/all.bt.btf") bytes"
done
