#!/usr/bin/env bash
# Build the relocore fuzzer and its seed corpus (cached in build/fuzz/).
# Sourced by smoke.sh and long.sh, or run alone (the CMake target
# relocore_fuzz runs it).  Defines:
#   FUZZ_DIR   build/fuzz (or $FUZZ_DIR: a second, independent build)
#   FUZZ_BIN    $FUZZ_DIR/relocore_fuzz    (libFuzzer + ASan + UBSan)
#   FUZZ_SEEDS  $FUZZ_DIR/seeds            (made from test/fuzz/seeds/*.c and
#                                           test/lit/AREA/*.c)
#   FUZZ_REGR   test/fuzz/corpus           (committed regression inputs)
#   FUZZ_CORPUS $FUZZ_DIR/corpus           (the working corpus, grows)
#   FUZZ_TARGET $FUZZ_DIR/seeds/target.o   (the fixed target BTF)
# Returns non-zero (after a "FAIL: fuzz/build: ..." line) when it cannot.
set -uo pipefail

FUZZ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FUZZ_SRC="$FUZZ_ROOT/test/fuzz"
# shellcheck source=../../scripts/need.sh
source "$FUZZ_ROOT/scripts/need.sh"
need clang clang
need /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
FUZZ_DIR="${FUZZ_DIR:-$FUZZ_ROOT/build/fuzz}"
FUZZ_BIN="$FUZZ_DIR/relocore_fuzz"
FUZZ_SEEDS="$FUZZ_DIR/seeds"
FUZZ_REGR="$FUZZ_SRC/corpus"
FUZZ_CORPUS="$FUZZ_DIR/corpus"
FUZZ_TARGET="$FUZZ_SEEDS/target.o"

fuzz_fail() { echo "FAIL: fuzz/build: $*"; return 1; }

# newer FILE PATHS...: is any of PATHS newer than FILE (or FILE missing)?
fuzz_stale() {
	local f=$1; shift
	[ -e "$f" ] || return 0
	[ -n "$(find "$@" -newer "$f" -print -quit 2>/dev/null)" ]
}

