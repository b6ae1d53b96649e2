#!/usr/bin/env bash
# Run the lit suite; print PASS:/FAIL: lines for scripts/check.sh.
# The tests live in one folder per component (see README.md): reloc/ (the
# engine through explain/reloc), check/, kconfig/, pass/ (the clang plugin),
# btfgen/, embed/, cli/; shared inputs in Inputs/, helper scripts in tools/.
# Every test with LLVM 14 (lit/AREA/NAME); then the plugin tests (pass/)
# once more for each other LLVM whose plugin was built (build/lib/llvm-N/,
# one per installed llvm-N-dev), with that LLVM's clang, opt and FileCheck
# (lit --param llvm=N): lit/llvm-N/pass/NAME.  RC_LIT_LLVM="14 19" picks
# versions.
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
build=$(cd "$here/../.." && pwd)/build
rc=0
for v in ${RC_LIT_LLVM:-14 16 19}; do
	args=()
	if [ "$v" != 14 ]; then
		if [ ! -f "$build/lib/llvm-$v/relocore-pass.so" ]; then
			echo "lit: no build/lib/llvm-$v/relocore-pass.so (llvm-$v-dev not installed?): LLVM $v skipped"
			continue
		fi
		if [ "$v" = 16 ]; then
			need clang-16 clang-16
			need FileCheck-16 llvm-16-tools
		elif [ "$v" = 19 ]; then
			need clang-19 clang-19
			need FileCheck-19 llvm-19-tools
		fi
		args=(--param "llvm=$v" --filter ' :: pass/')
	fi
	out=$(python3 "$lit" -v "${args[@]}" "$here" 2>&1)
	r=$?
	[ $r = 0 ] || rc=$r
	printf '%s\n' "$out" | grep -vE '^(PASS|FAIL): '
	printf '%s\n' "$out" | sed -nE 's/^PASS: relocore(-llvm([0-9]+))? :: (.*) \(.*/PASS: lit\/\2\/\3/p; s/^(FAIL|XPASS|UNRESOLVED): relocore(-llvm([0-9]+))? :: (.*) \(.*/FAIL: lit\/\3\/\4/p' |
		sed -E 's|lit//|lit/|; s|lit/([0-9]+)/|lit/llvm-\1/|'
done
exit $rc
