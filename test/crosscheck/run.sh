#!/usr/bin/env bash
# test/crosscheck/run.sh - compare relocore's CO-RE decisions with libbpf's.
#
# For every example object (examples/*.bpf.c and the corner cases in
# test/crosscheck/edge/*.bpf.c, built once on the host by examples/build.sh;
# edge-gcc/*.bpf.c built by GCC: bpf-gcc -O2 -gbtf -mco-re; edge-clang19/
# by clang-19: TYPE_MATCHES, which clang 14 cannot emit)
# and the BTF of each kernel of the VM matrix (vm/kernels.list: Debian's
# 5.10, 6.1, 6.12, 7.2, cloud and rt, and our patched 6.1 builds, the
# BTF-less one through its pahole BTF; from vm/kernel-btf.sh), two kernels
# at a time:
#   relocore:  build/bin/relocore explain OBJ --btf BTF --json
#   libbpf:    build/crosscheck/libbpf_oracle (libbpf_oracle.c, and its
#              command libbpf_oracle_main.c), which calls
#              libbpf 1.1's own bpf_core_calc_relo_insn()/bpf_core_patch_insn()
#              from Debian's static libbpf.a; see the comment at its top for
#              why this was preferred over parsing `bpftool -d` output.
# and relocore's relocated object (`relocore reloc`) against the
# instructions libbpf patches; and, as a check of the oracle itself, that the oracle's libbpf debug lines
# (candidates, matched target specs) are the lines `bpftool -d gen
# min_core_btf` prints for the same object and BTF.
#
# The real corpus too: every BPF object embedded in the tools of Debian's
# libbpf-tools package, bookworm's and sid's (libbpf-tools.sh fetches them at
# test time, cached by version; `relocore extract` writes the objects out
# under version-qualified names, libbpf-tools-<version>-<name>.o).  An
# object with no .BTF.ext or no CO-RE records in it is "nothing to
# relocate" when libbpf agrees: a PASS with that note.
#
# Output: `PASS: crosscheck/<obj>/<kernel>` or one `FAIL: crosscheck/<obj>/
# <kernel>: <relocation and both values>` line per mismatch, then
# `crosscheck: N relocations compared, M mismatches`.  Exit status is
# non-zero on any mismatch, on an oracle/bpftool disagreement, or when
# nothing was compared.
#
# Environment: RELOCORE (default build/bin/relocore), CROSSCHECK_KERNELS
# (default: the Debian kernels of vm/kernels.list), CROSSCHECK_JOBS (kernels
# checked at once, default 2), CROSSCHECK_OBJS (object files to
# use instead of building examples/), CROSSCHECK_CORPUS (default "bookworm
# sid"; "none" or "" for no libbpf-tools), CROSSCHECK_NO_BPFTOOL=1 skips the
# oracle-vs-bpftool check.  Per-run files are kept in build/crosscheck/out/.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"
need bpftool bpftool
need /usr/lib/x86_64-linux-gnu/libbpf.a libbpf-dev
need bpf-gcc gcc-bpf
need clang-19 clang-19

RELOCORE=${RELOCORE:-$RC_BUILD/bin/relocore}
# default: every kernel of the VM matrix: Debian's (5.10, 6.1, 6.12, 7.2,
# cloud and rt, amd64 and arm64) and ours (kernel/: built with BTF, and the
# BTF-less one through the BTF pahole makes from its DWARF: vm/kernel-btf.sh)
KERNELS=${CROSSCHECK_KERNELS:-$(awk '!/^[[:space:]]*(#|$)/ {print $1}' "$RC_ROOT/vm/kernels.list" | tr '\n' ' ')}
CORPUS=${CROSSCHECK_CORPUS-bookworm sid}
work="$RC_BUILD/crosscheck"
oracle="$work/libbpf_oracle"
mkdir -p "$work"

log() { echo "crosscheck: $*" >&2; }

# --- the oracle -----------------------------------------------------------
if [ ! -x "$oracle" ] || [ -n "$(find "$here"/libbpf_oracle*.[ch] "$here/libbpf_core.h" \
		-newer "$oracle" -print -quit)" ]; then
	log "building $oracle"
	${CC:-cc} -O2 -g -Wall -Wextra -o "$oracle" "$here/libbpf_oracle.c" "$here/libbpf_oracle_main.c" \
		/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz || { echo "FAIL: crosscheck: cannot build libbpf_oracle"; exit 1; }
fi

# --- the objects ------------------------------------------------------------
if [ -n "${CROSSCHECK_OBJS:-}" ]; then
	read -r -a objs <<<"$CROSSCHECK_OBJS"
