#!/usr/bin/env bash
# test/crosscheck/be.sh - big-endian CO-RE: relocore's decisions and the
# instructions it patches, against libbpf's own engine running big-endian.
#
# The oracle is libbpf_oracle (libbpf_oracle.c, libbpf_oracle_main.c: the
# x86 crosscheck's) built for s390x with s390x-linux-gnu-gcc, statically,
# against Debian's s390x libbpf 1.1 (vm/sysroot.sh s390x), and run on the
# host by qemu-s390x-static.  libbpf computes a bitfield's shift in its
# host's byte order, which there is the kernel's: the x86 oracle cannot
# decide for a big-endian kernel.  The oracle reads files only; nothing is
# loaded into any kernel.
#
#   kernels  test/crosscheck/be-kernels.list (Debian's s390x 6.12, 7.2),
#            their BTF cut from the image by vm/kernel-btf.sh
#   objects  the examples and edge/ compiled big-endian
#            (examples/build.sh --target bpfeb), and the BPF objects
#            Debian sid's s390x systemd embeds (libsystemd-core-*.so, by
#            relocore extract)
#   each     relocore explain --json and relocore reloc, compared by the
#            oracle (decisions and every patched instruction)
#   host     relocore-static built for s390x, run by qemu-s390x-static (a
#            big-endian host, where the objects are in the host's order),
#            writes the same bytes as relocore on this host, .kconfig
#            values baked (--kconfig: in the object's order) included
#   btfgen   an archive of both kernels minimized for the objects
#            (relocore archive create --min): each kernel's BTF given back
#            big-endian, and libbpf for s390x decides every relocation
#            against it as relocore does, with the values decided against
#            the whole BTF
#   guests   the same objects in s390x guests (relocore matrix --kernel
#            ...,arch=s390x: qemu-system-s390x under TCG), relocated and
#            loaded by relocore-static built for s390x, and by stock libbpf
#            for s390x (its own CO-RE, big-endian): the programs attach
#            where check predicted they would, every verdict as predicted
#            (Debian's s390x kernels have no BPF JIT: no fentry, no kfunc)
#   and      an object of the other byte order refused by reloc and named
#            by check, both ways; an archive refuses kernels of two orders
# Prints PASS:/FAIL: lines; exit non-zero on any FAIL.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../../scripts/cache.sh
source "$here/../../scripts/cache.sh"
# shellcheck source=../../vm/lib.sh
source "$RC_ROOT/vm/lib.sh"
need s390x-linux-gnu-gcc gcc-s390x-linux-gnu
need /usr/s390x-linux-gnu/include/stdio.h libc6-dev-s390x-cross
need qemu-s390x-static qemu-user-static
need clang clang

R=${RELOCORE:-$RC_BUILD/bin/relocore}
work="$RC_BUILD/crosscheck/be"
rm -rf "$work/out"
mkdir -p "$work/out"
npass=0 nfail=0
pass() { echo "PASS: crosscheck-be/$1"; npass=$((npass + 1)); }
fail() { echo "FAIL: crosscheck-be/$1: $2"; nfail=$((nfail + 1)); }
log() { echo "crosscheck-be: $*" >&2; }
t0=$(date +%s)

# --- the oracle, for s390x -------------------------------------------------
sr=$(timeout 900 "$RC_ROOT/vm/sysroot.sh" s390x) || { fail oracle "vm/sysroot.sh s390x failed"; exit 1; }
oracle="$work/libbpf_oracle-s390x"
key=$(cat "$here"/libbpf_oracle*.[ch] "$here/libbpf_core.h" "$sr/packages" | sha256sum | cut -c1-16)
if [ "$(cat "$oracle.key" 2>/dev/null)" != "$key" ]; then
	log "building $oracle (s390x-linux-gnu-gcc, libbpf.a of $sr)"
	l="$sr/usr/lib/s390x-linux-gnu"
	s390x-linux-gnu-gcc -O2 -g -Wall -Wextra -static -I"$sr/usr/include" -o "$oracle" \
		"$here/libbpf_oracle.c" "$here/libbpf_oracle_main.c" "$l/libbpf.a" "$l/libelf.a" "$l/libz.a" \
		>"$work/oracle-build.log" 2>&1 || { fail oracle "cannot build it: $(tail -n 3 "$work/oracle-build.log")"; exit 1; }
	echo "$key" >"$oracle.key"
fi
file -b "$oracle" | grep -q 'MSB executable, IBM S/390' && pass oracle/big-endian ||
	fail oracle/big-endian "$(file -b "$oracle")"

