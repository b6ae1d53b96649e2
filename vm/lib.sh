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
