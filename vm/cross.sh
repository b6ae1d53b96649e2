#!/usr/bin/env bash
# vm/cross.sh ARCH - relocore's static CLI and librelocore.a for guests of a
# foreign architecture (arm64, s390x), cross-compiled with Debian's
# gcc-aarch64-linux-gnu, gcc-s390x-linux-gnu against the sysroot of
# vm/sysroot.sh ARCH, in their own build directory: build/ARCH/ (CMake,
# cmake/cross-linux-gnu.cmake,
# -DRELOCORE_CLI_ONLY=ON; make keeps it incremental).  Prints the directory;
# build/ARCH/bin/relocore-static and build/ARCH/lib/librelocore.a are there.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 ARCH (arm64|s390x)" >&2; exit 2; }
arch=$1
log() { echo "cross[$arch]: $*" >&2; }
case "$arch" in
arm64) trip=aarch64-linux-gnu what='ARM aarch64' ;;
s390x) trip=s390x-linux-gnu what='IBM S/390' ;;
*) log "no cross build for '$arch' (arm64, s390x)"; exit 1 ;;
esac
tc="$RC_ROOT/cmake/cross-linux-gnu.cmake"
case "$arch" in
arm64) need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu ;;
s390x) need s390x-linux-gnu-gcc gcc-s390x-linux-gnu ;;
esac
need cmake cmake
need make make
need file file
sr=$("$VM_DIR/sysroot.sh" "$arch")
b="$RC_BUILD/$arch"
# reconfigure when the sysroot (package versions) changes
if [ "$(cat "$b/.configured" 2>/dev/null)" != "$sr $trip $(vm_sha "$tc")" ]; then
	log "configuring $b (sysroot $sr)"
	rm -rf "$b"
	cmake -S "$RC_ROOT" -B "$b" -G "Unix Makefiles" -DCMAKE_TOOLCHAIN_FILE="$tc" \
		-DRC_TRIPLET="$trip" -DRC_SYSROOT="$sr" -DRELOCORE_CLI_ONLY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$b.configure.log" 2>&1 ||
		{ tail -n 20 "$b.configure.log" >&2; log "cmake failed ($b.configure.log)"; exit 1; }
	echo "$sr $trip $(vm_sha "$tc")" >"$b/.configured"
fi
log "building relocore-static, librelocore.a in $b"
t_build=$(date +%s)
make --no-print-directory -C "$b" -j2 relocore-static relocore >"$b.build.log" 2>&1 ||
	{ grep -v 'getpw\|statically linked' "$b.build.log" | tail -n 20 >&2; log "make failed ($b.build.log)"; exit 1; }
file -L "$b/bin/relocore-static" | grep -q "$what.*statically linked" ||
	{ log "$b/bin/relocore-static is not a static $arch program: $(file -L "$b/bin/relocore-static")"; exit 1; }
rc_time cross-build "$arch" "$t_build"
echo "$b"
