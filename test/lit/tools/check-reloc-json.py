#!/usr/bin/env python3
"""relocore check --json of check/reloc.c against its old kernel: the
report's shape (object, kernels; one kernel with release, target, programs,
not_loaded; every program with name, section, ok, problems, in that order)
and the verdicts (the guarded programs pass, unguarded fails for its
relocation, via_sub for one in .text).  Prints "json ok" or raises.

usage: check-reloc-json.py REPORT.json
"""
import json
import sys

d = json.load(open(sys.argv[1]))
k = d["kernels"]
assert list(d) == ["object", "kernels"] and len(k) == 1, d
assert list(k[0]) == ["release", "target", "programs", "not_loaded", "externs", "maps", "problems",
                      "not_decided"], k[0]
assert all(list(m) == ["name", "section", "type", "type_name", "key_size", "value_size", "max_entries", "flags"]
           for m in k[0]["maps"]), k[0]["maps"]
assert k[0]["release"] is None, k[0]
p = {x["name"]: x for x in k[0]["programs"]}
assert all(list(x) == ["name", "section", "ok", "problems"] for x in p.values()), p
assert p["guarded"]["ok"] and p["enum_guarded"]["ok"] and p["sub_guarded"]["ok"], p
assert not p["unguarded"]["ok"], p
assert [q["kind"] for q in p["unguarded"]["problems"]] == ["relocation"], p
assert not p["via_sub"]["ok"] and ".text" in p["via_sub"]["problems"][0]["detail"], p
print("json ok")
