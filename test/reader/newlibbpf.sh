#!/usr/bin/env bash
# test/reader/newlibbpf.sh OPENER - a second libbpf for the reader suite:
# Debian trixie's libbpf1 (1.5 today), run without installing anything.
# Its shared library needs trixie's glibc, so the packages libbpf1, libc6,
# libelf1t64, zlib1g, libzstd1, liblzma5 and libbz2-1.0 are fetched from
# trixie through the private apt configuration the VM matrix uses
# (vm/lib.sh vm_apt; the system's sources are untouched), unpacked into
# $RC_CACHE/libbpf-new/<libbpf1 version>/ (kept by version), and OPENER
# (libbpf_open, built against the system's libbpf 1.1: the ABI is the
# same) runs under trixie's dynamic loader with their libraries.
# Prints the path of a wrapper that runs OPENER that way (OPENER's
# directory/libbpf_open_new); exits 1, saying
# why, when trixie or a package cannot be had (the suite then compares
# with the system's libbpf only, and says so).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../vm/lib.sh
source "$here/../../vm/lib.sh"
need apt-get apt
need dpkg-deb dpkg
opener=$1
vm_apt trixie >/dev/null 2>&1
ver=$(apt-cache "${VM_APT[@]}" policy libbpf1 2>/dev/null | awk '/Candidate:/ {print $2}')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || { echo "newlibbpf: trixie's libbpf1 is not in the lists" >&2; exit 1; }
dir="$RC_CACHE/libbpf-new/${ver//[:\/]/_}"
if [ ! -f "$dir/.done" ]; then
	echo "newlibbpf: fetching trixie's libbpf1 $ver and its runtime into $dir" >&2
	rm -rf "$dir" && mkdir -p "$dir/debs"
	for p in libbpf1 libc6 libelf1t64 zlib1g libzstd1 liblzma5 libbz2-1.0; do
		v=$(apt-cache "${VM_APT[@]}" policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
		(cd "$dir/debs" && timeout 300 apt-get "${VM_APT[@]}" download -q "$p=$v" >/dev/null 2>&1) ||
			{ echo "newlibbpf: apt-get download $p=$v (trixie) failed" >&2; rm -rf "$dir"; exit 1; }
	done
	for d in "$dir"/debs/*.deb; do
		dpkg-deb -x "$d" "$dir/root" || { echo "newlibbpf: cannot unpack $d" >&2; rm -rf "$dir"; exit 1; }
	done
	rm -rf "$dir/debs"
	touch "$dir/.done"
fi
ma=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
ld=$(ls "$dir"/root/usr/lib64/ld-linux-*.so.* "$dir"/root/lib64/ld-linux-*.so.* 2>/dev/null | head -1)
[ -n "$ld" ] || { echo "newlibbpf: no dynamic loader in trixie's libc6" >&2; exit 1; }
wrap="$(dirname "$opener")/libbpf_open_new"	# beside OPENER: the cache is shared by clones
cat >"$wrap.tmp" <<EOW
#!/bin/sh
exec "$ld" --library-path "$dir/root/usr/lib/$ma:$dir/root/lib/$ma" "$opener" "\$@"
EOW
chmod +x "$wrap.tmp" && mv "$wrap.tmp" "$wrap"
"$wrap" --version >/dev/null 2>&1 || { echo "newlibbpf: $wrap does not run" >&2; exit 1; }
echo "$wrap"
