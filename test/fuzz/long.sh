#!/usr/bin/env bash
# Long fuzzing run: long.sh SECONDS
# One worker (-fork=1) that keeps going after a crash, leak, timeout or
# out-of-memory, so one run collects every distinct failure it meets.
# Grows the working corpus build/fuzz/corpus; failures are written to
# build/fuzz/crashes/long-DATE/.  Prints progress every minute and at the
# end the executions, coverage and crashes.  Exits 1 if anything crashed.
set -uo pipefail
source "$(dirname "$0")/build.sh"

seconds=${1:?usage: long.sh SECONDS}
log="$FUZZ_DIR/long.log"
art="$FUZZ_DIR/crashes/long-$(date +%Y%m%d-%H%M%S)"

fuzz_build || exit 1
mkdir -p "$art"
echo "fuzz: $seconds s, log $log, failures in $art"
"$FUZZ_BIN" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
	-artifact_prefix="$art/" "${FUZZ_DIRS[@]}" \
	>"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null' INT TERM
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 60); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	grep -E '^#[0-9]+: cov:' "$log" | tail -1
done
wait "$pid"
rc=$?

last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
cov=$(sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+).*/\1/' <<<"$last")
failures=$(sed -E 's|.*oom/timeout/crash: ([0-9/]+).*|\1|' <<<"$last")
units=$(find "$art" -type f | sort)
n=$(grep -c . <<<"$units")
echo "fuzz: ${execs:-0} execs in ${seconds}s; $cov; oom/timeout/crash $failures; exit $rc"
echo "fuzz: $n failure input(s) in $art"
for u in $units; do
	echo "    $u   (reproduce: $FUZZ_BIN $u)"
done
[ "$n" -eq 0 ] && [ "$rc" -eq 0 ] && echo "PASS: fuzz/long (${execs:-0} execs, 0 crashes)" && exit 0
echo "FAIL: fuzz/long: $n failure input(s), fuzzer exit $rc"
exit 1
