#!/usr/bin/env bash
# Malformed inputs of the relocore CLI, table-driven.
#
# A valid object (prog.c) and target (target.c) are compiled here; every
# row derives one damaged file from them with mutate.py and runs both
#   relocore explain OBJ --btf TARGET
#   relocore reloc   OBJ --btf TARGET -o OUT
#   relocore check   OBJ --btf TARGET
# Each must exit non-zero and below 128 (no signal), print no sanitizer
# report, name the damaged file and contain the row's expected text
# (which names the section, offset, record or type); reloc must leave no
# OUT (nor a temporary) behind.  check exits 2 (bad input) with that
# message, except where the object is well-formed and only a relocation is
# refused: then it exits 1 and prints the refusal as a relocation problem.
#
# Binaries tested: a clang ASan+UBSan build of the CLI made here with
# CMake (build/badinput/asan), and build/bin/relocore when it exists.
# RELOCORE=path tests that binary instead of both.
#
# Prints PASS: badinput/<row> or FAIL: badinput/<row>: <why> per row;
# exits non-zero if any row failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../scripts/need.sh
source "$here/../../scripts/need.sh"
need clang clang
need llvm-objcopy llvm
need /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a libclang-rt-14-dev
root=$(cd "$here/../.." && pwd)
work="$root/build/badinput"
mkdir -p "$work/in" "$work/out"

