#!/usr/bin/env bash
# Run the lit suite; print PASS:/FAIL: lines for scripts/check.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lit=/usr/lib/llvm-14/build/utils/lit/lit.py
out=$(python3 "$lit" -v "$here" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -vE '^(PASS|FAIL): ' 
printf '%s\n' "$out" | sed -nE 's/^PASS: relocore :: (.*) \(.*/PASS: lit\/\1/p; s/^(FAIL|XPASS|UNRESOLVED): relocore :: (.*) \(.*/FAIL: lit\/\2/p'
exit $rc
