#!/usr/bin/env bash
# kconfig-values.sh OBJ - print each symbol of OBJ's .rodata.kconfig (the section
# `relocore reloc --kernel-release` bakes) as "NAME @OFFSET = hex bytes",
# read from the ELF with llvm-readelf and od: independent of relocore.
set -euo pipefail
obj=$1
ndx=$(llvm-readelf -S --wide "$obj" | sed -nE 's/^ *\[ *([0-9]+)\] \.rodata\.kconfig .*/\1/p')
[ -n "$ndx" ] || { echo "no .rodata.kconfig in $obj"; exit 1; }
off=$(llvm-readelf -S --wide "$obj" | awk '$2 == ".rodata.kconfig" || $3 == ".rodata.kconfig" {for (i = 1; i <= NF; i++) if ($i == "PROGBITS") {print $(i + 2); exit}}')
llvm-readelf -s --wide "$obj" | awk -v n="$ndx" '$7 == n {print $8, $2, $3, $4, $5}' | sort |
while read -r name val size type bind; do
	printf '%s %s %s @%d =' "$name" "$type" "$bind" $((16#$val))
	od -An -tx1 -v -j $((16#$off + 16#$val)) -N "$size" "$obj" | tr -s ' \n' ' '
	echo
done