# Rows: name | mutation (mutate.py; "-": none) | damaged file: obj (from
# prog.o), target (from target.o), raw (from target.btf, the raw .BTF) or
# fanout (from fanout.o, relocated against fanout.c -DTARGET) | text
# expected in the error message.
rows=$(cat <<'EOF'
empty               | empty               | obj    | not an ELF file
garbage             | garbage             | obj    | not an ELF file
garbage-elf-magic   | garbage-elf         | obj    | not an ELF file
trunc-10            | trunc-10            | obj    | not an ELF file
trunc-ehdr          | trunc-64            | obj    | section header table (offset 0x
trunc-mid-btf       | trunc-btf           | obj    | section header table (offset 0x
trunc-last-byte     | trunc-shdrs         | obj    | missing or beyond the file
btf-bad-magic       | btf-magic           | obj    | .BTF at offset 0x
btf-twice           | btf-twice           | obj    | section .BTF appears twice (sections
btf-hdr-len         | btf-hdr-len         | obj    | .BTF at offset 0x
btf-str-len-overrun | btf-str-len         | obj    | .BTF at offset 0x
btf-type-len-overrun| btf-type-len        | obj    | .BTF at offset 0x
btf-member-type-id  | btf-member-type     | obj    | type [2]: refers to type id 4242, out of range
btf-member-name-off | btf-member-name     | obj    | type [2]: name offset 2147483632 outside the string section
btf-type-name-off   | btf-type-name       | obj    | outside the string section
btf-modifier-cycle  | btf-modcycle        | obj    | section kprobe/badinput insn #1 byte_off sk.b
ext-bad-magic       | ext-magic           | obj    | .BTF.ext: bad magic 0xbeef
ext-truncated       | ext-truncated       | obj    | .BTF.ext: 20 bytes, shorter than its header
ext-core-relo-overrun | ext-core-len      | obj    | .BTF.ext: core_relo (offset
ext-record-size-0   | ext-recsize0        | obj    | .BTF.ext: core_relo record size 0 invalid (offset 0x
ext-records-overrun | ext-sec-nr          | obj    | core_relo for 'kprobe/badinput': 268435456 records of 16 bytes overrun the section at offset 0x
ext-sec-name-off    | ext-sec-name        | obj    | .BTF.ext: core_relo section name offset
relo-insn-past-end  | ext-insn-past       | obj    | section kprobe/badinput: core_relo #0 points at byte
relo-insn-misaligned| ext-insn-misaligned | obj    | section kprobe/badinput: core_relo #0 points at byte 11
relo-type-id        | ext-type-id         | obj    | core_relo #0 (insn 1): type id 99999 out of range
relo-access-str-off | ext-access-off      | obj    | core_relo #0 (insn 1): access string offset 2147483632 out of range
relo-kind-99        | ext-kind99          | obj    | core_relo #0 (insn 1): unknown kind 99
access-not-parsing  | access-noparse      | obj    | insn #1 byte_off sk: access string does not parse at 'x'
access-index-range  | access-index        | obj    | insn #1 byte_off sk: member 9 of [2] out of range
access-nesting-200  | access-deep         | obj    | insn #1 byte_off sk: access string deeper than 64 steps
access-index-huge   | access-huge-index   | obj    | insn #1 byte_off sk: access index too large
nesting-fanout-compat | -                 | fanout | section kprobe/fanout insn #0 type_exists f0
nesting-fanout-match  | ext-kind-matches  | fanout | section kprobe/fanout insn #0 type_matches f0
embed-truncated     | embed-trunc         | obj    | embedded BPF object at offset 0x10 truncated: its section header table
embed-trunc-section | embed-trunc-section | obj    | embedded BPF object at offset 0x10 truncated: its section
embed-two-objects   | embed-twice         | obj    | embeds 2 BPF objects, choose one with --object N|NAME: 0 prog (offset 0x10
embed-bad-shentsize | embed-shentsize     | obj    | embedded BPF object at offset 0x10: no usable section header table
target-empty        | empty               | target | neither raw BTF (magic 0xeb9f) nor an ELF file
target-garbage      | garbage             | target | neither raw BTF (magic 0xeb9f) nor an ELF file
target-elf-trunc    | trunc-btf           | target | malformed BTF
target-raw-trunc    | raw-trunc           | raw    | malformed BTF
target-raw-str-len  | raw-str-len         | raw    | malformed BTF
target-raw-type-id  | raw-member-type     | raw    | type [1]: refers to type id 77777, out of range
EOF
)

fail_build() { echo "FAIL: badinput/setup: $*"; exit 1; }

# --- the CLIs ---------------------------------------------------------------
bins=() tags=()
if [ -n "${RELOCORE:-}" ]; then
	bins=("$RELOCORE") tags=(cli)
else
	cc=$(command -v clang-14 || command -v clang || true)
	cxx=$(command -v clang++-14 || command -v clang++ || true)
	if [ -n "$cc" ] && [ -n "$cxx" ]; then
		san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
		if [ ! -f "$work/asan/CMakeCache.txt" ]; then
			cmake -S "$root" -B "$work/asan" -DCMAKE_BUILD_TYPE=Debug \
				-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
				-DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" \
				>"$work/asan-cmake.log" 2>&1 ||
				fail_build "cmake (sanitizer build) failed: $work/asan-cmake.log"
		fi
		make -C "$work/asan" -j2 relocore-cli >"$work/asan-make.log" 2>&1 ||
			fail_build "building the sanitizer CLI failed: $work/asan-make.log"
		bins+=("$work/asan/bin/relocore") tags+=(asan)
	else
		echo "badinput: no clang: testing without sanitizers"
	fi
	if [ -x "$root/build/bin/relocore" ]; then
		bins+=("$root/build/bin/relocore") tags+=(build)
	fi
fi
[ "${#bins[@]}" -gt 0 ] || fail_build "no relocore binary (make build, or set RELOCORE)"

# --- the valid inputs -------------------------------------------------------
bpf_cc=(clang -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu)
"${bpf_cc[@]}" -c "$here/prog.c" -o "$work/prog.o" || fail_build "compiling prog.c"
"${bpf_cc[@]}" -c "$here/target.c" -o "$work/target.o" || fail_build "compiling target.c"
"${bpf_cc[@]}" -c "$here/fanout.c" -o "$work/fanout.o" || fail_build "compiling fanout.c"
"${bpf_cc[@]}" -DTARGET -c "$here/fanout.c" -o "$work/fanout.target.o" ||
	fail_build "compiling fanout.c -DTARGET"
llvm-objcopy --dump-section .BTF="$work/target.btf" "$work/target.o" ||
	fail_build "extracting target.btf"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# run_cli BIN OUT ARGS...: sets rc, err (stderr) and out (stdout)
run_cli() {
	local bin=$1 log=$2
	shift 2
	# 60 s: the sanitizer build ran past 20 s on a loaded 2-core machine
	# on the nesting rows; a hang still fails
	timeout 60 "$bin" "$@" >"$log.out" 2>"$log.err"
	rc=$?
	err=$(cat "$log.err")
}

# check ROW BIN WHAT BADFILE EXPECT OUT: why it failed, or nothing
check() {
	local cmd=$1 bad=$2 expect=$3
	if [ "$rc" -eq 124 ]; then echo "$cmd: timed out (hang)"; return; fi
	if [ "$rc" -ge 128 ]; then echo "$cmd: killed by signal $((rc - 128))"; return; fi
	if grep -qE 'Sanitizer|runtime error:|SUMMARY: ' <<<"$err"; then
		echo "$cmd: sanitizer report: $(grep -m1 -E 'ERROR: |runtime error:' <<<"$err")"
		return
	fi
	if [ "$rc" -eq 0 ]; then echo "$cmd: exited 0 on a malformed input"; return; fi
	if ! grep -qF -- "$bad" <<<"$err"; then
		echo "$cmd: message does not name $bad: '$err'"
		return
	fi
	if ! grep -qF -- "$expect" <<<"$err"; then
		echo "$cmd: message lacks '$expect': '$err'"
		return
	fi
}

failed=0
pass() { echo "PASS: badinput/$1"; }
fail() { echo "FAIL: badinput/$1: $2"; failed=$((failed + 1)); }

# control: the undamaged inputs are accepted by every binary
for bin in "${bins[@]}"; do
	out="$work/out/valid.o"
	rm -f "$out"
	run_cli "$bin" "$work/out/valid-explain" explain "$work/prog.o" --btf "$work/target.o"
	r1=$rc
	run_cli "$bin" "$work/out/valid-check" check "$work/prog.o" --btf "$work/target.o"
	r2=$rc
	run_cli "$bin" "$work/out/valid-reloc" reloc "$work/prog.o" --btf "$work/target.o" -o "$out"
	if [ "$r1" -ne 0 ] || [ "$r2" -ne 0 ] || [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
		fail valid "$bin rejects the undamaged object (explain $r1, check $r2, reloc $rc): $err"
		echo "$failed failed"
		exit 1
	fi
done
pass valid

while IFS='|' read -r row mut what expect; do
	row=$(xargs <<<"$row"); mut=$(xargs <<<"$mut"); what=$(xargs <<<"$what")
	expect=$(sed -E 's/^ +//; s/ +$//' <<<"$expect")
	[ -n "$row" ] || continue
	case $what in
	obj) src="$work/prog.o" ;;
	target) src="$work/target.o" ;;
	raw) src="$work/target.btf" ;;
	fanout) src="$work/fanout.o" ;;
	*) fail "$row" "bad table row (what=$what)"; continue ;;
	esac
	bad="$work/in/$row"
	if [ "$mut" = - ]; then
		cp "$src" "$bad"
	elif ! python3 "$here/mutate.py" "$mut" "$src" "$bad" 2>"$work/out/$row.mutate"; then
		fail "$row" "mutate.py $mut failed: $(tail -1 "$work/out/$row.mutate")"
		continue
	fi
	if [ "$what" = obj ]; then
		obj=$bad tgt="$work/target.o"
	elif [ "$what" = fanout ]; then
		obj=$bad tgt="$work/fanout.target.o"
	else
		obj="$work/prog.o" tgt=$bad
	fi
	why=""
	for k in "${!bins[@]}"; do
		bin=${bins[$k]} tag=${tags[$k]}
		log="$work/out/$row.$tag"
		run_cli "$bin" "$log.explain" explain "$obj" --btf "$tgt"
		why=$(check "$tag explain" "$bad" "$expect")
		[ -z "$why" ] || break
		out="$work/out/$row.$tag.o"
		rm -f "$out" "$out".tmp*
		run_cli "$bin" "$log.reloc" reloc "$obj" --btf "$tgt" -o "$out"
		why=$(check "$tag reloc" "$bad" "$expect")
		[ -z "$why" ] || break
		if [ -e "$out" ] || compgen -G "$out.tmp*" >/dev/null; then
			why="$tag reloc: left $(ls "$out"* | head -1) behind"
			break
		fi
		run_cli "$bin" "$log.check" check "$obj" --btf "$tgt"
		if [ "$rc" -eq 1 ]; then
			# a refused relocation, reported as the program's problem
			err=$(cat "$log.check.out")
			why=$(check "$tag check" "" "$expect")
			[ -n "$why" ] || grep -q "relocation: .*(refused: " "$log.check.out" ||
				why="$tag check: exit 1 without a refused relocation: $(head -c 300 "$log.check.out")"
		elif [ "$rc" -ne 2 ] && [ "$rc" -lt 124 ]; then
			why="$tag check: exit $rc, not 2 (bad input) or 1 (refused relocation)"
		else
			why=$(check "$tag check" "$bad" "$expect")
		fi
		[ -z "$why" ] || break
	done
	if [ -n "$why" ]; then fail "$row" "$why"; else pass "$row"; fi
done <<<"$rows"

total=$(grep -c '|' <<<"$rows")
echo "badinput: $((total + 1 - failed)) passed, $failed failed (${#bins[@]} binaries: ${bins[*]})"
[ "$failed" -eq 0 ]
