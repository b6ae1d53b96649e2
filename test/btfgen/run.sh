#!/usr/bin/env bash
# test/btfgen/run.sh - relocore btfgen and archives, on real kernels' BTF:
#  - every relocation of every example object decides the same against the
#    minimized BTF as against the full one (compare.py), per object and for
#    all objects at once, on each Debian kernel; so does every one of a
#    probe of about 21,500 relocations (bench/probe.sh);
#  - libbpf, given the minimized BTF as its target (btf_custom_path),
#    decides as relocore does (the crosscheck oracle);
#  - an archive of the kernels returns each kernel's BTF: minimized ones
#    decide the same again; a full one extracts type-for-type;
#  - corrupt or truncated archives and unknown releases fail cleanly.
set -uo pipefail
source "$(dirname "$0")/../../scripts/cache.sh"
cd "$RC_ROOT"
R=build/bin/relocore
out=build/btfgen-test
rm -rf "$out"; mkdir -p "$out"
fails=0
pass() { echo "PASS: btfgen/$*"; }
fail() { echo "FAIL: btfgen/$*"; fails=$((fails + 1)); }

bash examples/build.sh "$out/ex" >/dev/null || { fail "build examples"; exit 1; }
objs=("$out"/ex/*.bpf.o)
oracle=build/crosscheck/libbpf_oracle
if [ ! -x "$oracle" ] || [ -n "$(find test/crosscheck/libbpf_oracle*.[ch] test/crosscheck/libbpf_core.h \
		-newer "$oracle" -print -quit)" ]; then
	mkdir -p build/crosscheck
	cc -O2 -g -o "$oracle" test/crosscheck/libbpf_oracle.c test/crosscheck/libbpf_oracle_main.c \
		/usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz || fail "cannot build the libbpf oracle"
fi

# every kernel of the VM matrix (Debian's, ours, the BTF-less one's BTF
# made by pahole from DWARF; RC_VM_KERNELS=FILE: another list's, as in
# vm/matrix.sh)
declare -A btf rel
for k in $(awk '!/^[[:space:]]*(#|$)/ {print $1}' "${RC_VM_KERNELS:-vm/kernels.list}"); do
	btf[$k]=$(vm/kernel-btf.sh "$k") || { fail "$k: no BTF"; continue; }
	rel[$k]=$(cat "$(vm/kernel.sh "$k")/release") || { fail "$k: no release"; continue; }
done

for k in "${!btf[@]}"; do
	full=${btf[$k]}
	$R btfgen --btf "$full" -o "$out/$k.min.btf" "${objs[@]}" 2>"$out/$k.log" ||
		{ fail "$k/all: btfgen failed: $(cat "$out/$k.log")"; continue; }
	for o in "${objs[@]}"; do
		n=$(basename "$o" .bpf.o)
		$R btfgen --btf "$full" -o "$out/$k.$n.min.btf" "$o" 2>/dev/null ||
			{ fail "$k/$n: btfgen failed"; continue; }
		$R explain "$o" --btf "$full" --json >"$out/$k.$n.full.json"
		for m in "$out/$k.$n.min.btf" "$out/$k.min.btf"; do
			tag=$([ "$m" = "$out/$k.min.btf" ] && echo all || echo one)
			$R explain "$o" --btf "$m" --json >"$out/$k.$n.$tag.json"
			python3 test/btfgen/compare.py "$out/$k.$n.full.json" "$out/$k.$n.$tag.json" \
				"btfgen/$k/$n/min-$tag" || fails=$((fails + 1))
		done
		if [ -x "$oracle" ]; then
			if "$oracle" compare "$o" "$out/$k.min.btf" "$out/$k.$n.all.json" \
				"btfgen/$k/$n/libbpf-on-min" >"$out/$k.$n.oracle" 2>&1; then
				grep '^PASS' "$out/$k.$n.oracle" | head -1
			else
				grep '^FAIL' "$out/$k.$n.oracle" | head -3; fails=$((fails + 1))
			fi
		fi
	done
done

# a probe at an agent's scale (bench/probe.sh: 190 programs, about 21,500
# relocations, cached): minimized for each kernel, every relocation
# decides as on the full BTF
probe=$out/probe.bpf.o
if bench/probe.sh "$probe" 190 110 >"$out/probe.log" 2>&1; then
	for k in "${!btf[@]}"; do
		full=${btf[$k]}
		$R btfgen --btf "$full" -o "$out/$k.probe.min.btf" "$probe" 2>"$out/$k.probe.log" &&
		$R explain "$probe" --btf "$full" --json >"$out/$k.probe.full.json" &&
		$R explain "$probe" --btf "$out/$k.probe.min.btf" --json >"$out/$k.probe.min.json" ||
			{ fail "$k/probe: btfgen or explain failed: $(head -c 300 "$out/$k.probe.log")"; continue; }
		python3 test/btfgen/compare.py "$out/$k.probe.full.json" "$out/$k.probe.min.json" \
			"btfgen/$k/probe/min-one" || fails=$((fails + 1))
	done
else
	fail "probe: bench/probe.sh failed: $(tail -c 300 "$out/probe.log")"
fi

# archives: minimized and full
# archives find kernels by release: one kernel per release goes in
args=(); declare -A inar
for k in "${!btf[@]}"; do
	[ -z "${inar[${rel[$k]}]:-}" ] || continue
	inar[${rel[$k]}]=$k
	args+=("${rel[$k]}=${btf[$k]}")
done
if $R archive create -o "$out/min.rcba" $(printf -- '--min %s ' "${objs[@]}") "${args[@]}" 2>"$out/ar.log"; then
	pass "archive/create-min ($(stat -c %s "$out/min.rcba") bytes)"
	for k in "${inar[@]}"; do
		for o in "${objs[@]}"; do
			n=$(basename "$o" .bpf.o)
			$R explain "$o" --archive "$out/min.rcba" --release "${rel[$k]}" --json >"$out/$k.$n.ar.json" &&
			python3 test/btfgen/compare.py "$out/$k.$n.full.json" "$out/$k.$n.ar.json" \
				"btfgen/$k/$n/archive" || fails=$((fails + 1))
		done
	done
else
	fail "archive/create-min: $(cat "$out/ar.log")"
fi
if $R archive create -o "$out/full.rcba" "${args[@]}" 2>"$out/arf.log"; then
	pass "archive/create-full ($(stat -c %s "$out/full.rcba") bytes)"
	for k in "${inar[@]}"; do
		$R archive extract "$out/full.rcba" "${rel[$k]}" -o "$out/$k.x.btf" &&
		if python3 test/btfgen/kinds.py "${btf[$k]}" "$out/$k.x.btf"; then
			pass "$k/archive-keeps-kind-flags"
		else
			fail "$k/archive-keeps-kind-flags"
		fi &&
		for o in "${objs[@]}"; do
			n=$(basename "$o" .bpf.o)
			$R explain "$o" --btf "$out/$k.x.btf" --json >"$out/$k.$n.x.json" &&
			python3 test/btfgen/compare.py "$out/$k.$n.full.json" "$out/$k.$n.x.json" \
				"btfgen/$k/$n/full-archive" || fails=$((fails + 1))
		done
	done
else
	fail "archive/create-full: $(cat "$out/arf.log")"
fi

# bad input: truncated, corrupt, unknown release
check_err() { # name expected-substring command...
	local name=$1 want=$2; shift 2
	local msg rc
	msg=$("$@" 2>&1 >/dev/null); rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -qF -- "$want" <<<"$msg"; then pass "$name"
	else fail "$name: exit $rc, message: $msg"; fi
}
check_err archive/duplicate-release "given twice" $R archive create -o "$out/dup.rcba" \
	"${args[0]}" "${args[0]}"
head -c 100 "$out/min.rcba" >"$out/trunc.rcba"
check_err archive/truncated "corrupt or truncated" $R archive list "$out/trunc.rcba"
head -c 10 "$out/min.rcba" >"$out/hdr.rcba"
check_err archive/truncated-header "bad header" $R archive list "$out/hdr.rcba"
cp "$out/min.rcba" "$out/flip.rcba"
printf '\xff\xff\xff\xff' | dd of="$out/flip.rcba" bs=1 seek=200 conv=notrunc 2>/dev/null
check_err archive/corrupt "corrupt" $R archive list "$out/flip.rcba"
check_err archive/unknown-release "no BTF for kernel 9.9.9-none; the archive holds: " \
	$R explain "${objs[0]}" --archive "$out/min.rcba" --release 9.9.9-none
head -c 5000 "${btf[cloud-6.12]}" >"$out/trunc.btf"
check_err btf/truncated "malformed BTF" $R btfgen --btf "$out/trunc.btf" -o "$out/x.btf" "${objs[0]}"
[ ! -e "$out/x.btf" ] && pass "btf/truncated-no-output" || fail "btf/truncated-no-output"
echo "btfgen: $fails failure(s)"
[ $fails -eq 0 ]
