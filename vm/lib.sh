# Sourced by vm/*.sh: kernels.list access and small helpers.
# shellcheck source=../scripts/cache.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/cache.sh"
VM_DIR="$RC_ROOT/vm"
VM_LIST="${RC_VM_KERNELS:-$VM_DIR/kernels.list}"

# vm_names: every kernel NAME of kernels.list, in order.
vm_names() { awk '!/^[[:space:]]*(#|$)/ {print $1}' "$VM_LIST"; }

# vm_entry NAME: prints "KIND SPEC BTF" of NAME (BTF defaults to sysfs).
vm_entry() {
	local line
	line=$(awk -v n="$1" '!/^[[:space:]]*(#|$)/ && $1 == n {print $2, $3, ($4 == "" ? "sysfs" : $4); exit}' "$VM_LIST")
	[ -n "$line" ] || { echo "vm: no kernel '$1' in $VM_LIST (have: $(vm_names | tr '\n' ' '))" >&2; return 1; }
	echo "$line"
}

# vm_tools_only: the tools of test/vm/tools.list a guest runs when
# RC_VM_TOOLS names a part of them, one a line: RC_VM_TOOLS=truth (the
# tools with a ground-truth mode: make demo's part), or a comma-separated
# list of names.  Nothing when RC_VM_TOOLS is 1 (every tool: the default) or
# 0 (none).  An unknown name is an error.
vm_tools_only() {
	local sel=${RC_VM_TOOLS:-1} list="$RC_ROOT/test/vm/tools.list" t
	case "$sel" in
	0|1) return 0 ;;
	truth) awk -F'|' '!/^[[:space:]]*(#|$)/ { t = $4; gsub(/[[:space:]]/, "", t); n = $1; gsub(/[[:space:]]/, "", n); if (t != "-" && t != "") print n }' "$list" ;;
	*)
		for t in ${sel//,/ }; do
			awk -F'|' -v n="$t" '!/^[[:space:]]*(#|$)/ { x = $1; gsub(/[[:space:]]/, "", x); if (x == n) f = 1 } END { exit !f }' "$list" ||
				{ echo "vm: RC_VM_TOOLS names $t, which test/vm/tools.list does not have" >&2; return 1; }
			echo "$t"
		done ;;
	esac
}

# vm_idioms_on NAME: does kernel NAME's guest load the reader's idiom corpus
# (test/reader: stock libbpf against relocore run)?  RC_VM_IDIOMS names the
# kernels (default: Debian's 6.1 and 7.2 cloud kernels, the oldest and the
# newest that load most of it; "" none).  About 90 s of guest time each.
vm_idioms_on() {
	case " ${RC_VM_IDIOMS-cloud-6.1 cloud-7.2} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# vm_progtypes_on NAME: does kernel NAME's guest run the program types
# beyond tracing (test/vm/progtypes: XDP and cgroup_skb counting pings on
# lo, a task iterator read through, a syscall program run once)?
# RC_VM_PROGTYPES names the kernels (default: Debian's 5.10, 6.1 and 7.2
# cloud kernels; "" none).  About 5 s of guest time each.
vm_progtypes_on() {
	case " ${RC_VM_PROGTYPES-cloud-5.10 cloud-6.1 cloud-7.2} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# vm_kernel NAME, vm_btf NAME: what vm/kernel.sh NAME (the kernel's
# directory) and vm/kernel-btf.sh NAME (its BTF file) print.  Asking costs
# 0.3-0.6 s (cache keys: the apt lists, the kernel build's hash) and a
# matrix run asks hundreds of times, so with RC_VM_MEMO set (a directory:
# vm/matrix.sh makes one per run) each answer is asked for once.
vm_memo() { # KIND NAME COMMAND...
	local kind=$1 name=$2 out f
	shift 2
	f="${RC_VM_MEMO:-}/$kind-$name"
	if [ -n "${RC_VM_MEMO:-}" ] && [ -s "$f" ]; then cat "$f"; return 0; fi
	out=$("$@") || return 1
	if [ -n "${RC_VM_MEMO:-}" ]; then printf '%s\n' "$out" >"$f.$$" && mv "$f.$$" "$f"; fi
	printf '%s\n' "$out"
}
vm_kernel() { vm_memo kernel "$1" "$VM_DIR/kernel.sh" "$1"; }
vm_btf() { vm_memo btf "$1" "$VM_DIR/kernel-btf.sh" "$1"; }

# vm_sha FILE...: short content hash of files (for cache keys).
vm_sha() { cat "$@" | sha256sum | cut -c1-16; }

# vm_arch NAME: the Debian architecture of kernel NAME (ARCH, the fifth
# column of kernels.list; default amd64): amd64 or arm64.
vm_arch() {
	local a
	a=$(awk -v n="$1" '!/^[[:space:]]*(#|$)/ && $1 == n {print ($5 == "" ? "amd64" : $5); exit}' "$VM_LIST")
	case "$a" in
	amd64|arm64|s390x) echo "$a" ;;
	"") echo "vm: no kernel '$1' in $VM_LIST" >&2; return 1 ;;
	*) echo "vm: kernel '$1': unknown ARCH '$a' (amd64|arm64|s390x)" >&2; return 1 ;;
	esac
}
# vm_archs NAME...: the distinct architectures of these kernels, in order
vm_archs() { local k; for k in "$@"; do vm_arch "$k"; done | awk '!seen[$0]++'; }
# vm_host_arch: the host's Debian architecture (amd64)
vm_host_arch() { dpkg --print-architecture; }

