#!/usr/bin/env python3
"""test/matrix/judge.py: a relocore matrix JSON document against what is
known of the kernels it names (test/matrix/run.sh).  Prints PASS:/FAIL:
lines for scripts/check.sh.

  judge.py DOC.json                 the ground truth below
  judge.py --same A.json B.json     B decides every cell as A does
                                    (shards merged against one run)

Ground truth (facts of the kernels, not of relocore):
  - every kernel booted, its guest's uname -r is the release the catalog
    or the image says, and every program has a verdict;
  - the example objects and program types attach where the kernel has
    what they use: bpf_rcu_read_lock (a kfunc, Linux 6.2) for weakcall;
    tcx links (6.6) for tccount; CONFIG_CGROUP_BPF for cgcount, kernel
    BTF for fentry/iter programs and CONFIG_FTRACE_SYSCALLS for the
    syscalls/ tracepoints (our minimal kernel has none of the three);
    BPF_PROG_TYPE_SYSCALL (5.14) for runonce;
  - relocore check's offline prediction agrees with every verdict;
  - stock libbpf's own load of each CO-RE object (in the guest, beside)
    loads where relocore loaded every program, and fails where relocore
    failed one at load.
"""
import json
import sys


def rel(r):
    return tuple(int(x) for x in (r.split("-")[0].split("+")[0].split(".") + ["0", "0"])[:3])


def say(ok, name, why=""):
    print(f"PASS: matrix/{name}" if ok else f"FAIL: matrix/{name}: {why}")
    return ok


def truth(k, obj, prog):
    """(verdict, stage or class) the kernel must give, None: not judged"""
    r = rel(k["release"])
    nobtf = not k.get("kernel_btf", True)
    minimal = k["name"].startswith("ours-")
    if obj in ("getpid.bpf.o", "execsnoop.bpf.o", "schedstate.bpf.o", "skbdrop.bpf.o",
               "taskwatch.bpf.o", "taskwatch-clang19.bpf.o", "ksymaddr.bpf.o", "xdpcount.bpf.o"):
        return ("attached", None)
    if obj in ("tcpclose.bpf.o", "weakguard.bpf.o", "taskiter.bpf.o") and nobtf:
        return ("failed", "btf_missing")
    if obj == "weakcall.bpf.o":
        return ("failed", "btf_missing") if nobtf else ("failed", "kfunc") if r < (6, 2, 0) else ("attached", None)
    if obj == "tccount.bpf.o":
        return ("attached", None) if r >= (6, 6, 0) else ("failed", "attach")
    if obj == "cgcount.bpf.o":
        return ("failed", None) if minimal else ("attached", None)
    if obj == "runonce.bpf.o":
        return ("failed", None) if r < (5, 14, 0) else ("attached", None)
    if obj in ("opensnoop", "execsnoop") and prog.startswith("tracepoint__syscalls"):
        return ("failed", "attach") if minimal else ("attached", None)
    if obj in ("tcpclose.bpf.o", "weakguard.bpf.o", "taskiter.bpf.o"):
        return ("attached", None)
    return None


def judge(doc):
    ok = True
    names = {o["id"]: o["name"] for o in doc["objects"]}
    ok &= say(doc.get("relocore_matrix") == 1 and "summary" in doc, "schema", "no relocore_matrix 1 / summary")
    for k in doc["kernels"]:
        n = k["name"]
        if not say(k["status"] != "error", f"{n}/booted", k.get("error", "")):
            ok = False
            continue
        ok &= say(k.get("uname") == k["release"], f"{n}/uname", f"guest {k.get('uname')} != {k['release']}")
        ok &= say(k.get("accel") in ("tcg", "kvm") and (k.get("boot_seconds") or 0) > 0, f"{n}/accel",
                  f"accel {k.get('accel')} boot {k.get('boot_seconds')}")
        bad, disagree, judged, stock_bad = [], [], 0, []
        for ob in k["objects"]:
            obj = names[ob["object"]]
            loaded_all = all(r["verdict"] in ("attached", "loaded", "not_loaded") or r.get("stage") == "attach"
                             for r in ob["programs"])
            load_failed = any(r["verdict"] == "failed" and r.get("stage") == "load" for r in ob["programs"])
            for r in ob["programs"]:
                if r["verdict"] not in ("attached", "loaded", "not_loaded", "failed"):
                    bad.append(f"{obj}:{r['program']} {r['verdict']}")
                if r["verdict"] == "attached" and not r.get("tag"):
                    bad.append(f"{obj}:{r['program']} attached without a tag")
                if r["predicted"] is not None and r["agree"] is not True:
                    disagree.append(f"{obj}:{r['program']} {r['verdict']} ({r.get('class')}: {r.get('message')}) "
                                    f"check: {r['predicted']}")
                t = truth(k, obj, r["program"])
                if t is None:
                    continue
                judged += 1
                if r["verdict"] != t[0] or (t[1] and t[1] not in (r.get("class"), r.get("stage"))):
                    bad.append(f"{obj}:{r['program']} {r['verdict']} {r.get('stage')}/{r.get('class')} "
                               f"({r.get('message')}), want {t[0]} {t[1] or ''}")
            st = ob.get("stock_libbpf")
            # (a binary's twins: stock libbpf loads both sides, relocore one)
            if st and obj.endswith(".bpf.o"):
                if loaded_all and st["rc"] != 0:
                    stock_bad.append(f"{obj}: relocore loaded every program, stock libbpf rc {st['rc']}: {st['stderr_tail'][-1:]}")
                if load_failed and st["rc"] == 0:
                    stock_bad.append(f"{obj}: relocore failed a program at load, stock libbpf loaded them all")
        ok &= say(not bad and judged > 0, f"{n}/verdicts", f"{judged} judged; " + "; ".join(bad[:6]))
        ok &= say(not disagree, f"{n}/check-agrees", "; ".join(disagree[:4]))
        ok &= say(not stock_bad, f"{n}/stock-libbpf", "; ".join(stock_bad[:4]))
    return ok


def cells(doc):
    names = {o["id"]: o["name"] for o in doc["objects"]}
    return {(k["name"], names[ob["object"]], r["program"]): (r["verdict"], r.get("class"), r["agree"])
            for k in doc["kernels"] for ob in k.get("objects", []) for r in ob["programs"]}


def main(argv):
    if argv[0] == "--same":
        a, b = json.load(open(argv[1])), json.load(open(argv[2]))
        ca, cb = cells(a), cells(b)
        diff = [f"{key}: {ca.get(key)} vs {cb.get(key)}" for key in sorted(set(ca) | set(cb)) if ca.get(key) != cb.get(key)]
        ok = say(not diff and [k["name"] for k in a["kernels"]] == [k["name"] for k in b["kernels"]],
                 argv[3] if len(argv) > 3 else "same", f"{len(diff)} cells differ: " + "; ".join(diff[:4]))
        ok &= say(a["summary"] == b["summary"], (argv[3] if len(argv) > 3 else "same") + "-summary",
                  f"{a['summary']} vs {b['summary']}")
        return 0 if ok else 1
    return 0 if judge(json.load(open(argv[0]))) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
