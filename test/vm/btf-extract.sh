#!/usr/bin/env bash
# test/vm/btf-extract.sh - vm/kernel-btf.sh cuts a kernel's BTF out of its
# vmlinuz: through the compressed ELF payload (x86_64 bzImage) or, with no
# ELF inside (arm64's bare Image, or Image.gz), by the BTF header.  Checked
# on Debian's kernels of the list (cached) and on made-up images:
#   arm64/raw, arm64/gzip       the Image and a gzip'd copy give the same BTF,
#                               which parses and has struct task_struct
#   x86/bzimage                 the bzImage's .BTF == vm/kernel-btf.sh's
#   synthetic/largest           random bytes around a small valid BTF (an
#                               object's .BTF) and a kernel's: the kernel's,
#                               byte for byte, at its offset
#   bad/truncated, bad/corrupt, bad/none
#                               cut inside the BTF, its types overwritten,
#                               no BTF at all: a non-zero exit naming the
#                               image, and no output file
set -uo pipefail
source "$(dirname "$0")/../../vm/lib.sh"
need python3 python3
need llvm-objcopy llvm
need gzip gzip
cd "$RC_ROOT"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
pass() { echo "PASS: btf-extract/$1"; }
fail() { echo "FAIL: btf-extract/$1: $2"; fails=$((fails + 1)); }
X=vm/kernel-btf.sh

a=$(vm/kernel.sh arm64-6.1) || { fail arm64/fetch "vm/kernel.sh arm64-6.1"; exit 1; }
if bash $X --image "$a/vmlinuz" -o "$t/raw.btf" >/dev/null 2>"$t/raw.log" &&
	bpftool btf dump file "$t/raw.btf" format raw >"$t/raw.txt" 2>&1 && grep -q "STRUCT 'task_struct' " "$t/raw.txt"; then
	pass arm64/raw
else
	fail arm64/raw "$(tail -n 2 "$t/raw.log")"
fi
gzip -c "$a/vmlinuz" >"$t/Image.gz"
if bash $X --image "$t/Image.gz" -o "$t/gz.btf" >/dev/null 2>"$t/gz.log" && cmp -s "$t/gz.btf" "$t/raw.btf"; then
	pass arm64/gzip
else
	fail arm64/gzip "$(tail -n 2 "$t/gz.log")"
fi

x=$(vm/kernel.sh cloud-6.1) && xb=$(vm/kernel-btf.sh cloud-6.1) || { fail x86/fetch "cloud-6.1"; exit 1; }
if bash $X --image "$x/vmlinuz" -o "$t/x86.btf" >/dev/null 2>"$t/x86.log" && cmp -s "$t/x86.btf" "$xb"; then
	pass x86/bzimage
else
	fail x86/bzimage "$(tail -n 2 "$t/x86.log")"
fi

# a small valid BTF: the .BTF section of a tiny BPF object compiled here
# (a fresh clone has no build/examples yet)
need clang clang
small="$t/tiny.bpf.o"
printf 'struct tiny { int a; long b; };\nstruct tiny t;\n' >"$t/tiny.c"
clang -target bpf -O2 -g -c "$t/tiny.c" -o "$small" ||
	{ fail synthetic/make "clang could not compile a tiny BPF object"; exit 1; }
llvm-objcopy --dump-section .BTF="$t/small.btf" "$small" "$t/small.o" && [ -s "$t/small.btf" ] ||
	{ fail synthetic/make "no .BTF in $small"; exit 1; }
python3 - "$t" <<'PY' || { fail synthetic/make "python"; exit 1; }
import os, sys
t = sys.argv[1]
r = lambda n: os.urandom(n).replace(b"\x9f\xeb", b"\x00\x00")   # no stray magic
small = open(f"{t}/small.btf", "rb").read()
big = open(f"{t}/raw.btf", "rb").read()
img = r(4096) + small + r(1 << 20)
off = len(img)
img += big + r(8192)
open(f"{t}/synthetic.img", "wb").write(img)
open(f"{t}/synthetic.off", "w").write(str(off))
cut = img[:off + len(big) // 2]
open(f"{t}/truncated.img", "wb").write(cut)
bad = bytearray(img)
hdr = int.from_bytes(bad[off + 4:off + 8], "little")
for i in range(off + hdr, off + hdr + 4096, 16):    # kinds and sizes of the first types
    bad[i:i + 16] = b"\xff" * 16
open(f"{t}/corrupt.img", "wb").write(bytes(bad))
open(f"{t}/none.img", "wb").write(r(1 << 20))
PY
if bash $X --image "$t/synthetic.img" -o "$t/syn.btf" >/dev/null 2>"$t/syn.log" && cmp -s "$t/syn.btf" "$t/raw.btf" &&
	grep -q "BTF header at offset $(printf '%#x' "$(cat "$t/synthetic.off")")" "$t/syn.log"; then
	pass synthetic/largest
else
	fail synthetic/largest "$(tail -n 2 "$t/syn.log")"
fi
# truncated: only the object's small BTF is whole, and it is no kernel's
declare -A why=([truncated]="does not parse as a kernel's BTF" [corrupt]="does not parse as a kernel's BTF"
	[none]="0 BTF magic(s)")
for b in truncated corrupt none; do
	[ -s "$t/$b.img" ] || { fail "bad/$b" "no test image"; continue; }
	rm -f "$t/$b.btf"
	bash $X --image "$t/$b.img" -o "$t/$b.btf" >/dev/null 2>"$t/$b.log"
	rc=$?
	if [ $rc -ne 0 ] && [ ! -e "$t/$b.btf" ] && grep -q "$t/$b.img" "$t/$b.log" &&
		grep -qF "${why[$b]}" "$t/$b.log"; then
		pass "bad/$b"
	else
		fail "bad/$b" "rc $rc, output $([ -e "$t/$b.btf" ] && echo written || echo none): $(tail -n 1 "$t/$b.log")"
	fi
done
echo "btf-extract: $fails failure(s)"
[ $fails -eq 0 ]
