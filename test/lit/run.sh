#!/usr/bin/env bash
# Run the lit suite; print PASS:/FAIL: lines for scripts/check.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../scripts/need.sh
source "$here/../../scripts/need.sh"
lit=/usr/lib/llvm-14/build/utils/lit/lit.py
need /usr/lib/llvm-14/build/utils/lit/lit.py llvm-14-tools
need FileCheck-14 llvm-14-tools
need python3 python3
need llvm-readelf llvm
need bpftool bpftool
need bpf-gcc gcc-bpf
need llvm-objcopy llvm
need tar tar
need xz xz-utils
out=$(python3 "$lit" -v "$here" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -vE '^(PASS|FAIL): ' 
printf '%s\n' "$out" | sed -nE 's/^PASS: relocore :: (.*) \(.*/PASS: lit\/\1/p; s/^(FAIL|XPASS|UNRESOLVED): relocore :: (.*) \(.*/FAIL: lit\/\2/p'
exit $rc
