#!/usr/bin/env python3
"""differ.py - libbpf's open against relocore's read of every object of the
idiom corpus (see run.sh).  Prints PASS:/FAIL: reader/<object>/<what> and
the table of idioms x compilers; exits 1 on any failure."""
import argparse
import json
import os
import re
import subprocess
import sys

# why libbpf refuses (its last warning) and why relocore does (its error
# or 'open' problem), as one reason each; an extern's name is kept
LIBBPF_REASONS = [
    (r"legacy map definitions in 'maps' section", "legacy-maps"),
    (r"failed to find BTF for extern '([^']+)' \[\d+\] section", "extern-no-datasec"),
    (r"failed to find BTF for extern '([^']+)': -2\b", "extern-no-btf"),
    (r"failed to find BTF for extern '([^']+)': -22\b", "extern-not-extern"),
    (r"unrecognized extern section '([^']+)'", "extern-section"),
    (r"extern \(kcfg\) '([^']+)': type is unsupported", "kconfig-type"),
    (r"program '([^']+)' is static and not supported", "static-program"),
]
RELOCORE_REASONS = [
    (r"legacy 'maps' section", "legacy-maps"),
    (r"extern '([^']+)': its BTF is in no DATASEC", "extern-no-datasec"),
    (r"extern '([^']+)' has no BTF VAR or FUNC", "extern-no-btf"),
    (r"extern '([^']+)': its BTF (VAR|FUNC) \[\d+\] is not of extern linkage", "extern-not-extern"),
    (r"extern '([^']+)': in DATASEC other than", "extern-section"),
    (r"extern '([^']+)': its type \[\d+\] is not one libbpf fills for .kconfig", "kconfig-type"),
    (r"program '([^']+)' of section '[^']+' is static", "static-program"),
]


def reason(text, table):
    for rx, name in table:
        m = re.search(rx, text)
        if m:
            return (name, m.group(1) if m.groups() else "")
    return ("unclassified", text[:120])


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def libbpf_open(opener, path):
    """(accepted, reason, progs set, lines of progs/maps)"""
    _, out, _ = run([opener, path])
    lines = out.splitlines()
    head = lines[0].split(" ", 3) if lines else ["open", path, "refused", "no output"]
    if head[2] != "ok":
        return False, head[3] if len(head) > 3 else "", set(), []
    progs = set()
    for l in lines[1:]:
        f = l.split(" ")
        if f[0] == "prog":
            progs.add((f[1], f[2]))
    return True, "", progs, lines[1:]


def libbpf_externs(lines):
    """libbpf's externs (libbpf_open's extern lines): {(name, kcfg|ksym)}"""
    return {tuple(l.split(" ")[1:3]) for l in lines if l.startswith("extern ")}


def libbpf_maps(lines):
    """libbpf's maps at open (libbpf_open's map lines): {(name, type, key
    size, value size, max_entries, flags)}"""
    return {tuple(l.split(" ")[1:7]) for l in lines if l.startswith("map ")}


def kernel_map_name(objpath, real):
    """the name libbpf 1.1 gives the map of data section @real (what
    bpf_map__name says): the object's name (its file name up to the first
    '.') cut to leave room for the section's name, none when that has a
    '.' after the first, at most 15 bytes, other than [A-Za-z0-9_.] as '_'"""
    obj = os.path.basename(objpath).split(".", 1)[0]
    sfx = max(7, len(real))
    pfx = 0 if "." in real[1:] else max(0, min(15 - sfx, len(obj)))
    name = (obj[:pfx] + real[:sfx])[:15]
    return "".join(c if c.isalnum() or c in "_." else "_" for c in name)


def decisions(explain_json):
    """explain --json's decisions, without what depends on the target's
    numbering (a minimized BTF numbers its types and members anew: type
    ids, member index paths)"""
    try:
        rel = json.loads(explain_json).get("relocations", [])
    except ValueError:
        return None
    keep = ("section", "insn", "kind", "access", "result", "old", "new",
            "target_bit_offset", "target_type")
    return [{k: r.get(k) for k in keep if not (k == "new" and r.get("kind") == "target_type_id")}
            for r in rel]