# vm_apt SUITE [ARCH]: set VM_APT to the apt-get/apt-cache options that reach
# SUITE ("system": the system's own sources).  Other suites (bullseye, sid,
# ...) get a private configuration under $RC_CACHE/apt/SUITE (sources, lists,
# cache), made and updated once; the system's sources are never touched.
# VM_APT_ARCHS (e.g. "amd64 arm64") adds architectures.  A foreign ARCH
# (arm64 on an amd64 host) gets its own private configuration,
# $RC_CACHE/apt/SUITE-ARCH, whose sources say [arch=ARCH] ("system" is then
# the system's release, e.g. bookworm); VM_APT_ARCH is set to ARCH and
# packages are named PKG:ARCH (apt-get download only: `dpkg
# --add-architecture` is never needed).
vm_apt() {
	VM_APT_SUITE=$1
	VM_APT_ARCH=${2:-}
	VM_APT=(-o APT::Sandbox::User=root)
	[ "$VM_APT_ARCH" != "$(vm_host_arch)" ] || VM_APT_ARCH=
	if [ -n "$VM_APT_ARCH" ] && [ "$1" = system ]; then
		VM_APT_SUITE=$(. /etc/os-release && echo "$VERSION_CODENAME")
	fi
	[ "$VM_APT_SUITE" = system ] && return 0
	local d="$RC_CACHE/apt/$VM_APT_SUITE${VM_APT_ARCH:+-$VM_APT_ARCH}" a opt="signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
	[ -z "$VM_APT_ARCH" ] || opt="arch=$VM_APT_ARCH $opt"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	{
		echo "deb [$opt] http://deb.debian.org/debian $VM_APT_SUITE main"
		case "$VM_APT_SUITE" in
		sid|unstable|experimental) ;;
		*) echo "deb [$opt] http://deb.debian.org/debian-security $VM_APT_SUITE-security main" ;;
		esac
	} >"$d/sources.list.new.$BASHPID"
	# concurrent callers (crosscheck runs two kernels at a time): each its
	# own temporary file, renamed into place atomically only when different
	if cmp -s "$d/sources.list.new.$BASHPID" "$d/sources.list"; then
		rm -f "$d/sources.list.new.$BASHPID"
	else
		mv "$d/sources.list.new.$BASHPID" "$d/sources.list"
	fi
	# the mirror may serve a snapshot whose Release files are past their
	# Valid-Until (sid's are valid for a week): they are still signed and
	# checked against Debian's keyring; only the expiry is not enforced, as
	# the machine's own apt configuration does for its sources
	VM_APT+=(-o Acquire::Check-Valid-Until=false -o Acquire::Check-Date=false)
	VM_APT+=(-o Dir::Etc::sourcelist="$d/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache")
	for a in ${VM_APT_ARCHS:-} $VM_APT_ARCH; do VM_APT+=(-o APT::Architectures::="$a"); done
	VM_APT_LISTS=$d/lists
	ls "$d"/lists/*Packages* >/dev/null 2>&1 || vm_apt_update
}
# vm_apt_pkg PKG: PKG as apt must name it for VM_APT_ARCH (PKG:arm64)
vm_apt_pkg() { echo "$1${VM_APT_ARCH:+:$VM_APT_ARCH}"; }
# vm_apt_update: refresh the lists of the current private configuration.
# Callers run side by side (crosscheck: two kernels at a time): one update
# at a time under a lock, and a caller that waited for another's update
# uses its lists instead of updating again.
vm_apt_update() {
	local d=${VM_APT_LISTS:-} before fd
	d=${d%/lists}
	[ "$VM_APT_SUITE" = system ] && d=$RC_CACHE/apt
	mkdir -p "$d"
	before=$(vm_apt_stamp)
	exec {fd}>"$d/.update.lock"
	flock "$fd"
	if [ "$(vm_apt_stamp)" = "$before" ] || [ -z "$before$(vm_apt_stamp)" ]; then
		echo "vm: apt-get update ($VM_APT_SUITE${VM_APT_ARCH:+ $VM_APT_ARCH})" >&2
		timeout 600 apt-get "${VM_APT[@]}" update -qq >&2 ||
			echo "vm: apt-get update ($VM_APT_SUITE) failed" >&2
	fi
	exec {fd}>&-
}
# vm_apt_stamp: the newest list's mtime (a resolution is kept until it changes)
vm_apt_stamp() {
	local l=/var/lib/apt/lists
	[ "$VM_APT_SUITE" = system ] || l=$VM_APT_LISTS
	# (no lists yet on a new machine: nothing, and not a failure)
	{ stat -c %Y "$l"/*Packages* 2>/dev/null || true; } | sort -n | tail -n1
}
