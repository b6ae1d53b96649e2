#!/usr/bin/env bash
# test/matrix/run.sh: `relocore matrix` as a user runs it (vm/matrix.py).
#   - the example objects, the program types beyond tracing
#     (test/vm/progtypes) and three of Debian's libbpf-tools (binaries that
#     embed their objects) on Debian's 5.10 and 7.2, our minimal 6.1 built
#     without BTF (its BTF from pahole, shipped in the image), and a kernel
#     given by path (Debian's 6.1 image, modules and config: --kernel);
#     the JSON judged against what is known of the kernels
#     (test/matrix/judge.py), check's prediction against every verdict;
#   - the same run in two shards (--shard 1/2 from the build tree, 2/2 from
#     a `make install` copy run by the installed files alone), merged
#     (relocore matrix merge): every cell as in the one run;
#   - XDP and cgroup programs with no option naming where they attach:
#     loaded, not attached, what they need said, check agreeing, exit 0;
#   - the HTML page in a real headless browser (chromium-headless-shell):
#     it renders, every cell is there, a click shows a cell's details, no
#     console errors; a screenshot kept in build/matrix/;
#   - bad input: no such kernel, a file that is not BPF, a bad --kernel or
#     --shard (exit 2, a message); an image that does not boot and a guest
#     that outlives its timeout (a failed cell, exit 1, no stale cache).
# Prints PASS:/FAIL: lines for scripts/check.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/cache.sh
source "$root/scripts/cache.sh"
need chromium-headless-shell chromium-headless-shell
need qemu-system-x86_64 qemu-system-x86
need cmake cmake
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
out="$RC_BUILD/matrix"
mkdir -p "$out"
R="$RC_BUILD/bin/relocore"
pass() { echo "PASS: matrix/$1"; }
fail() { echo "FAIL: matrix/$1: $2"; }

