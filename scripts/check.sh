#!/usr/bin/env bash
# The whole test suite.  Every suite prints "PASS: name" / "FAIL: name: why"
# lines; this script runs them all, keeps going after a failure, and ends
# with one summary line "N passed, N failed".  Exit status non-zero on any
# failure (a suite that crashes without printing counts as one failure).
set -uo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

suites=(
	"deps:bash test/deps/run.sh"
	"unit:bash test/unit/run.sh"
	"lit:bash test/lit/run.sh"
	"llvm-versions:bash test/llvm-versions/run.sh"
	"fuzz-smoke:bash test/fuzz/smoke.sh"
	"badinput:bash test/badinput/run.sh"
	"selftests:bash test/selftests/run.sh"
	"crosscheck:bash test/crosscheck/run.sh"
	"difffuzz:bash test/crosscheck/difffuzz.sh smoke 60"
	"btf-extract:bash test/vm/btf-extract.sh"
	"btfgen:bash test/btfgen/run.sh"
	"install:bash test/install/run.sh"
	"deb:bash test/deb/run.sh"
	"vm:rm -rf build/examples && bash vm/matrix.sh"
	"kernel:bash test/kernel/run.sh"
)
# RC_SUITES="unit lit ...": only those suites, by name
if [ -n "${RC_SUITES:-}" ]; then
	picked=()
	for s in "${suites[@]}"; do
		[[ " $RC_SUITES " == *" ${s%%:*} "* ]] && picked+=("$s")
	done
	suites=("${picked[@]}")
fi

log_dir="$RC_BUILD/test-logs"
mkdir -p "$log_dir"
t_all=$(date +%s)
rc_cold_notice check

# progress: the lines of a suite's log that say what a long step is doing
# (downloads, kernel builds with their 30 s ticker, guests), and a line of
# our own after every 2 minutes without one
progress_re='^(kernel\[[^]]*\]: (downloading|unpacking|building|built|extracting|applying|configuring|ready|  \.\.\.)|kernel-btf: extracting|cache: |deps: |matrix: (compiling|kernels)|== vm/|vm\[[^]]*\]: (booting|guest finished|no results)|examples: generating|crosscheck: (progress|corpus)|libbpf-tools\[[^]]*\]: )'
passed=0
failed=0
for s in "${suites[@]}"; do
	name=${s%%:*}
	cmd=${s#*:}
	echo "== suite $name: $cmd"
	start=$(date +%s)
	: >"$log_dir/$name.log"
	(
		while sleep 120; do
			echo "   | $name: $(( $(date +%s) - start ))s so far; last: $(tail -n1 "$log_dir/$name.log" | cut -c1-100)"
		done
	) &
	ticker=$!
	bash -c "$cmd" 2>&1 | tee "$log_dir/$name.log" | grep --line-buffered -E "$progress_re" | sed -u 's/^/   | /'
	rc=${PIPESTATUS[0]}
	kill "$ticker" 2>/dev/null
	wait "$ticker" 2>/dev/null
	p=$(grep -c '^PASS: ' "$log_dir/$name.log")
	f=$(grep -c '^FAIL: ' "$log_dir/$name.log")
	grep -E '^(FAIL: |== )' "$log_dir/$name.log" | head -40
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name: exited $rc without naming a failed test; log tail:"
		tail -20 "$log_dir/$name.log" | sed 's/^/    /'
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name: ran no test"
		f=1
	fi
	echo "   $name: $p passed, $f failed ($(( $(date +%s) - start ))s; log $log_dir/$name.log)"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "check: all suites in $(( $(date +%s) - t_all ))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