def relocore_read(relocore, path, btf):
    """(accepted, reasons, progs set, externs set, maps set, rc); externs
    as libbpf names their kinds: kcfg, ksym (typed, typeless, kfunc); maps
    as libbpf_maps, data maps by their kernel name"""
    rc, out, err = run([relocore, "check", path, "--btf", btf, "--json"])
    if rc == 2 or not out.strip():
        return False, [err.strip()], set(), set(), set(), rc
    doc = json.loads(out.splitlines()[0])
    exts = {(e["name"], "kcfg" if e["kind"] == "kconfig" else "ksym" if e["kind"] != "none" else "none")
            for e in doc["kernels"][0]["externs"]}
    maps = {(kernel_map_name(path, m["name"]) if m["section"] not in (".maps", ".struct_ops") else m["name"],
             m["type_name"] or str(m["type"]), str(m["key_size"]), str(m["value_size"]),
             str(m["max_entries"]), str(m["flags"]))
            for m in doc["kernels"][0]["maps"]}
    progs, opens = set(), []
    for p in doc["kernels"][0]["not_loaded"]:
        progs.add((p["name"], p["section"]))
    for p in doc["kernels"][0]["programs"]:
        progs.add((p["name"], p["section"]))
    for pb in doc["kernels"][0]["problems"]:	# the whole object's
        if pb["kind"] == "open" and pb["detail"] not in opens:
            opens.append(pb["detail"])
    return not opens, opens, progs, exts, maps, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--relocore", required=True)
    ap.add_argument("--opener", required=True)
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--opener2", help="NAME=PATH: a second libbpf's libbpf_open (newlibbpf.sh)")
    ap.add_argument("kernels", nargs="+", help="NAME=BTF")
    a = ap.parse_args()
    kernels = [k.split("=", 1) for k in a.kernels]
    objdir = os.path.join(a.work, "objs")
    outdir = os.path.join(a.work, "out")
    os.makedirs(outdir, exist_ok=True)

    expected = {}
    for l in open(a.expected):
        if l.strip() and not l.startswith("#"):
            obj, what, why = l.rstrip("\n").split("\t", 2)
            expected[(obj, what)] = why
    seen_expected = set()
    fails = 0
    table = {}  # idiom -> compiler -> cell

    def verdict(obj, what, ok, why=""):
        nonlocal fails
        key = (obj, what)
        if key in expected:
            seen_expected.add(key)
            if ok:
                print(f"FAIL: reader/{obj}/{what}: listed in expected.tsv ({expected[key]}) but agrees now")
                fails += 1
            else:
                print(f"PASS: reader/{obj}/{what} (expected disagreement: {expected[key]})")
            return
        if ok:
            print(f"PASS: reader/{obj}/{what}")
        else:
            print(f"FAIL: reader/{obj}/{what}: {why}")
            fails += 1

    for l in open(os.path.join(objdir, "compile.tsv")):
        idiom, cc, state = l.rstrip("\n").split("\t", 2)
        if state != "built":
            table.setdefault(idiom, {})[cc] = "-"

    objs = sorted(f for f in os.listdir(objdir) if f.endswith(".o"))
    counts = {"both-ok": 0, "both-refuse": 0, "disagree": 0, "relocs": 0, "by-new": 0, "libbpfs-differ": 0,
              "externs": 0, "maps": 0}
    new_name, new_opener = a.opener2.split("=", 1) if a.opener2 else (None, None)
    for f in objs:
        path = os.path.join(objdir, f)
        obj = f[:-2]
        idiom, cc = obj.rsplit(".", 1)
        l_ok, l_why, l_progs, l_lines = libbpf_open(a.opener, path)
        r_ok, r_whys, r_progs, r_exts, r_maps, _ = relocore_read(a.relocore, path, kernels[0][1])
        cell = ("ok" if l_ok else "refused") + "/" + ("ok" if r_ok else "refused")
        n_ok = None
        if new_opener:
            n_ok, n_why, _, _ = libbpf_open(new_opener, path)
            cell = ("ok" if l_ok else "ref") + "/" + ("ok" if n_ok else "ref") + "/" + ("ok" if r_ok else "ref")
            counts["libbpfs-differ"] += n_ok != l_ok
        table.setdefault(idiom, {})[cc] = cell
        if l_ok != r_ok and n_ok == r_ok:
            # the newer libbpf decides as relocore: the version explains it
            counts["by-new"] += 1
            seen_expected.add((obj, "accept"))
            print(f"PASS: reader/{obj}/accept (libbpf 1.1 {'opens' if l_ok else 'refuses: ' + l_why}; "
                  f"{new_name} {'opens' if n_ok else 'refuses'} it as relocore does)")
            continue
        if l_ok != r_ok:
            counts["disagree"] += 1
            verdict(obj, "accept", False,
                    f"libbpf {'opens' if l_ok else 'refuses'} ({l_why}), relocore "
                    f"{'reads it' if r_ok else 'refuses: ' + '; '.join(r_whys)[:300]}")
            continue
        if not l_ok:
            counts["both-refuse"] += 1
            lr = reason(l_why, LIBBPF_REASONS)
            rr = [reason(w, RELOCORE_REASONS) for w in r_whys]
            verdict(obj, "refuse-reason", lr[0] != "unclassified" and lr in rr,
                    f"libbpf: {l_why!r} = {lr}; relocore: {r_whys} = {rr}")
            continue
        counts["both-ok"] += 1
        verdict(obj, "programs", l_progs == r_progs,
                f"libbpf {sorted(l_progs - r_progs)} only, relocore {sorted(r_progs - l_progs)} only")
        l_exts = libbpf_externs(l_lines)
        counts["externs"] += len(l_exts)
        verdict(obj, "externs", l_exts == r_exts,
                f"libbpf {sorted(l_exts - r_exts)} only, relocore {sorted(r_exts - l_exts)} only")
        l_maps = libbpf_maps(l_lines)
        counts["maps"] += len(l_maps)
        verdict(obj, "maps", l_maps == r_maps,
                f"libbpf {sorted(l_maps - r_maps)} only, relocore {sorted(r_maps - l_maps)} only")
        for kname, btf in kernels:
            # CO-RE decisions: libbpf's engine on relocore's JSON
            rc, ex, err = run([a.relocore, "explain", path, "--btf", btf, "--json"])
            try:
                nrel = len(json.loads(ex).get("relocations", [])) if ex.strip() else 0
            except ValueError:
                nrel = -1
            jpath = os.path.join(outdir, f"{obj}.{kname}.json")
            with open(jpath, "w") as fh:
                fh.write(ex)
            rel = os.path.join(outdir, f"{obj}.{kname}.o")
            if os.path.exists(rel):
                os.unlink(rel)
            rrc, _, rerr = run([a.relocore, "reloc", path, "--btf", btf, "-o", rel])
            if nrel > 0:
                # btfgen: the minimized BTF decides every relocation as the full one
                mini = os.path.join(outdir, f"{obj}.{kname}.min.btf")
                grc, _, gerr = run([a.relocore, "btfgen", "--btf", btf, "-o", mini, path])
                mrc, mex, merr = run([a.relocore, "explain", path, "--btf", mini, "--json"]) if grc == 0 else (grc, "", gerr)
                same = grc == 0 and mrc == rc and decisions(mex) == decisions(ex)
                verdict(obj, f"btfgen/{kname}", same,
                        f"btfgen exit {grc} {gerr.strip()[:150]}" if grc else
                        f"decisions against the minimized BTF differ (explain exit {mrc} vs {rc})")
                counts["relocs"] += nrel
                crc, cout, cerr = run([a.oracle, "compare", path, btf, jpath, f"{obj}/{kname}"] +
                                      ([rel] if rrc == 0 else []))
                verdict(obj, f"core/{kname}", crc == 0,
                        (cout + cerr).strip().splitlines()[-1] if (cout + cerr).strip() else f"exit {crc}")
            elif nrel < 0:
                verdict(obj, f"core/{kname}", False, f"explain --json is not JSON (exit {rc}): {err[:200]}")
            # what relocore writes opens in libbpf as the input did
            if rrc != 0:
                verdict(obj, f"reloc/{kname}", False, f"relocore reloc exit {rrc}: {rerr.strip()[:200]}")
                continue
            o_ok, o_why, _, o_lines = libbpf_open(a.opener, rel)
            verdict(obj, f"reloc/{kname}", o_ok and o_lines == l_lines,
                    f"libbpf on the output: {'refused: ' + o_why if not o_ok else 'differs: ' + str(sorted(set(o_lines) ^ set(l_lines))[:4])}")

    for key, why in expected.items():
        if key not in seen_expected:
            print(f"FAIL: reader/{key[0]}/{key[1]}: listed in expected.tsv ({why}) but not met")
            fails += 1

    ccs = ["clang-14", "clang-16", "clang-19", "gcc"]
    if new_opener:
        print(f"reader: libbpf 1.1/{new_name}/relocore per idiom and compiler (ok = opens, ref = refuses, - = does not compile):")
    else:
        print("reader: libbpf/relocore per idiom and compiler (ok = opens, refused, - = does not compile):")
    print("reader:   %-22s %s" % ("idiom", " ".join("%-16s" % c for c in ccs)))
    for idiom in sorted(table):
        print("reader:   %-22s %s" % (idiom, " ".join("%-16s" % table[idiom].get(c, "?") for c in ccs)))
    print(f"reader: {len(objs)} objects: {counts['both-ok']} opened by both, {counts['both-refuse']} refused by both, "
          f"{counts['disagree']} disagreements with libbpf 1.1" +
          (f" ({counts['by-new']} more where {new_name} decides as relocore; the two libbpfs differ on "
           f"{counts['libbpfs-differ']})" if new_opener else " (no second libbpf)") +
          f"; {counts['relocs']} CO-RE decisions compared with libbpf's engine; "
          f"{counts['externs']} externs (name, kind) and {counts['maps']} maps (name, type, key and "
          f"value size, max_entries, flags) compared with libbpf's")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
