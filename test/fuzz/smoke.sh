#!/usr/bin/env bash
# Fuzz smoke test: build the fuzzer and seeds (cached in build/fuzz/), run
# every seed and regression input once, then fuzz for a bounded time.
#   PASS: fuzz/smoke (N execs, 0 crashes)
#   FAIL: fuzz/smoke: ...   (with the reproducer's path)
# Environment: FUZZ_SECONDS (default 60).
set -uo pipefail
source "$(dirname "$0")/build.sh"

seconds=${FUZZ_SECONDS:-60}
log="$FUZZ_DIR/smoke.log"
art="$FUZZ_DIR/crashes/smoke-$(date +%Y%m%d-%H%M%S)-$$"

fuzz_build || { echo "FAIL: fuzz/smoke: could not build the fuzzer or its seeds"; exit 1; }
mkdir -p "$art"
: >"$log"

# 1. every seed and committed regression input, one by one
mapfile -t seeds < <(find "${FUZZ_DIRS[@]:1}" -type f | sort)
if ! "$FUZZ_BIN" "${seeds[@]}" >>"$log" 2>&1; then
	bad=$(grep '^Running: ' "$log" | tail -1 | sed 's/^Running: //')
	echo "FAIL: fuzz/smoke: seed input crashes: $bad"
	grep -m1 -E '^SUMMARY|invariant failed' "$log" | sed 's/^/    /'
	echo "    reproduce: $FUZZ_BIN $bad   (log $log)"
	exit 1
fi
echo "PASS: fuzz/seeds (${#seeds[@]} inputs)"

# 2. bounded fuzzing from the working corpus, the seeds and the regressions
"$FUZZ_BIN" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
	-print_final_stats=1 -artifact_prefix="$art/" \
	"${FUZZ_DIRS[@]}" >>"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
crashes=$(find "$art" -type f | wc -l)
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
	unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
	[ -n "$unit" ] || unit=$(find "$art" -type f | head -1)
	echo "FAIL: fuzz/smoke: fuzzer exited $rc after ${execs:-?} execs; reproducer: ${unit:-none}"
	grep -m3 -E '^SUMMARY|invariant failed|ERROR: ' "$log" | sed 's/^/    /'
	echo "    reproduce: $FUZZ_BIN ${unit:-<unit>}   (log $log)"
	exit 1
fi
rmdir "$art" 2>/dev/null
cov=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 | sed -E 's/.*(cov: [0-9]+ ft: [0-9]+).*/\1/')
echo "fuzz: ${execs:-0} execs in ${seconds}s, $cov, corpus $(ls "$FUZZ_CORPUS" | wc -l) files"
echo "PASS: fuzz/smoke (${execs:-0} execs, 0 crashes)"
