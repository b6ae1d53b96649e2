#!/usr/bin/env bash
# The unit suite: every unit test binary, each printing PASS:/FAIL: lines;
# non-zero if any of them fails.
cd "$(dirname "$0")/../.." || exit 1
rc=0
for t in engine_test progtype_test; do
	if [ ! -x "build/bin/$t" ]; then
		echo "FAIL: unit/$t: build/bin/$t not built"
		rc=1
		continue
	fi
	"build/bin/$t" || rc=1
done
exit "$rc"