else
	# the examples, and the corner cases of edge/ (same compiler, flags
	# and vmlinux.h)
	rm -rf "$work/examples"
	"$RC_ROOT/examples/build.sh" "$work/examples" "$RC_ROOT"/examples/*.bpf.c "$here"/edge/*.bpf.c >&2 ||
		{ echo "FAIL: crosscheck: examples/build.sh failed"; exit 1; }
	# and GCC's CO-RE (edge-gcc/: bpf-gcc -O2 -gbtf -mco-re)
	for src in "$here"/edge-gcc/*.bpf.c; do
		bpf-gcc -O2 -gbtf -mco-re -c "$src" -o "$work/examples/$(basename "$src" .c).o" ||
			{ echo "FAIL: crosscheck: bpf-gcc $src failed"; exit 1; }
	done
	# GCC 12's wrong record (edge-gcc/gcc_nested.bpf.c): refused, and the
	# message names object, section, instruction, access and what the
	# instruction holds (against the object's own BTF: no kernel needed)
	gn="$work/examples/gcc_nested.bpf.o"
	want="gcc_nested.bpf.o: 1 relocation(s) refused, nothing applied; first: section kprobe/gcc_nested insn #1 byte_off mm_struct.total_vm: insn #1 has imm64 8, relocation expects 16"
	rm -f "$work/gcc_nested.rel.o"
	if "$RELOCORE" reloc "$gn" --btf "$gn" -o "$work/gcc_nested.rel.o" >"$work/gcc_nested.log" 2>&1; then
		echo "FAIL: crosscheck/gcc-wrong-record: the misplaced record of GCC $(bpf-gcc -dumpversion) was relocated"
	elif [ -e "$work/gcc_nested.rel.o" ]; then
		echo "FAIL: crosscheck/gcc-wrong-record: refused, but an output was written"
	elif grep -qF "$want" "$work/gcc_nested.log"; then
		echo "PASS: crosscheck/gcc-wrong-record (refused: ${want#*first: })"
	else
		echo "FAIL: crosscheck/gcc-wrong-record: unexpected message: $(head -c 300 "$work/gcc_nested.log")"
	fi
	# and what only newer clang emits (edge-clang19/: TYPE_MATCHES,
	# bpf_core_type_matches, which clang 14 cannot compile)
	for src in "$here"/edge-clang19/*.bpf.c; do
		clang-19 -target bpf -O2 -g -c "$src" -o "$work/examples/$(basename "$src" .c).o" ||
			{ echo "FAIL: crosscheck: clang-19 $src failed"; exit 1; }
	done
	# and a probe at a security agent's scale: 190 programs, about 21,500
	# relocations over 300 kernel types (bench/probe.sh, cached: clang 14
	# compiles it in about 90 s)
	"$RC_ROOT/bench/probe.sh" "$work/examples/probe.bpf.o" 190 110 >&2 ||
		{ echo "FAIL: crosscheck: bench/probe.sh failed"; exit 1; }
	objs=("$work"/examples/*.bpf.o)
fi
if [ ${#objs[@]} -eq 0 ] || [ ! -e "${objs[0]}" ]; then
	echo "FAIL: crosscheck: no objects"
	exit 1
fi

if [ ! -x "$RELOCORE" ]; then
	echo "FAIL: crosscheck: $RELOCORE is missing (build relocore first)"
	echo "crosscheck: 0 relocations compared, 0 mismatches"
	exit 1
fi

# --- the real corpus: Debian's libbpf-tools ---------------------------------
# Every tool of each suite's package (libbpf-tools.sh: apt-get download,
# dpkg -x, cached by version) is a libbpf skeleton whose BPF object is
# embedded in the binary: `relocore extract` writes it out, under a
# version-qualified name (the same tool of two versions must not collide).
harness_bad=0
corpus_objs=0
for suite in $CORPUS; do
	[ "$suite" = none ] && continue
	dir=$("$here/libbpf-tools.sh" "$suite") ||
		{ echo "FAIL: crosscheck/libbpf-tools/$suite: cannot fetch the package (test/crosscheck/libbpf-tools.sh $suite)"; harness_bad=1; continue; }
	version=$(cat "$dir/version")
	qual="libbpf-tools-$version"
	cdir="$work/corpus/$qual"
	rm -rf "$cdir"
	mkdir -p "$cdir/objs"
	nbin=0 nobj=0
	for bin in "$dir"/root/usr/sbin/*; do
		# symlinks are other names of the same tool
		[ -f "$bin" ] && [ ! -L "$bin" ] || continue
		tool=${bin##*/}
		nbin=$((nbin + 1))
		if ! "$RELOCORE" extract "$bin" -o "$cdir/x/$tool" >"$cdir/x.log" 2>&1; then
			echo "FAIL: crosscheck/extract/$qual/$tool: relocore extract: $(head -c 300 "$cdir/x.log")"
			harness_bad=1
			continue
		fi
		for o in "$cdir/x/$tool"/*.o; do
			oname=$(basename "$o" .o)
			dest="$cdir/objs/$qual-$oname.o"
			# two tools that embed objects of one name: qualify by tool
			[ -e "$dest" ] && dest="$cdir/objs/$qual-$tool-$oname.o"
			mv "$o" "$dest"
			objs+=("$dest")
			nobj=$((nobj + 1))
		done
	done
	if [ "$nbin" = 0 ] || [ "$nobj" -lt "$nbin" ]; then
		echo "FAIL: crosscheck/extract/$qual: $nbin tools, $nobj embedded objects extracted"
		harness_bad=1
	else
		echo "PASS: crosscheck/extract/$qual ($nbin tools, $nobj objects)"
	fi
	log "corpus: $qual: $nobj objects from $nbin tools ($dir)"
	corpus_objs=$((corpus_objs + nobj))
done

# check_kernel KERNEL: every object against KERNEL's BTF; PASS/FAIL lines on
# stdout, then one line "COUNTS: relocations mismatches nothing pairs bad"
check_kernel() {
	local kernel=$1 btf total=0 mism=0 nothing=0 pairs=0 harness_bad=0
	local obj name tag out rrc orc why brc n same wrc line c m relocated
	btf=$("$RC_ROOT/vm/kernel-btf.sh" "$kernel") || {
		echo "FAIL: crosscheck/*/$kernel: no BTF (vm/kernel-btf.sh $kernel)"
		echo "COUNTS: 0 0 0 0 1"
		return
	}
	log "$kernel: ${#objs[@]} objects against $btf"
	for obj in "${objs[@]}"; do
		name=$(basename "$obj" .o)
		name=${name%.bpf}
		tag="crosscheck/$name/$kernel"
		out="$work/out/$name/$kernel"
		mkdir -p "$out"
		pairs=$((pairs + 1))
		if [ $((pairs % 40)) = 0 ]; then
			log "progress: $kernel: $pairs/${#objs[@]} objects, $total relocations compared, $mism mismatches"
		fi

		# Nothing to relocate (no .BTF.ext, or no CO-RE records in it):
		# both engines must say so; that is a pass, noted, not a failure.
		timeout 300 "$RELOCORE" explain "$obj" --btf "$btf" --json \
			>"$out/relocore.json" 2>"$out/relocore.err"
		rrc=$?
		if [ "$rrc" = 0 ] && grep -q '"relocations":\[\]' "$out/relocore.json"; then
			"$oracle" dump "$obj" "$btf" >"$out/libbpf.json" 2>"$out/libbpf.err"
			orc=$?
			if { [ "$orc" != 0 ] && grep -q 'no .BTF.ext section' "$out/libbpf.err"; } ||
			   { [ "$orc" = 0 ] && grep -q '"relocations":\[' "$out/libbpf.json" &&
			     ! grep -q '"section":' "$out/libbpf.json"; }; then
				why="no CO-RE relocations"
				[ "$orc" != 0 ] && why="no .BTF.ext"
				echo "PASS: $tag (nothing to relocate: $why)"
				nothing=$((nothing + 1))
			else
				echo "FAIL: $tag: relocore finds no CO-RE relocation, libbpf does (or failed: $(head -c 200 "$out/libbpf.err"))"
				mism=$((mism + 1))
			fi
			continue
		fi

		# The oracle must say what bpftool (libbpf's own driver) says.
		if [ "${CROSSCHECK_NO_BPFTOOL:-0}" != 1 ]; then
			"$oracle" trace "$obj" "$btf" >"$out/oracle.trace" 2>&1
			timeout 300 bpftool -d gen min_core_btf "$btf" "$out/min.btf" "$obj" \
				>"$out/bpftool.trace" 2>&1
			brc=$?
			grep -E "relo #[0-9]+: |CO-RE relocating" "$out/oracle.trace" |
				grep -vE "relo #[0-9]+: (patched|substituting|unexpected insn|insn #|trying to relocate)" |
				sed 's/^libbpf: //' >"$out/oracle.lines"
			grep -E "relo #[0-9]+: |CO-RE relocating" "$out/bpftool.trace" |
				sed 's/^libbpf: //' >"$out/bpftool.lines"
			# bpftool stops at the first failing relocation: compare its
			# lines with the same-length prefix of the oracle's.
			n=$(wc -l <"$out/bpftool.lines")
			if [ "$brc" = 0 ]; then
				cmp -s "$out/oracle.lines" "$out/bpftool.lines"
			else
				head -n "$n" "$out/oracle.lines" | cmp -s - "$out/bpftool.lines"
			fi
			same=$?
			if [ "$same" != 0 ] || [ "$n" = 0 ]; then
				echo "FAIL: oracle-vs-bpftool/$name/$kernel: libbpf_oracle and bpftool -d disagree (see $out/{oracle,bpftool}.lines)"
				harness_bad=1
			fi
		fi

		"$oracle" dump "$obj" "$btf" >"$out/libbpf.json" 2>"$out/libbpf.err" ||
			{ echo "FAIL: $tag: libbpf_oracle failed: $(head -c 300 "$out/libbpf.err")"; harness_bad=1; continue; }

		if [ ! -s "$out/relocore.json" ]; then
			echo "FAIL: $tag: relocore explain exited $rrc with no JSON: $(head -c 300 "$out/relocore.err")"
			mism=$((mism + 1))
			continue
		fi

		# The instructions too: `relocore reloc` must write what libbpf
		# patches; it refuses the whole object when any relocation
		# fails, which is right exactly when libbpf has an error too.
		relocated=()
		rm -f "$out/relocated.o"
		timeout 300 "$RELOCORE" reloc "$obj" --btf "$btf" -o "$out/relocated.o" \
			>"$out/reloc.log" 2>&1
		wrc=$?
		if grep -q '"result":"error"' "$out/libbpf.json"; then
			if [ "$wrc" = 0 ]; then
				echo "FAIL: $tag: relocore reloc succeeded, but libbpf refuses a relocation of this object"
				mism=$((mism + 1))
			fi
		elif [ "$wrc" != 0 ] || [ ! -s "$out/relocated.o" ]; then
			echo "FAIL: $tag: relocore reloc exited $wrc: $(head -c 300 "$out/reloc.log")"
			mism=$((mism + 1))
		else
			relocated=("$out/relocated.o")
		fi

		"$oracle" compare "$obj" "$btf" "$out/relocore.json" "$tag" "${relocated[@]}" >"$out/compare.txt" 2>&1
		grep -E '^(PASS|FAIL): ' "$out/compare.txt"
		line=$(grep -E '^compared [0-9]+ mismatches [0-9]+$' "$out/compare.txt" | tail -n1)
		if [ -z "$line" ]; then
			echo "FAIL: $tag: comparer crashed: $(tail -c 300 "$out/compare.txt")"
			mism=$((mism + 1))
			continue
		fi
		read -r _ c _ m <<<"$line"
		total=$((total + c))
		mism=$((mism + m))
		if [ "$rrc" != 0 ] && [ "$m" = 0 ]; then
			log "note: relocore explain exited $rrc for $tag (decisions agree)"
		fi
	done
	echo "COUNTS: $total $mism $nothing $pairs $harness_bad"
}

