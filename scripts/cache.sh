# Sourced by scripts: the cache directory outside the clone, and helpers.
RC_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/relocore"
mkdir -p "$RC_CACHE"
RC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RC_BUILD="$RC_ROOT/build"
# shellcheck source=need.sh
source "$RC_ROOT/scripts/need.sh"

# rc_linux_src: extract (once) the parts of Debian's linux-source-6.1 tarball
# that tests need, into the cache; prints the tree's path.  Pinned to 6.1.
rc_linux_src() {
	local tar=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tar" ] || { echo "linux-source-6.1 is not installed ($tar)" >&2; return 1; }
	local key
	key=$(stat -c '%s-%Y' "$tar")
	local dir="$RC_CACHE/linux-src-$key"
	if [ ! -f "$dir/.done" ]; then
		echo "cache: extracting tools/ and headers of $tar into $dir" >&2
		rm -rf "$dir" && mkdir -p "$dir"
		timeout 600 tar -xJf "$tar" -C "$dir" --strip-components=1 \
			--wildcards 'linux-source-6.1/tools/*' 'linux-source-6.1/include/*' \
			'linux-source-6.1/Makefile' 'linux-source-6.1/scripts/*' >&2 || return 1
		touch "$dir/.done"
	fi
	local v
	v=$(awk '/^VERSION/{a=$3}/^PATCHLEVEL/{b=$3}/^SUBLEVEL/{c=$3}END{print a"."b"."c}' "$dir/Makefile")
	case "$v" in 6.1.*) ;; *) echo "linux-source is $v, expected 6.1.x" >&2; return 1;; esac
	echo "$dir"
}

# The time report.  `make check` and `make demo` set RC_TIMES to
# build/times.tsv (the Makefile empties it first) and every long step appends
# one line to it; scripts/times.py prints the report.  Without RC_TIMES
# nothing is written.  A line (tab-separated):
#   KIND  NAME  SECONDS  START(epoch)  NOTE  WITHIN
# KIND: deps, build, suite, download, kernel-build, initramfs, guest, ...;
# WITHIN: the suite it ran in (RC_TIME_IN, set by scripts/check.sh)
rc_time() { # KIND NAME START [NOTE]
	[ -n "${RC_TIMES:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(( $(date +%s) - $3 ))" "$3" "${4:-}" "${RC_TIME_IN:-}" >>"$RC_TIMES"
}

# rc_cold_notice WHAT: say, before a long run, what a first run on this
# machine costs and what a warm one does (the cache decides which)
rc_cold_notice() {
	if ls "$RC_CACHE"/kernel/out/*/.done >/dev/null 2>&1 && ls "$RC_CACHE"/kernels/*/vmlinuz >/dev/null 2>&1; then
		echo "$1: warm cache ($RC_CACHE): kernels built and fetched before; make demo about 5 minutes, make check about 33, on 2 cores"
	else
		echo "$1: cold cache ($RC_CACHE): the first run downloads Debian's kernels and builds our patched"
		echo "$1:   kernels (about 13 minutes each on 2 cores; make demo and make check build 2: make demo"
		echo "$1:   about 31 minutes on a new machine, make check 63, measured; README: How long)"
	fi
}
