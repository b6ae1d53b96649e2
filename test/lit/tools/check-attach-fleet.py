#!/usr/bin/env python3
"""relocore check --archive --all --json of check/attach.c over its two
releases: one row per release, the programs failing on 2.0-new, and on
1.0-old the kinds of lsm_open's and future_helper's problems and what
fe_none's says.  Prints "fleet ok" or raises.

usage: check-attach-fleet.py REPORT.json
"""
import json
import sys

d = json.load(open(sys.argv[1]))
k = {x["release"]: x for x in d["kernels"]}
assert sorted(k) == ["1.0-old", "2.0-new"], k
p = {x["name"]: x for x in k["2.0-new"]["programs"]}
assert sorted(n for n in p if not p[n]["ok"]) == [
    "fe_dummy", "fe_func", "fe_missing", "fe_none", "kp_arm", "kp_clone", "kp_missing",
    "kp_nosys", "kp_skb",
    "tp_missing", "tpbtf_missing", "unknown_sec"], p
q = {x["name"]: x for x in k["1.0-old"]["programs"]}
assert [x["kind"] for x in q["lsm_open"]["problems"]] == ["program_type"], q
assert [x["kind"] for x in q["future_helper"]["problems"]] == ["helper"], q
assert q["fe_none"]["problems"][0]["detail"].startswith("needs "), q
print("fleet ok")
