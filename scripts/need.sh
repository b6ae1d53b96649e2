# Sourced by scripts (through scripts/cache.sh or directly): the one way a
# script asks for an external tool.
#
#   need TOOL PACKAGE     TOOL: a command name, or an absolute path of a file
#
# Returns when TOOL is there.  Otherwise it prints which Debian package
# provides it and exits the script.  PACKAGE must be listed in
# scripts/deps.list and must be the package that ships TOOL: the "deps"
# suite of `make check` (test/deps/run.sh) checks both for every `need` of
# the tree, so adding a tool without its package fails on the developer's
# machine, not on a user's.
need() {
	local tool=$1 pkg=$2
	case "$tool" in
	/*) [ -e "$tool" ] && return 0 ;;
	*) command -v "$tool" >/dev/null 2>&1 && return 0 ;;
	esac
	echo "${0##*/}: $tool is missing: it comes with the Debian package $pkg (make deps, or apt-get install $pkg)" >&2
	exit 1
}
