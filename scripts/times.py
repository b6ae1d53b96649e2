#!/usr/bin/env python3
"""scripts/times.py [--json] TIMES.tsv - the time report of `make check` and
`make demo`: where the wall time went.

TIMES.tsv has one line per long step (scripts/cache.sh: rc_time; the
Makefile's deps and build), tab-separated:
    KIND  NAME  SECONDS  START(epoch)  NOTE  WITHIN
(WITHIN: the suite a step ran in, when scripts/check.sh ran it).  The
report lists the top-level steps (deps, build, each suite, the demo's own
steps) in the order they started and, under each, the steps that ran inside
it (kernel downloads, kernel builds, initramfs images, guests, ...), grouped
by kind: how many, their sum, the longest ones.  Steps inside a step may run
side by side (two guests at a time), so a group's sum can exceed the time of
the step that holds it.  --json prints the same as one JSON object.
"""
import json
import sys

TOP = ("deps", "build", "suite", "demo")


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 4:
                continue
            try:
                secs, start = int(p[2]), int(p[3])
            except ValueError:
                continue
            rows.append({"kind": p[0], "name": p[1], "seconds": secs,
                         "start": start, "note": p[4] if len(p) > 4 else "",
                         "within": p[5] if len(p) > 5 else ""})
    return rows


def report(rows):
    tops = sorted((r for r in rows if r["kind"] in TOP), key=lambda r: r["start"])
    inner = [r for r in rows if r["kind"] not in TOP]
    out = []
    for t in tops:
        end = t["start"] + t["seconds"]
        # the suite a step names (WITHIN), else the top step whose time
        # holds its start (the demo's steps, older reports)
        if t["kind"] == "suite":
            kids = [r for r in inner if r["within"] == t["name"]
                    or (not r["within"] and not r.get("_in") and t["start"] <= r["start"] <= end)]
        else:
            kids = [r for r in inner if not r["within"] and not r.get("_in") and t["start"] <= r["start"] <= end]
        for r in kids:
            r["_in"] = True
        groups = {}
        for r in kids:
            groups.setdefault(r["kind"], []).append(r)
        out.append({**t, "steps": {k: sorted(v, key=lambda r: -r["seconds"])
                                   for k, v in groups.items()}})
    rest = [r for r in inner if not r.get("_in")]
    if rest:
        groups = {}
        for r in rest:
            groups.setdefault(r["kind"], []).append(r)
        out.append({"kind": "other", "name": "outside any step", "seconds": 0,
                    "start": 0, "note": "",
                    "steps": {k: sorted(v, key=lambda r: -r["seconds"]) for k, v in groups.items()}})
    first = min((r["start"] for r in rows), default=0)
    last = max((r["start"] + r["seconds"] for r in rows), default=0)
    return {"total_seconds": last - first, "steps": out}


def clean(r):
    return {k: v for k, v in r.items() if not k.startswith("_")}


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args and args[0] in ("-h", "--help") else 2
    rows = load(args[0])
    rep = report(rows)
    if as_json:
        rep["steps"] = [{**clean(t), "steps": {k: [clean(r) for r in v] for k, v in t["steps"].items()}}
                        for t in rep["steps"]]
        print(json.dumps(rep, indent=1))
        return 0
    print(f"time report ({args[0]}): wall seconds per step; what ran inside a step is listed under it")
    for t in rep["steps"]:
        if t["kind"] != "other":
            label = t["name"] if t["kind"] == t["name"] else f"{t['kind']} {t['name']}"
            note = f"  ({t['note']})" if t["note"] else ""
            print(f"  {label:<28} {t['seconds']:>6}s{note}")
        else:
            print(f"  {t['name']}")
        for kind, rs in sorted(t["steps"].items(), key=lambda kv: -sum(r["seconds"] for r in kv[1])):
            total = sum(r["seconds"] for r in rs)
            longest = ", ".join(f"{r['name']} {r['seconds']}" + (f" ({r['note']})" if r["note"] else "")
                                for r in rs[:6])
            more = f", {len(rs) - 6} more" if len(rs) > 6 else ""
            print(f"    {len(rs):>3} x {kind:<18} {total:>6}s  {longest}{more}")
    print(f"  {'total':<28} {rep['total_seconds']:>6}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
