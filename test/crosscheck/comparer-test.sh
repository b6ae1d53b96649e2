#!/usr/bin/env bash
# test/crosscheck/comparer-test.sh - test the comparer of libbpf_oracle with
# hand-made relocore-style JSON, without relocore: libbpf's own decisions for
# examples/getpid.bpf.c on the 6.1 BTF, then edited copies of them, each of
# which must be reported as the mismatch it is.
# Prints one `PASS:`/`FAIL:` line per case and `N passed, M failed`.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"

work="$RC_BUILD/crosscheck"
oracle="$work/libbpf_oracle"
t="$work/comparer-test"
mkdir -p "$t"
if [ ! -x "$oracle" ] || [ -n "$(find "$here"/libbpf_oracle*.[ch] "$here/libbpf_core.h" \
		-newer "$oracle" -print -quit)" ]; then
	${CC:-cc} -O2 -g -Wall -Wextra -o "$oracle" "$here/libbpf_oracle.c" "$here/libbpf_oracle_main.c" \
		/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz || exit 1
fi
btf=$("$RC_ROOT/vm/kernel-btf.sh" cloud-6.1) || exit 1
obj="$work/examples/getpid.bpf.o"
[ -f "$obj" ] || "$RC_ROOT/examples/build.sh" "$work/examples" >/dev/null || exit 1

pass=0 fail=0
ok() { echo "PASS: comparer/$1"; pass=$((pass + 1)); }
bad() { echo "FAIL: comparer/$1: $2"; fail=$((fail + 1)); }

# run CASE JSON EXPECTED_RC PATTERN...: every PATTERN must occur in the output
run() {
	local name=$1 json=$2 want=$3 out rc p
	shift 3
	out=$("$oracle" compare "$obj" "$btf" "$json" "case" 2>&1)
	rc=$?
	echo "$out" >"$t/$name.out"
	if [ "$rc" != "$want" ]; then
		bad "$name" "exit $rc, expected $want: $(head -c 400 <<<"$out")"
		return
	fi
	for p in "$@"; do
		if ! grep -qE -- "$p" <<<"$out"; then
			bad "$name" "no line matching /$p/ in: $(head -c 400 <<<"$out")"
			return
		fi
	done
	ok "$name"
}

base="$t/libbpf.json"
"$oracle" dump "$obj" "$btf" >"$base" || exit 1
n=$(grep -c '"section"' "$base")
[ "$n" -gt 5 ] || { bad setup "only $n relocations in $obj"; exit 1; }

# pick relocations to edit: an ok byte_off, a poisoned one, a type_size
line_ok=$(grep -n '"kind":"byte_off".*"result":"ok"' "$base" | head -n1 | cut -d: -f1)
line_pois=$(grep -n '"result":"poisoned"' "$base" | head -n1 | cut -d: -f1)
line_sz=$(grep -n '"kind":"type_size"' "$base" | head -n1 | cut -d: -f1)
if [ -z "$line_ok" ] || [ -z "$line_pois" ] || [ -z "$line_sz" ]; then
	bad setup "example lacks needed relocations"
	exit 1
fi
edit() { # edit LINE SED-EXPR > file
	sed "$1{$2}" "$base"
}

# 1. identical decisions -> PASS
run same "$base" 0 '^PASS: case$' "^compared $n mismatches 0$"

# 2. same decisions, reformatted: pretty-printed, keys sorted, fields added
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for r in d["relocations"]: r["extra"]={"nested":[1,-2,"x\"y"]}; r.pop("validate")
print(json.dumps(d, indent=3, sort_keys=True))' "$base" >"$t/pretty.json"
run pretty "$t/pretty.json" 0 '^PASS: case$'

# 3. a wrong new value
edit "$line_ok" 's/"new":\([0-9]*\)/"new":99999/' >"$t/new.json"
run wrong-new "$t/new.json" 1 '^FAIL: case: .*new: relocore 99999, libbpf [0-9]+' 'mismatches 1$'

# 4. a wrong old value
edit "$line_sz" 's/"old":\([0-9]*\)/"old":7/' >"$t/old.json"
run wrong-old "$t/old.json" 1 '^FAIL: case: .*type_size.*old: relocore 7, libbpf [0-9]+'

# 5. ok where libbpf poisons, poisoned where libbpf is ok
edit "$line_pois" 's/"result":"poisoned"/"result":"ok"/' >"$t/res1.json"
run poisoned-as-ok "$t/res1.json" 1 '^FAIL: case: .*result: relocore ok .*libbpf poisoned'
edit "$line_ok" 's/"result":"ok"/"result":"poisoned"/' >"$t/res2.json"
run ok-as-poisoned "$t/res2.json" 1 '^FAIL: case: .*result: relocore poisoned .*libbpf ok'
edit "$line_ok" 's/"result":"ok"/"result":"error"/' >"$t/res3.json"
run ok-as-error "$t/res3.json" 1 '^FAIL: case: .*result: relocore error .*libbpf ok'