fuzz_build_bin() {
	local cc
	cc=$(command -v clang-14 || command -v clang) || { fuzz_fail "clang not found"; return 1; }
	mkdir -p "$FUZZ_DIR"
	if fuzz_stale "$FUZZ_BIN" "$FUZZ_ROOT"/loader/*.[ch] "$FUZZ_ROOT"/check/*.[ch] "$FUZZ_SRC/fuzz_object.c" \
			"$FUZZ_SRC/build.sh"; then
		echo "fuzz: building $FUZZ_BIN" >&2
		# the engine and readers, and check (check/), not the CLI (cli/)
		"$cc" -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE \
			-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
			-DRC_FUZZ_TARGET_DEFAULT="\"$FUZZ_TARGET\"" \
			-I"$FUZZ_ROOT/loader" -I"$FUZZ_ROOT/check" "$FUZZ_ROOT"/loader/*.c "$FUZZ_ROOT"/check/*.c \
			"$FUZZ_SRC/fuzz_object.c" \
			-lbpf -lelf -lz -o "$FUZZ_BIN.tmp" >"$FUZZ_DIR/build.log" 2>&1 || {
			sed 's/^/    /' "$FUZZ_DIR/build.log" | head -30
			fuzz_fail "compiling the fuzzer failed (is libclang-rt-14-dev installed?)"
			return 1
		}
		mv "$FUZZ_BIN.tmp" "$FUZZ_BIN"
	fi
}

# The lit tests' C files (test/lit/AREA/*.c; not Inputs/ or tools/).
fuzz_lit_tests() {
	local f
	for f in "$FUZZ_ROOT"/test/lit/*/*.c; do
		case $f in */Inputs/* | */tools/*) continue ;; esac
		[ -f "$f" ] && printf '%s\n' "$f"
	done
}

# Compile test/fuzz/seeds/*.c for BPF, strip debug info (the fuzzer does not
# read it: smaller inputs mutate faster), and make the seed inputs.
fuzz_build_seeds() {
	local cc cc16 objdir="$FUZZ_DIR/objs" f name flags lits
	mapfile -t lits < <(fuzz_lit_tests)
	cc=$(command -v clang-14 || command -v clang) || { fuzz_fail "clang not found"; return 1; }
	cc16=$(command -v clang-16 || true)
	if ! fuzz_stale "$FUZZ_SEEDS/.done" "$FUZZ_SRC/seeds" "$FUZZ_SRC/mkseeds.py" \
			"$FUZZ_SRC/build.sh" "${lits[@]}"; then
		return 0
	fi
	echo "fuzz: building seeds in $FUZZ_SEEDS" >&2
	rm -rf "$FUZZ_SEEDS" "$objdir"
	mkdir -p "$FUZZ_SEEDS" "$objdir"
	flags=(-target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -I"$FUZZ_SRC/seeds")
	"$cc" "${flags[@]}" -c "$FUZZ_SRC/seeds/target.c" -o "$FUZZ_TARGET" ||
		{ fuzz_fail "compiling seeds/target.c"; return 1; }
	llvm-objcopy --dump-section .BTF="$objdir/target.btf" "$FUZZ_TARGET" ||
		{ fuzz_fail "extracting the target's .BTF"; return 1; }
	for f in "$FUZZ_SRC"/seeds/*.c; do
		name=$(basename "$f" .c)
		[ "$name" = target ] && continue
		if grep -q 'TYPE_MATCHES' "$f"; then
			# clang-14 has no BPF_TYPE_MATCHES; mkseeds.py also makes
			# type_matches records from type_exists ones
			[ -n "$cc16" ] || continue
			"$cc16" "${flags[@]}" -c "$f" -o "$objdir/$name.full.o" ||
				{ fuzz_fail "compiling seeds/$name.c with clang-16"; return 1; }
		else
			"$cc" "${flags[@]}" -c "$f" -o "$objdir/$name.full.o" ||
				{ fuzz_fail "compiling seeds/$name.c"; return 1; }
			# same source, other instruction shapes (32-bit ALU, v3)
			"$cc" "${flags[@]}" -mcpu=v3 -c "$f" -o "$objdir/$name-v3.full.o" ||
				{ fuzz_fail "compiling seeds/$name.c -mcpu=v3"; return 1; }
		fi
	done
	# the lit tests' programs and their -DTARGET layouts, when they compile
	local lit="$FUZZ_ROOT/test/lit" pairs=()
	for f in "${lits[@]}"; do
		name=lit-$(basename "$(dirname "$f")")-$(basename "$f" .c)
		"$cc" "${flags[@]}" -I"$lit/Inputs" -c "$f" -o "$objdir/$name.full.o" 2>/dev/null &&
		"$cc" "${flags[@]}" -I"$lit/Inputs" -DTARGET -c "$f" -o "$objdir/$name.target" 2>/dev/null &&
		llvm-objcopy --dump-section .BTF="$objdir/$name.btf" "$objdir/$name.target" ||
			rm -f "$objdir/$name".*
	done
	for f in "$objdir"/*.full.o; do
		llvm-objcopy --strip-debug "$f" "${f%.full.o}.o" ||
			{ fuzz_fail "stripping $f"; return 1; }
	done
	for f in "$objdir"/*.o; do
		case $f in *.full.o) continue ;; esac
		if [ -f "${f%.o}.btf" ]; then pairs+=("$f=${f%.o}.btf"); else pairs+=("$f"); fi
	done
	python3 "$FUZZ_SRC/mkseeds.py" "$FUZZ_SEEDS/inputs" "$objdir/target.btf" "${pairs[@]}" ||
		{ fuzz_fail "mkseeds.py"; return 1; }
	touch "$FUZZ_SEEDS/.done"
}

fuzz_build() {
	fuzz_build_bin && fuzz_build_seeds && mkdir -p "$FUZZ_CORPUS" "$FUZZ_DIR/crashes" || return 1
	# the corpus directories, the working one first (new inputs go there)
	FUZZ_DIRS=("$FUZZ_CORPUS" "$FUZZ_SEEDS/inputs")
	[ -d "$FUZZ_REGR" ] && FUZZ_DIRS+=("$FUZZ_REGR")
	return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	fuzz_build || exit 1
	echo "fuzzer: $FUZZ_BIN"
	echo "seeds:  $FUZZ_SEEDS/inputs ($(ls "$FUZZ_SEEDS/inputs" | wc -l) inputs)"
	echo "run:    $FUZZ_BIN ${FUZZ_DIRS[*]}"
fi
