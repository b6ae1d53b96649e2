#!/usr/bin/env bash
# scripts/deps.sh [--list|--missing]: install the Debian packages of
# scripts/deps.list that are missing (idempotent; `make` runs it first).
#   --list      print the packages of the list, one a line, and exit
#   --missing   print the missing ones and exit 1 if there are any
set -euo pipefail
list="$(dirname "${BASH_SOURCE[0]}")/deps.list"
mapfile -t pkgs < <(awk '!/^[[:space:]]*(#|$)/ {print $1}' "$list")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
case "${1:-}" in
--list) printf '%s\n' "${pkgs[@]}"; exit 0 ;;
--missing) [ ${#missing[@]} -eq 0 ] || { printf '%s\n' "${missing[@]}"; exit 1; }; exit 0 ;;
-h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) echo "deps.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${#missing[@]} Debian packages (scripts/deps.list; a new machine: 2-5 minutes): ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install packages (or install them yourself: apt-get install ${missing[*]})" >&2
	exit 1
fi
start=$(date +%s)
timeout 900 apt-get update -qq
DEBIAN_FRONTEND=noninteractive timeout 1800 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed in $(( $(date +%s) - start ))s"
