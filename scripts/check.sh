#!/usr/bin/env bash
# The whole test suite.  Every suite prints "PASS: name" / "FAIL: name: why"
# lines; this script runs them all, keeps going after a failure, and ends
# with one summary line "N passed, N failed".  Exit status non-zero on any
# failure (a suite that crashes without printing counts as one failure).
#
# Suites run in phases, one phase after another (a phase reads what earlier
# ones left: difffuzz the crosscheck corpus and the fuzzer's seeds).  In a
# phase marked "two", two suites run side by side (most of them keep one
# core busy; the machine has two); a "solo" suite runs alone (the VM suites
# run a guest per core, crosscheck builds kernels).  An "idle" suite starts
# with its phase, beside the others and outside their two slots, at the
# lowest priority (nice 19): it takes only what they leave (the vm suite's
# guests wait on timers: alone it keeps 0.9 of two cores busy).  Each
# suite's lines are
# printed together when it ends; its progress lines (downloads, kernel
# builds, guests) as they come, prefixed with its name.
#   RC_SUITES="unit lit ..."   only those suites, by name
#   RC_CHECK_JOBS=1            every suite alone, one after another
set -uo pipefail
source "$(dirname "$0")/cache.sh"
cd "$RC_ROOT"

# NAME  PHASE  MODE  COMMAND
suites=(
	"deps          1 solo bash test/deps/run.sh"
	"unit          2 two  bash test/unit/run.sh"
	"lit           2 two  bash test/lit/run.sh"
	"llvm-versions 2 two  bash test/llvm-versions/run.sh"
	"fuzz-smoke    2 two  bash test/fuzz/smoke.sh"
	"badinput      2 two  bash test/badinput/run.sh"
	"selftests     2 two  bash test/selftests/run.sh"
	"crosscheck    3 solo bash test/crosscheck/run.sh"
	"crosscheck-be 4 two  bash test/crosscheck/be.sh"
	"btf-extract   4 two  bash test/vm/btf-extract.sh"
	"btfgen        4 two  bash test/btfgen/run.sh"
	"reader        4 two  bash test/reader/run.sh"
	"install       4 two  bash test/install/run.sh"
	"faults        4 two  bash test/faults/run.sh"
	"deb           4 two  bash test/deb/run.sh"
	"difffuzz      5 idle bash test/crosscheck/difffuzz.sh smoke 60"
	"vm            5 solo rm -rf build/examples && bash vm/matrix.sh"
	"matrix        6 solo bash test/matrix/run.sh"
	"kernel        6 solo bash test/kernel/run.sh"
)
if [ -n "${RC_SUITES:-}" ]; then
	picked=()
	for s in "${suites[@]}"; do
		[[ " $RC_SUITES " == *" ${s%% *} "* ]] && picked+=("$s")
	done
	suites=("${picked[@]}")
fi
jobs=${RC_CHECK_JOBS:-2}

log_dir="$RC_BUILD/test-logs"
mkdir -p "$log_dir"
t_all=$(date +%s)
rc_cold_notice check

# progress: the lines of a suite's log that say what a long step is doing
# (downloads, kernel builds with their 30 s ticker, guests), and a line of
# our own after every 2 minutes without one
progress_re='^(kernel\[[^]]*\]: (downloading|unpacking|building|built|extracting|applying|configuring|seeding|ready|  \.\.\.)|kernel-btf: extracting|cache: |deps: |matrix: (compiling|kernels)|== vm/|vm\[[^]]*\]: (booting|guest finished|no results)|examples: generating|crosscheck: (progress|corpus)|libbpf-tools\[[^]]*\]: )'

