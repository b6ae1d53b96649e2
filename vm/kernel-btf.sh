#!/usr/bin/env bash
# kernel-btf.sh NAME - print the path of the raw BTF (.BTF section) of the
# kernel NAME of vm/kernels.list, extracting it once.
#
#   NAME: cloud-6.1   linux-image-6.1.0-*-cloud-amd64-unsigned
#         cloud-6.12  linux-image-6.12.*+deb12-cloud-amd64-unsigned
#         rt-6.12     linux-image-6.12.*+deb12-rt-amd64-unsigned
#         (and any other line of vm/kernels.list)
#
# vm/kernel.sh NAME fetches the kernel (`apt-get download` + `dpkg -x`, no
# install) into $RC_CACHE/kernels/<package .deb file name>/; here the vmlinux
# ELF is recovered from the compressed payload of its vmlinuz (by finding the
# compressor's magic bytes, then decompressing from there), and its .BTF
# section is written out with objcopy.  An arm64 vmlinuz is a bare Image
# (no ELF): the .BTF is found by its header.  Either way the result must
# parse as BTF with a struct task_struct (bpftool).  Result, beside the kernel:
#   $RC_CACHE/kernels/<package .deb file name>/vmlinux.btf
# A kernel built by a `build` entry may leave vmlinux.btf itself.
# Set RC_KERNEL_PKG to pin a package name instead of picking the newest.
#
# vm/kernel-btf.sh --image VMLINUZ -o OUT: the same extraction from any
# image file, written to OUT (nothing when it fails; test/vm/kernel-btf.sh)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { echo "usage: $0 NAME (a kernel of $here/kernels.list) | --image VMLINUZ -o OUT" >&2; exit 2; }
img= btf=
if [ "${1:-}" = --image ]; then
	[ $# -eq 4 ] && [ "$3" = -o ] || usage
	img=$2 btf=$4
	[ -f "$img" ] || { echo "kernel-btf: no image file $img" >&2; exit 1; }
else
	[ $# -eq 1 ] || usage
fi
log() { echo "kernel-btf: $*" >&2; }
# shellcheck source=../scripts/cache.sh
source "$here/../scripts/cache.sh"
need objcopy binutils
need xz xz-utils
need zstd zstd
need lz4 lz4
need bzip2 bzip2
need gzip gzip

if [ -z "$img" ]; then
	if [ -n "${RC_KERNEL_PKG:-}" ]; then
		export "RC_KERNEL_PKG_$(tr -c 'A-Za-z0-9\n' _ <<<"$1")=$RC_KERNEL_PKG"
	fi
	dir=$("$here/kernel.sh" "$1")
	btf="$dir/vmlinux.btf"
	if [ -s "$btf" ]; then
		echo "$btf"
		exit 0
	fi
	exec 9>"$dir/.btf.lock"
	flock 9
	if [ -s "$btf" ]; then echo "$btf"; exit 0; fi
	img="$dir/vmlinuz"
	tmp=$(mktemp -d "$dir/.tmp.XXXXXX")
else
	tmp=$(mktemp -d)
fi
trap 'rm -rf "$tmp"' EXIT
log "extracting vmlinux from $img"
t_extract=$(date +%s)

# Try each compressor whose magic occurs in the image, at each occurrence,
# until one yields an ELF file (x86's bzImage: a compressed vmlinux inside).
# A payload that is no ELF file (s390x's: the raw vmlinux.bin) is kept for
# the search by header below.
payloads=()
try_payload() { # $1 = byte offset, $2.. = decompress command
	local off=$1; shift
	tail -c +"$((off + 1))" "$img" | timeout 300 "$@" >"$tmp/vmlinux" 2>/dev/null || true
	[ "$(head -c4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] && return 0
	if [ "$(stat -c %s "$tmp/vmlinux")" -gt 1048576 ]; then
		mv "$tmp/vmlinux" "$tmp/payload.${#payloads[@]}"
		payloads+=("$tmp/payload.${#payloads[@]}")
	fi
	return 1
}
magic4() { head -c4 "$1" | od -An -tx1 | tr -d ' \n'; }
found=
if [ "$(magic4 "$img")" = 7f454c46 ]; then
	cp "$img" "$tmp/vmlinux"; found=none
fi
[ -n "$found" ] || for spec in 'fd377a585a00|xz -dc' '28b52ffd|zstd -dcq' '1f8b08|gzip -dc' \
	    '425a68|bzip2 -dc' '5d000000|xz -dc --format=lzma' '02214c18|lz4 -dc'; do
	magic=${spec%%|*}; cmd=${spec#*|}
	command -v "${cmd%% *}" >/dev/null || continue
	pat=$(sed 's/../\\x&/g' <<<"$magic")
	while read -r off; do
		[ -n "$off" ] || continue
		# shellcheck disable=SC2086
		if try_payload "$off" $cmd; then found=$cmd; break 2; fi
	done < <(LC_ALL=C grep -obUaP "$pat" "$img" | cut -d: -f1 | head -n 8)
done
if [ -n "$found" ]; then
	log "payload decompressed with '$found'; extracting .BTF"
	objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/vmlinux.btf"
	[ -s "$tmp/vmlinux.btf" ] || { log "vmlinux has no .BTF section"; exit 1; }
else
	# No ELF inside: arm64's vmlinuz is the bare `Image` (or Image.gz), its
	# sections laid out with no headers; s390x's a compressed raw
	# vmlinux.bin.  Find the .BTF blob by its header (struct btf_header:
	# magic 0xeB9F, version 1, flags 0, hdr_len, type_off/len, str_off/len,
	# in either byte order: s390x's is big-endian) whose sections fit in the
	# image and whose string section starts and ends with NUL; take the
	# largest such blob (the kernel's; an embedded BPF object's own .BTF is
	# far smaller) and validate it below.
	raw=$img
	if [ "$(head -c3 "$img" | od -An -tx1 | tr -d ' \n')" = 1f8b08 ]; then
		log "$img is gzip'd: decompressing"
		timeout 300 gzip -dc "$img" >"$tmp/Image" 2>/dev/null || true
		raw=$tmp/Image
	fi
	log "no ELF payload in $img: looking for the .BTF blob by its header"
	need python3 python3
	python3 - "$tmp/vmlinux.btf" "$raw" ${payloads[@]+"${payloads[@]}"} <<'PY' >&2 || { log "no BTF blob found in $img"; exit 1; }
import struct, sys
best, seen = None, 0
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    for magic, order in ((b"\x9f\xeb\x01\x00", "<"), (b"\xeb\x9f\x01\x00", ">")):
        pos = 0
        while True:
            pos = data.find(magic, pos)
            if pos < 0:
                break
            seen += 1
            if pos + 24 <= len(data):
                hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from(order + "5I", data, pos + 4)
                end = pos + hdr_len + str_off + str_len
                strs = data[pos + hdr_len + str_off:end]
                if (24 <= hdr_len <= 256 and type_off % 4 == 0 and type_len > 0 and str_len > 0
                        and type_off + type_len <= str_off and end <= len(data)
                        and strs[:1] == b"\0" and strs[-1:] == b"\0"):
                    size = end - pos
                    if best is None or size > best[2]:
                        best = (data, pos, size, path)
            pos += 1
if best is None:
    print(f"kernel-btf: {seen} BTF magic(s) in {' '.join(sys.argv[2:])}, none with a header that fits")
    sys.exit(1)
data, pos, size, path = best
print(f"kernel-btf: BTF header at offset {pos:#x} of {path}: {size} bytes ({seen} magic(s) seen)")
open(sys.argv[1], "wb").write(data[pos:pos + size])
PY
fi
# whatever the route, the blob must parse as BTF (libbpf's checks, through
# bpftool) and describe a kernel: struct task_struct, and the tens of
# thousands of types of a vmlinux (a BPF object's own .BTF has a few hundred)
need bpftool bpftool
ntypes=0
if bpftool btf dump file "$tmp/vmlinux.btf" format raw >"$tmp/raw.txt" 2>"$tmp/bpftool.err"; then
	ntypes=$(grep -c '^\[' "$tmp/raw.txt" || true)
fi
if [ "$ntypes" -lt 10000 ] || ! grep -q "^\[[0-9]*\] STRUCT 'task_struct' " "$tmp/raw.txt"; then
	log "the BTF cut from $img does not parse as a kernel's BTF ($ntypes types; $(head -c 300 "$tmp/bpftool.err"))"
	exit 1
fi

chmod 644 "$tmp/vmlinux.btf"
mv "$tmp/vmlinux.btf" "$btf.tmp.$$" && mv "$btf.tmp.$$" "$btf"
rc_time btf-extract "$([ "$1" = --image ] && basename "$img" || echo "$1")" "$t_extract"
echo "$btf"
