#!/usr/bin/env bash
# test/reader/run.sh - the object reader against libbpf's open (issue 33).
#
# The idiom corpus (idioms/*.bpf.c: one file per idiom libbpf documents and
# opens - ksyms, kfuncs, .kconfig, global data, strings, maps of every
# kind, map-in-map, tail calls, subprograms, callbacks, freplace
# placeholders, BTF tags, struct_ops, program types, legacy sections, CO-RE
# kinds) is built here by clang 14, 16, 19 and bpf-gcc (where they compile
# it), plus derived objects: linked (bpftool gen object of two units),
# nobtf (no -g), noext (.BTF.ext removed).  Each object is then opened
# by libbpf (libbpf_open.c, the system's libbpf 1.1, and Debian trixie's
# 1.5 as a second reference: newlibbpf.sh) and read by relocore
# (`relocore check --json` against Debian's 6.1 and 6.12 cloud kernels);
# differ.py compares:
#   - acceptance: libbpf opens it iff relocore reads it with no 'open'
#     problem; where libbpf refuses, relocore names the same reason;
#   - where both accept: the programs (name, section); the CO-RE decisions
#     (build/crosscheck/libbpf_oracle compare, libbpf's own engine) on
#     each kernel; the object `relocore reloc` writes opens in libbpf with
#     the same programs and maps as the input.
# Disagreements explained by a libbpf version are listed in expected.tsv;
# any other, or a listed one that no longer happens, fails.  Then
# objfuzz.py mutates the corpus (BTF, symbols, sections, ELF relocations,
# .BTF.ext; seed 1, 1500 mutants) and compares acceptance the same way;
# objfuzz.expected explains the disagreements that remain.
# Prints PASS:/FAIL: reader/<object>/<what> and the table of idioms x
# compilers.  READER_KERNELS="cloud-6.1 cloud-6.12" overrides the kernels;
# READER_BUILD_ONLY=1 builds the corpus and stops (vm/matrix.sh loads the
# clang-19 objects in guests: stock libbpf against relocore run).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/need.sh
source "$root/scripts/need.sh"
need clang clang
need clang-16 clang-16
need clang-19 clang-19
need bpf-gcc gcc-bpf
need bpftool bpftool
need llvm-objcopy llvm
need /usr/include/bpf/libbpf.h libbpf-dev
work="$root/build/reader"
relocore="$root/build/bin/relocore"
[ -x "$relocore" ] || { echo "FAIL: reader: build first (make)"; exit 1; }
mkdir -p "$work/objs"

# libbpf's side: libbpf_open (open only) and libbpf_oracle (CO-RE engine),
# rebuilt when their sources change
opener="$work/libbpf_open"
if [ ! -x "$opener" ] || [ "$here/libbpf_open.c" -nt "$opener" ]; then
	${CC:-cc} -O2 -g -Wall -Wextra -o "$opener" "$here/libbpf_open.c" -lbpf ||
		{ echo "FAIL: reader: cannot build libbpf_open"; exit 1; }
fi
cc_dir="$root/test/crosscheck"
oracle="$root/build/crosscheck/libbpf_oracle"
if [ ! -x "$oracle" ] || [ -n "$(find "$cc_dir"/libbpf_oracle*.[ch] "$cc_dir/libbpf_core.h" -newer "$oracle" 2>/dev/null)" ]; then
	mkdir -p "$(dirname "$oracle")"
	${CC:-cc} -O2 -g -Wall -Wextra -o "$oracle" "$cc_dir/libbpf_oracle.c" "$cc_dir/libbpf_oracle_main.c" \
		/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz || { echo "FAIL: reader: cannot build libbpf_oracle"; exit 1; }
fi
echo "reader: $("$opener" --version) (the system's)"