# --- the kernels -----------------------------------------------------------
declare -A btf
kernels=$(RC_VM_KERNELS="$here/be-kernels.list" bash -c 'source "$0"; vm_names' "$RC_ROOT/vm/lib.sh")
for k in $kernels; do
	b=$(RC_VM_KERNELS="$here/be-kernels.list" timeout 1800 "$RC_ROOT/vm/kernel-btf.sh" "$k" 2>"$work/out/$k.btf.log") &&
		[ "$(head -c2 "$b" | od -An -tx1 | tr -d ' \n')" = eb9f ] &&
		{ btf[$k]=$b; pass "kernel/$k"; } ||
		fail "kernel/$k" "no big-endian BTF: $(tail -n 2 "$work/out/$k.btf.log")"
done
[ ${#btf[@]} -gt 0 ] || { echo "crosscheck-be: no kernel"; exit 1; }

# --- the objects -------------------------------------------------------------
objs=()
bash "$RC_ROOT/examples/build.sh" --target bpfeb "$work/out/objs" >"$work/out/build.log" 2>&1 &&
	bash "$RC_ROOT/examples/build.sh" --target bpfeb "$work/out/objs" "$here"/edge/*.bpf.c >>"$work/out/build.log" 2>&1 ||
	fail build "examples/build.sh --target bpfeb: $(tail -n 3 "$work/out/build.log")"
objs+=("$work"/out/objs/*.bpf.o)
# Debian's: systemd's BPF objects, built big-endian by Debian for s390x
vm_apt sid s390x
vm_apt_update >/dev/null 2>&1
uris=$(timeout 120 apt-get "${VM_APT[@]}" download --print-uris "$(vm_apt_pkg libsystemd-shared)" 2>/dev/null | awk '{print $2}')
cdir="$RC_CACHE/be-corpus/$(echo "$uris" | sha256sum | cut -c1-16)"
if [ -n "$uris" ] && [ ! -f "$cdir/.complete" ]; then
	log "downloading $uris (s390x, sid)"
	rm -rf "$cdir" && mkdir -p "$cdir/deb" &&
		(cd "$cdir/deb" && timeout 600 apt-get "${VM_APT[@]}" download -q "$(vm_apt_pkg libsystemd-shared)" >/dev/null 2>&1) &&
		timeout 300 dpkg -x "$cdir"/deb/*.deb "$cdir/root" && touch "$cdir/.complete"
fi
core=$(find "$cdir/root" -name 'libsystemd-core-*.so' 2>/dev/null | head -n1)
if [ -n "$core" ]; then
	mkdir -p "$work/out/systemd"
	"$R" extract "$core" -o "$work/out/systemd" >"$work/out/extract.log" 2>&1
	n=$(ls "$work"/out/systemd/*.o 2>/dev/null | wc -l)
	[ "$n" -ge 4 ] && pass "extract/$(basename "$core")" ||
		fail "extract/$(basename "$core")" "$n big-endian objects found, want >= 4: $(tail -n 2 "$work/out/extract.log")"
	objs+=("$work"/out/systemd/*.o)
else
	fail corpus "no libsystemd-core of sid's libsystemd-shared:s390x (uris: $uris)"
fi

# --- decide, patch, compare ----------------------------------------------------
total=0 pairs=0
for o in "${objs[@]}"; do
	n=$(basename "$o" .o)
	for k in "${!btf[@]}"; do
		b=${btf[$k]} d="$work/out/$n.$k"
		if ! timeout 300 "$R" explain "$o" --btf "$b" --json >"$d.json" 2>"$d.err"; then
			grep -q '"relocations"' "$d.json" 2>/dev/null ||
				{ fail "$n/$k" "relocore explain: $(head -c 300 "$d.err")"; continue; }
		fi
		pairs=$((pairs + 1))
		# no CO-RE record: libbpf must find none either
		if grep -q '"relocations":\[\]' "$d.json"; then
			timeout 300 qemu-s390x-static "$oracle" dump "$o" "$b" >"$d.libbpf.json" 2>"$d.oracle.err"
			orc=$?
			if { [ "$orc" != 0 ] && grep -q 'no .BTF.ext section' "$d.oracle.err"; } ||
			   { [ "$orc" = 0 ] && ! grep -q '"section":' "$d.libbpf.json"; }; then
				pass "$n/$k (nothing to relocate)"
			else
				fail "$n/$k" "relocore finds no CO-RE relocation, libbpf does (or failed: $(head -c 200 "$d.oracle.err"))"
			fi
			continue
		fi
		rel=()
		timeout 300 "$R" reloc "$o" --btf "$b" -o "$d.rel.o" >"$d.reloc.log" 2>&1 && rel=("$d.rel.o")
		line=$(timeout 300 qemu-s390x-static "$oracle" compare "$o" "$b" "$d.json" "$n/$k" ${rel[@]+"${rel[@]}"} 2>"$d.oracle.err" | tee "$d.cmp" | tail -n1)
		grep '^FAIL: ' "$d.cmp" | sed 's/^FAIL: /FAIL: crosscheck-be\//'
		read -r _ c _ m <<<"$line"
		if [ "${m:-x}" = 0 ] && [ "${c:-0}" -gt 0 ]; then
			pass "$n/$k"
			total=$((total + c))
		else
			fail "$n/$k" "${line:-the oracle printed nothing: $(head -c 300 "$d.oracle.err")}"
		fi
	done
done
echo "crosscheck-be: ${#objs[@]} big-endian objects x ${#btf[@]} s390x kernels ($pairs pairs): $total relocations compared with libbpf 1.1 for s390x"
[ "$total" -gt 0 ] || fail compared "no relocation compared"

# --- the same bytes from a big-endian host ---------------------------------------------
rs=$(timeout 900 "$RC_ROOT/vm/cross.sh" s390x 2>"$work/out/cross.log")/bin/relocore-static
if [ -x "$rs" ]; then
	k=$(printf '%s\n' "${!btf[@]}" | sort | head -n1)
	kd=$(RC_VM_KERNELS="$here/be-kernels.list" "$RC_ROOT/vm/kernel.sh" "$k" 2>/dev/null)
	kc=(--kconfig "$kd/config" --kernel-release "$(cat "$kd/release" 2>/dev/null)")
	same=0 differ=()
	for o in "${objs[@]}"; do
		n=$(basename "$o" .o) d="$work/out/$n.$k.host"
		"$R" reloc "$o" --btf "${btf[$k]}" "${kc[@]}" -o "$d.le-host.o" >/dev/null 2>&1 || continue
		timeout 300 qemu-s390x-static "$rs" reloc "$o" --btf "${btf[$k]}" "${kc[@]}" -o "$d.be-host.o" >/dev/null 2>&1 &&
			cmp -s "$d.le-host.o" "$d.be-host.o" && same=$((same + 1)) || differ+=("$n")
	done
	[ "$same" -ge 10 ] && [ ${#differ[@]} = 0 ] && pass "be-host/same-bytes ($same objects)" ||
		fail be-host/same-bytes "$same alike; differ or fail on the s390x host: ${differ[*]}"
	# the baked values, big-endian: LINUX_KERNEL_VERSION, CONFIG_HZ, a bool
	got=$(python3 - "$work/out/kconfig.bpf.$k.host.le-host.o" <<'PY' 2>&1
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[5] == 2, "not big-endian"
shoff, = struct.unpack_from(">Q", d, 0x28)
shnum, shstr = struct.unpack_from(">HH", d, 0x3c)
secs = [struct.unpack_from(">IIQQQQIIQQ", d, shoff + i * 64) for i in range(shnum)]
so = secs[shstr][4]
for s in secs:
    if d[so + s[0]:d.index(b"\0", so + s[0])] == b".rodata.kconfig":
        v = d[s[4]:s[4] + s[5]]
        print(*struct.unpack_from(">IiB", v, 0))
PY
)
	rel=$(cat "$kd/release") hz=$(sed -n 's/^CONFIG_HZ=//p' "$kd/config")
	want="$(( $(cut -d. -f1 <<<"$rel") << 16 | $(cut -d. -f2 <<<"$rel") << 8 | $(cut -d. -f3 <<<"$rel" | sed 's/[^0-9].*//') )) $hz 1"
	[ "$got" = "$want" ] && pass "be-host/kconfig-baked ($got)" || fail be-host/kconfig-baked "got '$got', want '$want'"
else
	fail be-host "vm/cross.sh s390x: $(tail -n 3 "$work/out/cross.log")"
fi

# --- minimized, archived, given back big-endian ---------------------------------------
core_objs=()
for o in "${objs[@]}"; do
	grep -q '"relocations":\[{' "$work/out/$(basename "$o" .o).$(printf '%s\n' "${!btf[@]}" | sort | head -n1).json" 2>/dev/null &&
		core_objs+=("$o")
done
args=()
for k in "${!btf[@]}"; do args+=("$k=${btf[$k]}"); done
ar="$work/out/min.rcba"
mins=()
for o in "${core_objs[@]}"; do mins+=(--min "$o"); done
if "$R" archive create -o "$ar" "${mins[@]}" "${args[@]}" >"$work/out/archive.log" 2>&1; then
	for k in "${!btf[@]}"; do
		m="$work/out/min.$k.btf"
		"$R" archive extract "$ar" "$k" -o "$m" 2>>"$work/out/archive.log"
		[ "$(head -c2 "$m" | od -An -tx1 | tr -d ' \n')" = eb9f ] && pass "archive/$k/big-endian" ||
			fail "archive/$k/big-endian" "the BTF given back starts $(head -c4 "$m" | od -An -tx1)"
		bad=0 cmp=0
		for o in "${core_objs[@]}"; do
			n=$(basename "$o" .o) d="$work/out/$n.$k.min"
			"$R" explain "$o" --btf "$m" --json >"$d.json" 2>"$d.err"
			line=$(timeout 300 qemu-s390x-static "$oracle" compare "$o" "$m" "$d.json" "$n/$k/min" 2>&1 | tee "$d.cmp" | tail -n1)
			read -r _ c _ mm <<<"$line"
			# the values are those decided against the whole BTF (but
			# a target type id: the minimized BTF numbers its own)
			same=$(python3 -c 'import json,sys
a,b=(json.load(open(f))["relocations"] for f in sys.argv[1:3])
key=lambda r: (r["insn"], r["kind"], None if r["kind"] == "target_type_id" else r.get("new"), r.get("result"))
print(int(list(map(key, a)) == list(map(key, b))))' \
				"$d.json" "$work/out/$n.$k.json" 2>&1)
			if [ "${mm:-x}" = 0 ] && [ "$same" = 1 ]; then
				cmp=$((cmp + c))
			else
				bad=$((bad + 1))
				echo "crosscheck-be: $n on min.$k: $line; same values as on the whole BTF: $same" >&2
			fi
		done
		[ "$bad" = 0 ] && [ "$cmp" -gt 0 ] && pass "archive/$k/decided ($cmp relocations of ${#core_objs[@]} objects)" ||
			fail "archive/$k/decided" "$bad of ${#core_objs[@]} objects decide otherwise on the minimized BTF ($cmp compared)"
	done
else
	fail archive "relocore archive create --min: $(tail -n 2 "$work/out/archive.log")"
fi

# --- the other byte order: refused, and named by check -------------------------------
k=$(printf '%s\n' "${!btf[@]}" | sort | head -n1)
le="$work/out/le"
bash "$RC_ROOT/examples/build.sh" "$le" "$RC_ROOT/examples/getpid.bpf.c" >"$le.log" 2>&1
if "$R" reloc "$le/getpid.bpf.o" --btf "${btf[$k]}" -o "$le/x.o" 2>"$le.err"; then
	fail mismatch/reloc "a little-endian object relocated for big-endian $k"
else
	grep -q 'little-endian object, a big-endian kernel' "$le.err" && [ ! -e "$le/x.o" ] && pass mismatch/reloc ||
		fail mismatch/reloc "$(cat "$le.err")"
fi
"$R" check "$le/getpid.bpf.o" --btf "${btf[$k]}" >"$le.check" 2>&1
[ $? = 1 ] && grep -q 'endianness mismatch' "$le.check" && pass mismatch/check-le ||
	fail mismatch/check-le "$(head -c 400 "$le.check")"
"$R" check "$work/out/objs/getpid.bpf.o" --btf "$("$RC_ROOT/vm/kernel-btf.sh" cloud-6.1 2>/dev/null)" >"$le.check2" 2>&1
[ $? = 1 ] && grep -q 'object is big-endian, the kernel little-endian' "$le.check2" && pass mismatch/check-be ||
	fail mismatch/check-be "$(head -c 400 "$le.check2")"

# --- booted: s390x guests ------------------------------------------------------
if [ "${RC_BE_GUESTS:-1}" = 1 ]; then
	kspecs=()
	for k in $(printf '%s\n' "${!btf[@]}" | sort); do
		kd=$(RC_VM_KERNELS="$here/be-kernels.list" "$RC_ROOT/vm/kernel.sh" "$k" 2>/dev/null) || continue
		kspecs+=(--kernel "$k=$kd/vmlinuz,modules=$kd/lib/modules/$(cat "$kd/release"),config=$kd/config,arch=s390x")
	done
	gobjs=()
	for o in "${objs[@]}"; do
		case "$(basename "$o")" in edge.bpf.o|enum64.bpf.o|getpid.bpf.o|execsnoop.bpf.o) ;; *) gobjs+=("$o") ;; esac
	done
	timeout 1200 "$R" matrix "${gobjs[@]}" "${kspecs[@]}" -j 2 --timeout 300 --json "$work/out/guests.json" \
		>"$work/out/guests.txt" 2>"$work/out/guests.err"
	grc=$?
	cat "$work/out/guests.txt" >&2
	# the x86-specific examples (kprobe arguments, syscall wrappers) are
	# left out; some of the rest cannot load there (no JIT): exit 1
	[ "$grc" = 1 ] && pass guests/exit || fail guests/exit "relocore matrix exit $grc: $(tail -n 3 "$work/out/guests.err")"
	python3 - "$work/out/guests.json" "${#kspecs[@]}" >"$work/out/guests.judged" 2>&1 <<'PY'
import json, sys
doc, want = json.load(open(sys.argv[1])), int(sys.argv[2]) // 2
name = {o["id"]: o["name"] for o in doc["objects"]}
ok = lambda n, c, why="": print(f"PASS: crosscheck-be/guests/{n}" if c else f"FAIL: crosscheck-be/guests/{n}: {why}")
ok("kernels", len(doc["kernels"]) == want and all(k["status"] != "error" for k in doc["kernels"]),
   f"{len(doc['kernels'])} of {want}: {[k.get('error') for k in doc['kernels']]}")
for k in doc["kernels"]:
    progs = {(name[o["object"]], p["program"]): p for o in k.get("objects", []) for p in o["programs"]}
    bad = [f"{o}:{p} {v['verdict']} (check: {'ok' if v['predicted'] and v['predicted']['ok'] else 'fail'})"
           for (o, p), v in progs.items() if not v.get("agree")]
    ok(f"{k['name']}/check-agrees", progs and not bad, "; ".join(bad) or "no programs")
    # big-endian CO-RE, relocated by relocore in the guest: these attach
    for o, p in (("bitfields.bpf.o", "on_switch_bitfields"), ("schedstate.bpf.o", "on_switch"),
                 ("skbdrop.bpf.o", "on_kfree_skb"), ("ksymaddr.bpf.o", "ksymaddr")):
        v = progs.get((o, p), {}).get("verdict")
        ok(f"{k['name']}/{o}:{p}", v == "attached", f"verdict {v}")
    # and stock libbpf for s390x loads the same objects by its own CO-RE
    st = {name[o["object"]]: o["stock_libbpf"]["rc"] == 0 for o in k.get("objects", []) if "stock_libbpf" in o}
    mine = {name[o["object"]]: all(p["verdict"] in ("attached", "loaded") for p in o["programs"])
            for o in k.get("objects", []) if "stock_libbpf" in o}
    ok(f"{k['name']}/stock-libbpf", st and st == mine and sum(st.values()) >= 4,
       f"stock libbpf {st}, relocore run {mine}")
PY
	jrc=$?
	[ "$jrc" = 0 ] && grep -q '^PASS: ' "$work/out/guests.judged" && ! grep -q Traceback "$work/out/guests.judged" ||
		echo "FAIL: crosscheck-be/guests/judge: $(tail -n 3 "$work/out/guests.judged")" >>"$work/out/guests.judged"
	cat "$work/out/guests.judged"
	npass=$((npass + $(grep -c '^PASS: ' "$work/out/guests.judged")))
	nfail=$((nfail + $(grep -c '^FAIL: ' "$work/out/guests.judged")))
fi

k2=$(printf '%s\n' "${!btf[@]}" | sort | head -n1)
if "$R" archive create -o "$work/out/mixed.rcba" "$k2=${btf[$k2]}" "le=$("$RC_ROOT/vm/kernel-btf.sh" cloud-6.1 2>/dev/null)" >"$work/out/mixed.log" 2>&1; then
	fail mismatch/archive "an archive of big- and little-endian kernels was written"
else
	grep -q 'one byte order' "$work/out/mixed.log" && [ ! -e "$work/out/mixed.rcba" ] && pass mismatch/archive ||
		fail mismatch/archive "$(tail -n 1 "$work/out/mixed.log")"
fi

echo "crosscheck-be: $npass passed, $nfail failed in $(($(date +%s) - t0))s"
[ "$nfail" = 0 ]