# 6. the new value of a poisoned relocation does not matter
edit "$line_pois" 's/"new":\([0-9]*\)/"new":12345/' >"$t/poisnew.json"
run poisoned-new-ignored "$t/poisnew.json" 0 '^PASS: case$'

# 7. another target type
edit "$line_ok" 's/"target_type_id":\([0-9]*\)/"target_type_id":4242/' >"$t/targ.json"
run wrong-target "$t/targ.json" 1 'target_type_id: relocore 4242, libbpf [0-9]+'

# 7b. another matched access path or bit offset (field relocations)
edit "$line_ok" 's/"target_spec":"\([0-9:]*\)"/"target_spec":"0:77"/' >"$t/tspec.json"
run wrong-target-spec "$t/tspec.json" 1 'target_spec: relocore "0:77", libbpf "[0-9:]+"'
edit "$line_ok" 's/"target_bit_offset":\([0-9]*\)/"target_bit_offset":3/' >"$t/tbit.json"
run wrong-target-bit "$t/tbit.json" 1 'target_bit_offset: relocore 3, libbpf [0-9]+'
# ... both are optional in relocore's output
sed 's/"target_spec":"[0-9:]*",//; s/"target_bit_offset":[0-9]*,//' "$base" >"$t/notspec.json"
run no-target-spec "$t/notspec.json" 0 '^PASS: case$'

# 7c. old of a poisoned relocation: compared, unless CROSSCHECK_POISONED_OLD=0
edit "$line_pois" 's/"old":\([0-9]*\)/"old":4321/' >"$t/poisold.json"
run poisoned-old-strict "$t/poisold.json" 1 'old: relocore 4321'
export CROSSCHECK_POISONED_OLD=0
run poisoned-old-relaxed "$t/poisold.json" 0 '^PASS: case$'
unset CROSSCHECK_POISONED_OLD

# 8. a relocation missing, one too many, none at all
sed "${line_ok}d" "$base" >"$t/missing.json"
# keep the JSON valid if the deleted line was the first element
sed -i 's/"relocations":\[,/"relocations":[/' "$t/missing.json"
run missing "$t/missing.json" 1 'missing in relocore output' "^compared $n mismatches 1$"
sed 's/"relocations":\[/"relocations":[{"section":"kprobe\/nope","insn":7,"kind":"byte_off","spec":"0:1","result":"ok","old":1,"new":1},/' "$base" >"$t/extra.json"
run extra "$t/extra.json" 1 'relocore reports a relocation libbpf does not see: kprobe/nope insn 7 byte_off'
echo '{"object":"getpid.bpf.o","target":"x","relocations":[]}' >"$t/empty.json"
run empty "$t/empty.json" 1 "mismatches $n$"

# 9. a kind name relocore gets wrong, and numbers given as strings
edit "$line_ok" 's/"kind":"byte_off"/"kind":"field_byte_offset"/' >"$t/kind.json"
run wrong-kind "$t/kind.json" 1 'missing in relocore output' 'does not see'
edit "$line_ok" 's/"new":\([0-9]*\)/"new":"\1"/' >"$t/strnum.json"
run string-number "$t/strnum.json" 1 'no integral "new"'

# 9b. instruction comparison: the unrelocated object as "relocated" one.
# On the 6.1 BTF every offset stays, so only the instructions libbpf
# poisons and the kernel type ids differ, each reported once.
npois=$(grep -c '"result":"poisoned"' "$base")
ntid=$(grep -c '"kind":"target_type_id"' "$base")
out=$("$oracle" compare "$obj" "$btf" "$base" case "$obj" 2>&1)
got=$(grep -c 'patched insn #[0-9]*: relocore code=0x.* libbpf code=0x85 .*imm=195896080 (libbpf poisoned)' <<<"$out")
if [ "$got" = "$npois" ] && [ "$npois" -gt 0 ] &&
   grep -q "^compared $n mismatches $((npois + ntid))$" <<<"$out"; then
	ok insns-poisoned
else
	bad insns-poisoned "expected $npois poisoned-insn mismatches, got $got: $(head -c 400 <<<"$out")"
fi
# a relocated object that lacks the section (renamed away)
cp "$obj" "$t/nosec.o"
llvm-objcopy --rename-section=kretprobe/__x64_sys_getpid=renamed "$t/nosec.o"
out=$("$oracle" compare "$obj" "$btf" "$base" case "$t/nosec.o" 2>&1)
if [ $? = 1 ] && grep -q 'relocated object has no insn' <<<"$out"; then
	ok insns-missing-section
else
	bad insns-missing-section "$(head -c 400 <<<"$out")"
fi

# 10. unreadable input
printf '{"relocations":[{"section":"a",' >"$t/trunc.json"
run truncated "$t/trunc.json" 1 'JSON unreadable'
echo '{"object":"x"}' >"$t/noarr.json"
run no-array "$t/noarr.json" 1 'no "relocations" array'

echo "comparer: $pass passed, $fail failed"
[ "$fail" = 0 ]