# the kernels, CROSSCHECK_JOBS (default 2) at a time; results in kernel order
jobs_max=${CROSSCHECK_JOBS:-2}
rm -f "$work"/kernel-*.out
running=0
for kernel in $KERNELS; do
	check_kernel "$kernel" >"$work/kernel-$kernel.out" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
total=0 mism=0 nothing=0 pairs=0
for kernel in $KERNELS; do
	f="$work/kernel-$kernel.out"
	grep -v '^COUNTS: ' "$f"
	line=$(grep '^COUNTS: ' "$f" | tail -n1)
	if [ -z "$line" ]; then
		echo "FAIL: crosscheck/*/$kernel: the kernel's run ended without counts: $(tail -c 300 "$f")"
		harness_bad=1
		continue
	fi
	read -r _ c m n p b <<<"$line"
	total=$((total + c)) mism=$((mism + m)) nothing=$((nothing + n)) pairs=$((pairs + p))
	[ "$b" = 0 ] || harness_bad=1
done

echo "crosscheck: ${#objs[@]} objects ($corpus_objs from libbpf-tools: $CORPUS), $pairs object x kernel pairs ($nothing with nothing to relocate)"
echo "crosscheck: $total relocations compared, $mism mismatches"
# the comparer itself: edited decisions must each be reported (it can fail)
bash "$here/comparer-test.sh"
crc=$?
[ "$total" -gt 0 ] && [ "$mism" = 0 ] && [ "$harness_bad" = 0 ] && [ "$crc" = 0 ]
