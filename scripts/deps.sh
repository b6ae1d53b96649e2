#!/usr/bin/env bash
# Install the Debian packages relocore needs, when missing. Idempotent.
set -euo pipefail
pkgs=(clang llvm llvm-dev clang-16 python3 libbpf-dev libelf-dev zlib1g-dev liblzma-dev bpftool dwarves cmake make
      qemu-system-x86 busybox-static linux-source-6.1 cpio zstd xz-utils binutils
      libclang-rt-14-dev valgrind kmod lz4 bzip2)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	if [ "$(id -u)" != 0 ]; then
		echo "deps: need root to install packages" >&2
		exit 1
	fi
	timeout 900 apt-get update -qq
	DEBIAN_FRONTEND=noninteractive timeout 1800 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
