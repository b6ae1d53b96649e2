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

# vm_sha FILE...: short content hash of files (for cache keys).
vm_sha() { cat "$@" | sha256sum | cut -c1-16; }

# vm_apt SUITE: set VM_APT to the apt-get/apt-cache options that reach SUITE
# ("system": the system's own sources).  Other suites (bullseye, sid, ...)
# get a private configuration under $RC_CACHE/apt/SUITE (sources, lists,
# cache), made and updated once; the system's sources are never touched.
# VM_APT_ARCHS (e.g. "amd64 arm64") adds architectures.
vm_apt() {
	VM_APT_SUITE=$1
	VM_APT=(-o APT::Sandbox::User=root)
	[ "$1" = system ] && return 0
	local d="$RC_CACHE/apt/$1" a
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	{
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $1 main"
		case "$1" in
		sid|unstable|experimental) ;;
		*) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $1-security main" ;;
		esac
	} >"$d/sources.list.new"
	cmp -s "$d/sources.list.new" "$d/sources.list" && rm -f "$d/sources.list.new" || mv "$d/sources.list.new" "$d/sources.list"
	VM_APT+=(-o Dir::Etc::sourcelist="$d/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache")
	for a in ${VM_APT_ARCHS:-}; do VM_APT+=(-o APT::Architectures::="$a"); done
	ls "$d"/lists/*Packages* >/dev/null 2>&1 || vm_apt_update
}
vm_apt_update() {
	echo "vm: apt-get update ($VM_APT_SUITE)" >&2
	timeout 600 apt-get "${VM_APT[@]}" update -qq >&2 || true
}
# vm_apt_stamp: the newest list's mtime (a resolution is kept until it changes)
vm_apt_stamp() {
	local l=/var/lib/apt/lists
	[ "$VM_APT_SUITE" = system ] || l="$RC_CACHE/apt/$VM_APT_SUITE/lists"
	stat -c %Y "$l"/*Packages* 2>/dev/null | sort -n | tail -n1
}
