#!/usr/bin/env bash
# Stand-in for relocore with the same command line: copies OBJ to OUT
# unchanged (no relocation at all).  Useful to check the selftest harness:
#   RELOCORE=test/selftests/relocore-identity.sh RC_SELFTEST_ALLOW_CORE_RELO=1 \
#       test/selftests/run.sh
# passes the cases whose local and target layouts coincide.
set -euo pipefail
[ "${1:-}" = reloc ] || { echo "usage: $0 reloc OBJ --btf T [--module M]... -o OUT" >&2; exit 2; }
shift
obj=$1; shift
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--btf|--module) shift 2 ;;
	-o) out=$2; shift 2 ;;
	*) echo "unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { echo "missing -o" >&2; exit 2; }
cp "$obj" "$out"
