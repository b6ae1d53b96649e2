#!/usr/bin/env bash
# vm/matrix.sh [--demo] [NAME...] - the VM proof: one set of example objects,
# compiled ONCE on the host, runs on every kernel of vm/kernels.list booted
# in QEMU (TCG), RC_VM_JOBS (default 2) guests at a time.  For each kernel:
# fetch it, build its initramfs, boot it, collect the guest's results, judge
# them on the host (test/vm/check.py).  Prints `PASS: vm/<kernel>/<check>` /
# `FAIL: vm/<kernel>/<check>: why` lines, one table (a row per kernel), the
# wall time per kernel and in total; exits non-zero on any FAIL.
#   --demo     one line per step and kernel (its checks' lines only when
#              they fail; all of them in build/vm/<kernel>.matrix.log)
#   NAME...    only these kernels
# Results: build/vm/<kernel>/{console.log,results/,summary.json}
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

demo=0
names=()
for a in "$@"; do
	case "$a" in
	--demo) demo=1 ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	*) names+=("$a") ;;
	esac
done
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(vm_names)

t_all=$(date +%s)
# steps: run "$@"; in demo mode only its long steps' progress (downloads,
# kernel builds) reaches stderr, the rest goes to build/vm/prepare.log
steps() {
	if [ "$demo" = 1 ]; then
		"$@" 2> >(tee -a "$RC_BUILD/vm/prepare.log" | grep --line-buffered -E \
			'(downloading|fell back|building bzImage|  \.\.\. [0-9]+s|built in|ERROR|FAIL|failed|cannot|no package)' >&2)
	else
		"$@"
	fi
}
# RC_VM_TOOLS=truth|NAME,...: the guests run only this part of
# test/vm/tools.list (vm/lib.sh: vm_tools_only), judged and tabulated alone
only=$(vm_tools_only | paste -sd, -) || { echo "FAIL: vm/tools: RC_VM_TOOLS=${RC_VM_TOOLS:-}"; exit 1; }
examples="${RC_VM_EXAMPLES:-$RC_BUILD/examples}"
export RC_VM_EXAMPLES="$examples"
# each kernel's directory and BTF path, asked for once in this run
# (vm/lib.sh: vm_memo)
RC_VM_MEMO=$(mktemp -d)
export RC_VM_MEMO
trap 'rm -rf "$RC_VM_MEMO"' EXIT
out="$RC_BUILD/vm"
mkdir -p "$out"
for b in bin/relocore bin/relocore-static lib/relocore-pass.so; do
	[ -e "$RC_BUILD/$b" ] || { echo "FAIL: vm/build: no build/$b (make -C build)"; exit 1; }