# run_suite NAME COMMAND: run it; its output goes to NAME.log (progress lines
# to stdout), its verdict to NAME.result: "PASSED FAILED WALL CPU RC"
run_suite() {
	local name=$1 cmd=$2 start rc ticker cpu
	start=$(date +%s)
	: >"$log_dir/$name.log"
	(
		while sleep 120; do
			echo "   | $name: $(( $(date +%s) - start ))s so far; last: $(tail -n1 "$log_dir/$name.log" | cut -c1-100)"
		done
	) &
	ticker=$!
	# user + system seconds of the suite and everything it ran
	TIMEFORMAT='%U %S'
	{ time {
		RC_TIME_IN=$name bash -c "$cmd" 2>&1 | tee "$log_dir/$name.log" | grep --line-buffered -E "$progress_re" | sed -u -e "/^$name: /!s/^/$name: /" -e 's/^/   | /'
		echo "${PIPESTATUS[0]}" >"$log_dir/$name.rc"
	}; } 2>"$log_dir/$name.cpu"
	kill "$ticker" 2>/dev/null
	wait "$ticker" 2>/dev/null
	rc=$(cat "$log_dir/$name.rc")
	cpu=$(awk '{ printf "%d", $1 + $2 }' "$log_dir/$name.cpu")
	rc_time suite "$name" "$start" "cpu ${cpu}s"
	echo "$(grep -c '^PASS: ' "$log_dir/$name.log") $(grep -c '^FAIL: ' "$log_dir/$name.log") $(( $(date +%s) - start )) $cpu $rc" \
		>"$log_dir/$name.result.tmp"
	mv "$log_dir/$name.result.tmp" "$log_dir/$name.result"
}

# report NAME COMMAND: print a finished suite's lines; add to the counts
passed=0
failed=0
report() {
	local name=$1 cmd=$2 p f wall cpu rc
	read -r p f wall cpu rc <"$log_dir/$name.result"
	echo "== suite $name: $cmd"
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
	echo "   $name: $p passed, $f failed (${wall}s, cpu ${cpu}s; log $log_dir/$name.log)"
	passed=$((passed + p))
	failed=$((failed + f))
}

declare -A cmd_of pid_of idle_of
running=()	# names of the suites running in the background
reap() { # report the background suites that have ended
	local n still=()
	for n in "${running[@]}"; do
		if [ -f "$log_dir/$n.result" ]; then report "$n" "${cmd_of[$n]}"; else still+=("$n"); fi
	done
	running=("${still[@]}")
}
wait_all() { wait; reap; }
# the background suites that hold one of the $jobs slots (not the idle ones)
busy() {
	local n c=0
	for n in "${running[@]}"; do [ -n "${idle_of[$n]:-}" ] || c=$((c + 1)); done
	echo "$c"
}
wait_busy() { # wait for the suites that hold a slot; idle ones run on
	local n
	for n in "${running[@]}"; do
		[ -n "${idle_of[$n]:-}" ] || wait "${pid_of[$n]}" 2>/dev/null
	done
	reap
}

phase=
for s in "${suites[@]}"; do
	read -r name ph mode cmd <<<"$s"
	cmd_of[$name]=$cmd
	rm -f "$log_dir/$name.result"
	[ "$ph" = "$phase" ] || wait_all
	phase=$ph
	if [ "$mode" = idle ] && [ "$jobs" -gt 1 ]; then
		echo "== suite $name (running at low priority, beside phase $ph): $cmd"
		# (renice the subshell: what it starts inherits the priority)
		( renice -n 19 -p "$BASHPID" >/dev/null; run_suite "$name" "$cmd" ) &
		pid_of[$name]=$!
		idle_of[$name]=1
		running+=("$name")
		continue
	fi
	if [ "$mode" = solo ] || [ "$jobs" -le 1 ]; then
		wait_busy
		echo "== suite $name (running): $cmd"
		run_suite "$name" "$cmd"
		report "$name" "$cmd"
		continue
	fi
	while [ "$(busy)" -ge "$jobs" ]; do
		wait -n
		reap
	done
	echo "== suite $name (running, $(($(busy) + 1)) side by side): $cmd"
	run_suite "$name" "$cmd" &
	pid_of[$name]=$!
	running+=("$name")
done
wait_all
echo "check: all suites in $(( $(date +%s) - t_all ))s"
# where the time went (make check sets RC_TIMES: the Makefile)
[ -z "${RC_TIMES:-}" ] || python3 "$RC_ROOT/scripts/times.py" "$RC_TIMES"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