# the corpus, rebuilt when a source, the header or a compiler changes
asm=-I/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
stamp="$(cat "$here"/idioms/* "$0" | sha256sum | cut -c1-16)-$(clang --version | head -1 | md5sum | cut -c1-8)"
if [ "$(cat "$work/objs/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$work/objs" && mkdir -p "$work/objs"
	: >"$work/objs/compile.tsv"
	for src in "$here"/idioms/*.bpf.c; do
		n=$(basename "$src" .bpf.c)
		for cc in clang-14 clang-16 clang-19 gcc; do
			case $cc in
			clang-14) cmd=(clang -target bpf -O2 -g) ;;
			gcc) cmd=(bpf-gcc -O2 -gbtf -mco-re -I/usr/include) ;;
			*) cmd=("$cc" -target bpf -O2 -g) ;;
			esac
			cmd+=(-Werror=implicit-function-declaration "$asm" -I"$here/idioms")
			if "${cmd[@]}" -c "$src" -o "$work/objs/$n.$cc.o" 2>"$work/objs/$n.$cc.err"; then
				printf '%s\t%s\tbuilt\n' "$n" "$cc" >>"$work/objs/compile.tsv"
			else
				rm -f "$work/objs/$n.$cc.o"
				printf '%s\t%s\t%s\n' "$n" "$cc" "$(grep -m1 -E 'error' "$work/objs/$n.$cc.err" | sed 's/.*error: //' | cut -c1-90)" >>"$work/objs/compile.tsv"
			fi
			# derived idioms, from this compiler's build of a source
			case $n in
			globals)	# linked: two units by bpftool's static linker
				if [ -f "$work/objs/$n.$cc.o" ] &&
				   "${cmd[@]}" -DIDIOM_NO_LICENSE -c "$here/idioms/subprogs.bpf.c" -o "$work/objs/unit2.$cc.tmp" 2>/dev/null &&
				   bpftool gen object "$work/objs/linked.$cc.o" "$work/objs/$n.$cc.o" "$work/objs/unit2.$cc.tmp" 2>"$work/objs/linked.$cc.err"; then
					printf 'linked\t%s\tbuilt\n' "$cc" >>"$work/objs/compile.tsv"
				else
					rm -f "$work/objs/linked.$cc.o"
					printf 'linked\t%s\t%s\n' "$cc" "bpftool gen object failed" >>"$work/objs/compile.tsv"
				fi
				rm -f "$work/objs/unit2.$cc.tmp" ;;
			strings)	# nobtf: the same without BTF
				if [ "$cc" = gcc ]; then nob=(bpf-gcc -O2 -I/usr/include); else nob=("${cmd[0]}" -target bpf -O2); fi
				if "${nob[@]}" "$asm" -I"$here/idioms" -c "$src" -o "$work/objs/nobtf.$cc.o" 2>/dev/null; then
					printf 'nobtf\t%s\tbuilt\n' "$cc" >>"$work/objs/compile.tsv"
				else
					printf 'nobtf\t%s\tdoes not compile\n' "$cc" >>"$work/objs/compile.tsv"
				fi ;;
			core-kinds)	# noext: .BTF.ext removed
				if [ -f "$work/objs/$n.$cc.o" ] &&
				   llvm-objcopy --remove-section=.BTF.ext "$work/objs/$n.$cc.o" "$work/objs/noext.$cc.o"; then
					printf 'noext\t%s\tbuilt\n' "$cc" >>"$work/objs/compile.tsv"
				else
					printf 'noext\t%s\t%s\n' "$cc" "no $n object" >>"$work/objs/compile.tsv"
				fi ;;
			esac
		done
	done
	echo "$stamp" >"$work/objs/.stamp"
fi
echo "reader: $(ls "$work"/objs/*.o | wc -l) objects in $work/objs"
# READER_BUILD_ONLY=1: the corpus only (vm/matrix.sh loads it in guests)
[ -z "${READER_BUILD_ONLY:-}" ] || exit 0

# a second reference: Debian trixie's libbpf (newlibbpf.sh), when it can be had
opener2=()
if new=$(timeout 900 bash "$here/newlibbpf.sh" "$opener"); then
	opener2=(--opener2 "libbpf $("$new" --version | sed 's/^libbpf v//')=$new")
	echo "reader: second reference: $("$new" --version) (Debian trixie's, $new)"
else
	echo "reader: no second libbpf (trixie's could not be fetched): comparing with the system's only"
fi

btfs=()
for k in ${READER_KERNELS:-cloud-6.1 cloud-6.12}; do
	b=$(timeout 900 bash "$root/vm/kernel-btf.sh" "$k") || { echo "FAIL: reader: no BTF of $k (vm/kernel-btf.sh)"; exit 1; }
	btfs+=("$k=$b")
done
python3 "$here/differ.py" --work "$work" --relocore "$relocore" --opener "$opener" \
	--oracle "$oracle" --expected "$here/expected.tsv" "${opener2[@]}" "${btfs[@]}"
rc=$?

# the maps of real objects (the crosscheck suite's corpus, when it ran)
real=$(find "$root/build/crosscheck/corpus" "$root/build/crosscheck/examples" -name '*.o' 2>/dev/null | sort)
if [ -n "$real" ]; then
	# shellcheck disable=SC2086
	python3 "$here/realmaps.py" --opener "$opener" --relocore "$relocore" --btf "${btfs[1]#*=}" $real || rc=1
else
	echo "reader: no real objects to compare maps on (the crosscheck suite has not run)"
fi

# the object-level fuzzer over the same corpus (objfuzz.py): a fixed seed,
# so a run is repeatable; READER_FUZZ_SEED, READER_FUZZ_ROUNDS change it
seed=${READER_FUZZ_SEED:-1}
rounds=${READER_FUZZ_ROUNDS:-1500}
rm -rf "$work/objfuzz"
if python3 "$here/objfuzz.py" --opener "$opener" --relocore "$relocore" --btf "${btfs[0]#*=}" \
	--seed "$seed" --count "$rounds" --out "$work/objfuzz" --expected "$here/objfuzz.expected" "${opener2[@]}" \
	"$work"/objs/*.o; then
	echo "PASS: reader/objfuzz (seed $seed, $rounds mutants)"
else
	echo "FAIL: reader/objfuzz: relocore crashed or disagreed with libbpf unexplained (seed $seed; mutants and messages in $work/objfuzz)"
	rc=1
fi
exit $rc