done
compile=0
ls "$examples"/*.bpf.o >/dev/null 2>&1 || compile=1
if [ "$compile" = 1 ]; then
	echo "matrix: compiling the examples once: examples/build.sh $examples"
	bash "$RC_ROOT/examples/build.sh" "$examples" || { echo "FAIL: vm/examples: examples/build.sh failed"; exit 1; }
fi
# the plugin's BCC-style examples (plain C, natural dereferences), compiled
# once with build/lib/relocore-pass.so: with the others, or when the default
# build/examples predates them
if [ "$compile" = 1 ] || { [ "$examples" = "$RC_BUILD/examples" ] && [ ! -s "$examples/taskwatch.bpf.o" ]; }; then
	echo "matrix: compiling the plugin examples once: llvm-pass/examples/build.sh $examples"
	bash "$RC_ROOT/llvm-pass/examples/build.sh" "$examples" >"$out/plugin-build.log" 2>&1 ||
		{ tail -n 20 "$out/plugin-build.log"; echo "FAIL: vm/examples: llvm-pass/examples/build.sh failed"; exit 1; }
fi
# and taskwatch once more with clang-19 and the LLVM 19 plugin (the plugin
# on another LLVM, the same exact values in every guest)
if [ "$examples" = "$RC_BUILD/examples" ] && [ ! -s "$examples/taskwatch-clang19.bpf.o" ] &&
   [ -f "$RC_BUILD/lib/llvm-19/relocore-pass.so" ]; then
	echo "matrix: compiling taskwatch with clang-19: CLANG=clang-19 llvm-pass/examples/build.sh"
	t19=$(mktemp -d)
	CLANG=clang-19 bash "$RC_ROOT/llvm-pass/examples/build.sh" "$t19" "$RC_ROOT/llvm-pass/examples/taskwatch.c" \
		>>"$out/plugin-build.log" 2>&1 && mv "$t19/taskwatch.bpf.o" "$examples/taskwatch-clang19.bpf.o" ||
		{ tail -n 20 "$out/plugin-build.log"; echo "FAIL: vm/examples: taskwatch with clang-19 failed"; exit 1; }
	rm -rf "$t19"
fi
echo "matrix: objects $(cd "$examples" && ls *.bpf.o | tr '\n' ' ')(compiled once, sha $(vm_sha "$examples"/*.bpf.o))"
# the reader's idiom corpus, loaded both ways on the kernels of RC_VM_IDIOMS
# (vm/lib.sh): test/reader/run.sh builds it (make check's reader suite,
# before this one), or here once
if [ -n "$(for k in "${names[@]}"; do vm_idioms_on "$k" && echo "$k"; done)" ] &&
   ! ls "$RC_BUILD"/reader/objs/*.clang-19.o >/dev/null 2>&1; then
	echo "matrix: building the reader's idiom corpus: READER_BUILD_ONLY=1 test/reader/run.sh"
	READER_BUILD_ONLY=1 bash "$RC_ROOT/test/reader/run.sh" >"$out/idioms-build.log" 2>&1 ||
		echo "matrix: the idiom corpus did not build (see $out/idioms-build.log): the guests load none"
fi
# the objects of each architecture of the list (vm/arch-objs.sh): on arm64
# the same files, except those that read pt_regs or name x86_64's syscall
# wrappers, compiled once more for arm64
: >"$out/prepare.log"
declare -A objs
for a in $(vm_archs $(vm_names)); do
	objs[$a]=$(steps "$VM_DIR/arch-objs.sh" "$a") || { echo "FAIL: vm/examples: vm/arch-objs.sh $a failed"; exit 1; }
	[ "${objs[$a]}" = "$examples" ] && continue
	echo "matrix: $a objects: the same files as $(vm_host_arch): $(tr '\n' ' ' <"${objs[$a]}/SHARED")"
	echo "matrix: $a objects: compiled for $a: $(awk -F'\t' '{printf "%s (%s) ", $1, $2}' "${objs[$a]}/ARCH-SPECIFIC")"
done
echo "matrix: kernels ${names[*]}"

# the host's decisions for every kernel (offline `relocore explain`), for
# the objects of each architecture: the negative control compares them with
# the guest's own
hx="$out/host-explain"
mkdir -p "$hx"
[ "$demo" = 0 ] || echo "matrix: fetching the kernels, their BTF and the host's decisions (details: $out/prepare.log)"
# the kernels built here (KIND build: minutes of both cores each) start
# now, one after another, while the loop below downloads the others (the
# network's time, not the CPU's); the loop waits for each where it needs it
# (vm/kernel.sh: one lock per kernel)
builder=
blist=$(for k in $(vm_names); do read -r kind _ < <(vm_entry "$k") && [ "$kind" = build ] && echo "$k"; done)
if [ -n "$blist" ]; then
	( for k in $blist; do steps "$VM_DIR/kernel.sh" "$k" >/dev/null || true; done ) &
	builder=$!
fi
for a in "${!objs[@]}"; do
	mkdir -p "$hx/$a"
	for k in $(vm_names); do
		btf=$(steps vm_btf "$k") || { echo "FAIL: vm/$k/fetch: no BTF"; continue; }
		for o in "${objs[$a]}"/*.bpf.o; do
			e=$(basename "$o" .bpf.o)
			"$RC_BUILD/bin/relocore" explain "$o" --btf "$btf" --json >"$hx/$a/$e.$k.json" 2>/dev/null || true
		done
	done
done
# (a build that failed was tried once more above, and said why)
[ -z "$builder" ] || wait "$builder" 2>/dev/null || true

fails=0
summaries=()
times=()
jobs=${RC_VM_JOBS:-2}
declare -A imgs

# Per kernel, in order: fetch (or build) it and its initramfs in this shell,
# one at a time (they share caches), then boot and check it in the
# background, RC_VM_JOBS guests at a time (default 2: one per core; a TCG
# guest keeps about one host thread busy) - the next kernel is prepared
# while guests run.  Each kernel's lines are printed together when it ends.
boot_check() { # NAME: boot, check; output in $out/NAME.matrix.log
	local k=$1 d="$out/$1" img=${imgs[$1]} rc try b0 secs
	b0=$(date +%s)
	# a guest that hands back nothing (a TCG hang: soft lockups, stalled
	# timers under a loaded host) is booted once more; its console is kept
	rc=1
	for try in 1 2; do
		"$VM_DIR/boot.sh" "$k" "$d" "$img" | grep -v 'guest: |'
		rc=${PIPESTATUS[0]}
		[ "$rc" -ne 0 ] && [ "$try" = 1 ] || break
		cp "$d/console.log" "$out/$k.console.try1.log" 2>/dev/null
		echo "vm[$k]: no results from the guest (console kept: $out/$k.console.try1.log); booting once more"
	done
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: vm/$k/boot: no results from the guest (console: $d/console.log)"
		echo "{\"kernel\":\"$k\",\"status\":\"FAIL\",\"time\":\"$(($(date +%s) - b0))s\"}" >"$d/summary.json"
		echo "$k $(($(date +%s) - b0))s (boot failed)" >"$out/$k.matrix.time"
		return 1
	fi
	local a
	a=$(vm_arch "$k")
	local ni=0 np=0
	! vm_idioms_on "$k" || ni=$(ls "$RC_BUILD"/reader/objs/*.clang-19.o 2>/dev/null | wc -l)
	! vm_progtypes_on "$k" || np=1
	python3 "$RC_ROOT/test/vm/check.py" "$k" "$d/results" --objs "${objs[$a]}" --arch "$a" \
		--host-objs "$examples" --host-btf "$(vm_btf "$k")" --idioms "$ni" --progtypes "$np" \
		--host-explain "$hx/$a" --summary "$d/summary.json" >"$d/check.txt" 2>&1
	rc=$?
	# Debian's libbpf-tools, both ways (vm/tools.sh, test/vm/tools-guest.sh)
	if [ "${RC_VM_TOOLS:-1}" != 0 ]; then
		# and relocore check's offline predictions for the same tools
		# against what the guest did
		local tl kb nokbtf=
		tl=$(vm_memo tools "$a" "$VM_DIR/tools.sh" "$a" 2>/dev/null)
		read -r _ _ kb < <(vm_entry "$k")
		[ "$kb" = sysfs ] || nokbtf=--no-kernel-btf
		python3 "$RC_ROOT/test/vm/tools-check.py" "$k" "$d/results" \
			--summary "$d/tools-summary.json" --check "$RC_BUILD/bin/relocore" \
			--btf "$(vm_btf "$k")" --bins "${tl%.cpio.gz}.bin" $nokbtf \
			--objs "${objs[$a]}" ${only:+--only "$only"} \
			>>"$d/check.txt" 2>&1 || rc=1
	fi
	grep -v '^  note:' "$d/check.txt"
	secs=$(($(date +%s) - b0))
	echo "$k ${secs}s boot+check (guest $(cut -d. -f1 "$d/boot-seconds")s)" >"$out/$k.matrix.time"
	# the time goes into the summary; its status into the closing line
	python3 - "$d/summary.json" "${secs}s" "$k" "$rc" <<'PY'
import json, sys
p, t, k, rc = sys.argv[1:5]
try:
    d = json.load(open(p))
except Exception:
    d = {"status": "FAIL"}
d["time"] = t
if rc != "0":
    d["status"] = "FAIL"
json.dump(d, open(p, "w"))
print(f"== vm/{k}: {d.get('status', 'FAIL')} in {t}")
PY
	return $rc
}
finish() { # print the finished kernels' output, in the order they end
	local k
	for k in "${launched[@]}"; do
		[ -e "$out/$k.matrix.rc" ] && [ -z "${done_k[$k]:-}" ] || continue
		done_k[$k]=1
		if [ "$demo" = 1 ]; then
			grep -E '^(FAIL|== )' "$out/$k.matrix.log" || true
		else
			cat "$out/$k.matrix.log"
		fi
		[ "$(cat "$out/$k.matrix.rc")" = 0 ] || fails=$((fails + 1))
	done
}
launched=()
for k in "${names[@]}"; do
	rm -f "$out/$k/summary.json" "$out/$k/tools-summary.json" "$out/$k.matrix.rc" "$out/$k.matrix.log" "$out/$k.matrix.time"
	summaries+=("$out/$k/summary.json")
done
declare -A done_k
running=0
# the longest guests of the last run first (better packed lanes)
mapfile -t order < <(for k in "${names[@]}"; do
	echo "$(cut -d. -f1 "$out/$k/boot-seconds" 2>/dev/null || echo 999) $k"
done | sort -s -k1,1nr | awk '{print $2}')
for k in "${order[@]}"; do
	[ "$demo" = 1 ] || echo "== vm/$k: fetch, initramfs"
	if ! steps "$VM_DIR/kernel.sh" "$k" >/dev/null; then
		echo "FAIL: vm/$k/fetch: vm/kernel.sh $k failed"; fails=$((fails + 1)); continue
	fi
	if ! imgs[$k]=$(steps "$VM_DIR/initramfs.sh" "$k"); then
		echo "FAIL: vm/$k/initramfs: vm/initramfs.sh $k failed"; fails=$((fails + 1)); continue
	fi
	[ "$demo" = 1 ] || echo "== vm/$k: boot, check (${jobs} at a time)"
	mkdir -p "$out/$k"
	launched+=("$k")
	( boot_check "$k" >"$out/$k.matrix.log" 2>&1; echo $? >"$out/$k.matrix.rc" ) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
		finish
	fi
done
wait
finish
for k in "${names[@]}"; do
	[ -s "$out/$k.matrix.time" ] && times+=("$(cat "$out/$k.matrix.time")")
done

echo
echo "== VM matrix: the same objects ($(cd "$examples" && ls *.bpf.o | wc -l) compiled once on the host) on ${#names[@]} kernels"
for a in "${!objs[@]}"; do
	[ "${objs[$a]}" = "$examples" ] ||
		echo "   ($a: $(wc -l <"${objs[$a]}/SHARED") of them the same files, $(wc -l <"${objs[$a]}/ARCH-SPECIFIC") compiled for $a: $(cut -f1 "${objs[$a]}/ARCH-SPECIFIC" | tr '\n' ' '| sed 's/ $//'))"
done
python3 "$RC_ROOT/test/vm/check.py" --table "${summaries[@]}" --full-table "$out/matrix-table.txt"
if [ "${RC_VM_TOOLS:-1}" != 0 ]; then
	echo
	echo "== Debian's libbpf-tools on ${#names[@]} kernels: each tool's object relocated by relocore (relocore run), and the Debian binary itself (its own libbpf), in the same guest"
	[ -z "$only" ] || echo "   (only $(tr ',' ' ' <<<"$only" | wc -w) of the $(grep -cv '^[[:space:]]*\(#\|$\)' "$RC_ROOT/test/vm/tools.list") tools: RC_VM_TOOLS=${RC_VM_TOOLS}; every tool: RC_VM_TOOLS=1, make check's vm suite, make demo-full)"
	python3 "$RC_ROOT/test/vm/tools-check.py" ${only:+--only "$only"} --table $(for k in "${names[@]}"; do echo "$out/$k/tools-summary.json"; done) \
		--out "$out/tools-table.txt"
fi
echo
for t in "${times[@]}"; do echo "time: $t"; done
echo "time: total $(($(date +%s) - t_all))s"
if [ "$fails" -ne 0 ]; then
	echo "matrix: FAIL ($fails kernel(s) with failures)"
	exit 1
fi
echo "matrix: PASS"
