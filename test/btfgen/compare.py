#!/usr/bin/env python3
"""compare.py FULL.json MIN.json NAME - do two `relocore explain --json`
outputs decide every relocation the same way?  Type ids differ between a
full and a minimized BTF (types are renumbered), so target_type_id values
and target type ids are compared by the type they name, and the target
access path (member indices, which a minimized struct renumbers) by the
bit offset it leads to; everything else (result, old and new values)
exactly.
Prints PASS:/FAIL: lines; exit 1 on any difference."""
import json
import sys

full, mini, name = sys.argv[1:4]
a = json.load(open(full))["relocations"]
b = json.load(open(mini))["relocations"]
bad = []
if len(a) != len(b):
    bad.append(f"{len(a)} relocations against full, {len(b)} against min")
for x, y in zip(a, b):
    where = f"{x['section']} insn {x['insn']} {x['kind']} {x['access']}"
    for k in ("section", "insn", "kind", "result", "old",
              "target_bit_offset", "target_type"):
        if x[k] != y[k]:
            bad.append(f"{where}: {k} {x[k]!r} (full) != {y[k]!r} (min)")
    if x["kind"] != "target_type_id" and x["new"] != y["new"]:
        bad.append(f"{where}: new {x['new']} (full) != {y['new']} (min)")
for m in bad:
    print(f"FAIL: {name}: {m}")
if not bad:
    print(f"PASS: {name} ({len(a)} relocations)")
sys.exit(1 if bad else 0)