# --- the objects ---------------------------------------------------------------
ex="$RC_BUILD/examples"
if ! ls "$ex"/*.bpf.o >/dev/null 2>&1; then
	ex="$t/examples"
	bash "$root/examples/build.sh" "$ex" >"$t/examples.log" 2>&1 || { fail objects "examples/build.sh"; exit 0; }
fi
bash "$root/examples/build.sh" "$t/pt" "$root"/test/vm/progtypes/*.bpf.c >"$t/pt.log" 2>&1 ||
	{ fail objects "examples/build.sh test/vm/progtypes"; exit 0; }
tl=$("$root/vm/tools.sh" amd64 2>"$t/tools.log") || { fail objects "vm/tools.sh amd64: $(tail -n1 "$t/tools.log")"; exit 0; }
tb="${tl%.cpio.gz}.bin"
objs=("$ex"/*.bpf.o "$t"/pt/*.bpf.o "$tb/opensnoop" "$tb/biolatency" "$tb/execsnoop")
opts=(--xdp count_xdp=lo --cgroup count_egress=/sys/fs/cgroup --tc count_tc=lo:ingress)
kd=$("$root/vm/kernel.sh" cloud-6.1 2>"$t/k.log") || { fail objects "vm/kernel.sh cloud-6.1"; exit 0; }
mine="mine-6.1=$kd/vmlinuz,modules=$kd/lib/modules/$(cat "$kd/release"),config=$kd/config"
kernels=cloud-5.10,cloud-7.2,ours-6.1-nobtf

# --- one run ---------------------------------------------------------------------
t0=$(date +%s)
"$R" matrix "${objs[@]}" "${opts[@]}" --kernels "$kernels" --kernel "$mine" \
	--json "$out/run.json" --markdown "$out/run.md" --html "$out/run.html" >"$out/run.txt" 2>"$out/run.err"
rc=$?
echo "matrix: ${#objs[@]} objects on 4 kernels in $(($(date +%s) - t0))s (rc $rc); table: build/matrix/run.txt"
# some programs cannot run on some of these kernels (as check predicts): 1
[ "$rc" = 1 ] && pass run-exit || fail run-exit "exit $rc, want 1 (programs fail on the older kernels): $(tail -n 3 "$out/run.err")"
if [ -s "$out/run.json" ]; then
	python3 "$here/judge.py" "$out/run.json"
	grep -q '^execsnoop.bpf.o:handle_exec ' "$out/run.txt" && awk 'length > 120 { exit 1 }' "$out/run.txt" &&
		pass table || fail table "no row execsnoop.bpf.o:handle_exec, or a line wider than 120 columns"
	grep -q '^| `getpid.bpf.o:getpid_entry` | ok | ok | ok | ok |$' "$out/run.md" && pass markdown ||
		fail markdown "no getpid_entry row ok on all four kernels"
else
	fail run "no JSON: $(tail -n 5 "$out/run.err")"
fi

# --- two shards, one from an installed copy, merged ---------------------------------
DESTDIR="$t/root" cmake --install "$RC_BUILD" --prefix /usr >"$t/install.log" 2>&1 || fail install "cmake --install: $(tail -n 2 "$t/install.log")"
inst="$t/root/usr"
if [ -x "$inst/lib/relocore/relocore-static" ] && [ -f "$inst/lib/relocore/vm/matrix.py" ]; then
	pass installed-files
else
	fail installed-files "no lib/relocore/relocore-static or vm/matrix.py under $inst"
fi
"$R" matrix "${objs[@]}" "${opts[@]}" --kernels "$kernels" --kernel "$mine" --shard 1/2 \
	--json "$t/s1.json" >"$t/s1.txt" 2>"$t/s1.err"
# the installed relocore finds its scripts beside its bin/ (PREFIX/lib/
# relocore: here the copy in DESTDIR), nothing of the tree
env -u RC_VM_KERNELS -u RELOCORE_MATRIX_DIR LD_LIBRARY_PATH="$inst/lib/$(gcc -print-multiarch)" \
	"$inst/bin/relocore" matrix "${objs[@]}" "${opts[@]}" --kernels "$kernels" --kernel "$mine" --shard 2/2 \
	--json "$t/s2.json" >"$t/s2.txt" 2>"$t/s2.err"
[ -s "$t/s2.json" ] && ! grep -q "$root/" "$t/s2.err" && pass installed-run ||
	fail installed-run "$(tail -n 3 "$t/s2.err")"
n1=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['kernels']))" "$t/s1.json" 2>/dev/null)
n2=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['kernels']))" "$t/s2.json" 2>/dev/null)
[ "$n1" = 2 ] && [ "$n2" = 2 ] && pass shards || fail shards "kernels per shard: $n1, $n2 (want 2, 2)"
"$R" matrix merge "$t/s2.json" "$t/s1.json" --json "$out/merged.json" >"$t/merge.txt" 2>&1
[ $? = 1 ] && pass merge-exit || fail merge-exit "$(tail -n 2 "$t/merge.txt")"
[ -s "$out/run.json" ] && [ -s "$out/merged.json" ] && python3 "$here/judge.py" --same "$out/run.json" "$out/merged.json" merge-equals-run
"$R" matrix merge "$t/s1.json" "$t/s1.json" >"$t/m2.txt" 2>&1
[ $? = 2 ] && grep -q "in two documents" "$t/m2.txt" && pass merge-twice || fail merge-twice "$(tail -n 1 "$t/m2.txt")"

# --- programs user space attaches, with no option saying where: loaded,
# not attached, what they need said (as check decides: ok), exit 0
"$R" matrix "$t/pt/xdpcount.bpf.o" "$t/pt/cgcount.bpf.o" --kernels cloud-7.2 --json "$t/needs.json" >"$t/needs.txt" 2>&1
rc=$?
if [ "$rc" = 0 ] && python3 - "$t/needs.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for o in d["kernels"][0]["objects"] for r in o["programs"]]
ok = len(rows) == 2 and all(r["verdict"] == "loaded" and r.get("needs", "").startswith("needs --") and r["agree"] for r in rows)
sys.exit(0 if ok else 1)
PY
then
	pass needs-option
else
	fail needs-option "exit $rc: $(grep -E 'count_' "$t/needs.txt" | tr '\n' ' ')"
fi

# --- the page in a real browser ----------------------------------------------------------
chrome() { timeout 120 chromium-headless-shell --no-sandbox --disable-gpu --allow-file-access-from-files \
	--enable-logging=stderr --v=0 "$@"; }
if [ -s "$out/run.html" ]; then
	chrome --window-size=1200,1000 --screenshot="$out/run.png" "file://$out/run.html" >/dev/null 2>"$t/shot.err"
	[ -s "$out/run.png" ] && pass html-screenshot || fail html-screenshot "no screenshot: $(grep -v dbus "$t/shot.err" | tail -n 2)"
	chrome --dump-dom "file://$out/run.html" >"$t/dom.html" 2>"$t/dom.err"
	want=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(o['object'], r['program']) for k in d['kernels'] for o in k['objects'] for r in o['programs']}
print(len(rows) * len(d['kernels']))" "$out/run.json")
	have=$(grep -o '<td class="c [a-z ]*"' "$t/dom.html" | wc -l)
	empty=$(grep -o '<td></td>' "$t/dom.html" | wc -l)
	[ "$((have + empty))" = "$want" ] && [ "$have" -gt 0 ] && pass html-cells ||
		fail html-cells "$have cells and $empty empty in the rendered page, want $want"
	grep -q ':CONSOLE' "$t/dom.err" && fail html-console "$(grep ':CONSOLE' "$t/dom.err" | head -n 2)" || pass html-console
	chrome --dump-dom "file://$here/click.html?$(python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))' "file://$out/run.html")" \
		>"$t/click.html" 2>"$t/click.err"
	if grep -q 'td.c.fail: .* on .*verdict: failed' "$t/click.html" && grep -q 'td.c.ok: .*verdict: attached' "$t/click.html"; then
		pass html-click
	else
		fail html-click "after clicks: $(sed -n '/<pre id="out">/,/<\/pre>/p' "$t/click.html" | head -n 4 | tr '\n' ' ')"
	fi
fi

# --- bad input ----------------------------------------------------------------------------
badin() { # NAME WANT-RC PATTERN ARGS...
	local n=$1 want=$2 pat=$3
	shift 3
	"$R" matrix "$@" >"$t/bad.out" 2>"$t/bad.err"
	local rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$t/bad.err" "$t/bad.out"; then
		pass "bad/$n"
	else
		fail "bad/$n" "exit $rc (want $want), said: $(tail -n 2 "$t/bad.err" | tr '\n' ' ')"
	fi
}
ls "$RC_CACHE"/matrix/ >"$t/cache.before"
badin no-kernel 2 "no kernel 'cloud-4.4'" "$ex/getpid.bpf.o" --kernels cloud-4.4
badin not-bpf 2 "no BPF ELF object" /etc/passwd --kernels cloud-7.2
badin no-file 2 "no such file" "$t/none.o" --kernels cloud-7.2
badin bad-kernel-spec 2 "NAME=VMLINUZ" "$ex/getpid.bpf.o" --kernel justaname
badin bad-kernel-key 2 "unknown or empty" "$ex/getpid.bpf.o" --kernel "x=$kd/vmlinuz,colour=red"
badin bad-shard 2 "K/N" "$ex/getpid.bpf.o" --kernels cloud-7.2 --shard 3/2
badin no-program 2 "no object has a program .nosuch." "$ex/getpid.bpf.o" --kernels cloud-7.2 --no-autoload nosuch
# an image that does not boot: the cell fails, the run says why, exit 1
head -c 4096 /dev/urandom >"$t/junk.img"
badin no-boot 1 "ERROR" "$ex/getpid.bpf.o" --kernel "junk=$t/junk.img,btf=$(dirname "$kd")/$(basename "$kd")/vmlinux.btf,arch=amd64"
grep -q '^junk: ERROR: the guest' "$t/bad.out" && pass bad/no-boot-cell || fail bad/no-boot-cell "$(grep '^junk' "$t/bad.out")"
# a guest that outlives its timeout (objects attached for 300 s, a 40 s
# limit: the guest's own timer stops the run and hands back what it has)
badin hang 1 "matrix: FAIL" "$ex/getpid.bpf.o" --kernels cloud-7.2 --duration 300 --timeout 40
# (the summary's second line, under the kernel's)
grep -A1 '^cloud-7.2: ' "$t/bad.out" | grep -q '^  relocore run did not finish on 00-getpid.bpf.o' && pass bad/hang-cell ||
	fail bad/hang-cell "$(grep -A1 '^cloud-7.2' "$t/bad.out")"
ls "$RC_CACHE"/matrix/ >"$t/cache.after"
stale=$(comm -13 "$t/cache.before" "$t/cache.after" | grep -E '\.tmp\.|^\.user\.' || true)
[ -z "$stale" ] && pass bad/no-stale-cache || fail bad/no-stale-cache "left: $stale"
