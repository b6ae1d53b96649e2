#!/usr/bin/env python3
"""bench/scale.py - relocore against bpftool on large probes (bench/scale.sh
builds the probes and finds the kernels; see bench/README).

    scale.py RELOCORE WORKDIR PAIRS KERNEL=BTF... -- PROBE.o...

For each probe, on the first kernel: bpftool gen min_core_btf against
relocore btfgen, explain, reloc and check, PAIRS interleaved runs of each
pair (relocore first, then bpftool, alternately), wall time as the median
and peak memory (the child's maximum resident set) as the largest of the
runs; then over every kernel: archive create --min against one bpftool run
per kernel, and check --all over an archive of their full BTF against check
on one kernel of that archive.
Prints a table and one JSON line per probe (for bench/README's curves).
Nothing is asserted.
"""
import json
import os
import statistics
import tempfile
import subprocess
import sys
import time


def run(cmd):
    """(wall seconds, peak KB) of one run of @cmd; its output discarded.
    The peak is GNU time's (%M): a child of this Python process would
    inherit its high-water mark (ru_maxrss counts the pages before exec)."""
    with tempfile.NamedTemporaryFile("r") as mem:
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", mem.name] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
        peak = int(mem.read().split()[-1])
    code = p.returncode
    # check exits 1 when a program would not load: a verdict, not a failure
    if code not in (0, 1) or (code == 1 and cmd[1] != "check"):
        sys.exit("scale: %s exited %d: %s" % (" ".join(cmd), code,
                                               p.stderr.decode(errors="replace")[:300]))
    return wall, peak


def pairs(a, b, n):
    """Median wall and peak KB of @a and of @b over @n interleaved pairs."""
    ra, rb = [], []
    for i in range(n):
        for cmd, res in ((a, ra), (b, rb)) if i % 2 == 0 else ((b, rb), (a, ra)):
            res.append(run(cmd))
    med = lambda r: (statistics.median(w for w, _ in r), max(m for _, m in r))
    return med(ra), med(rb)


def relocations(relocore, obj, btf):
    out = subprocess.run([relocore, "explain", obj, "--btf", btf, "--json"],
                         capture_output=True, check=True).stdout
    return len(json.loads(out)["relocations"])


def programs(obj):
    """Programs (global FUNC symbols outside .text) and instructions."""
    secs = subprocess.run(["readelf", "-SW", obj], capture_output=True, check=True,
                          text=True).stdout
    insns, text = 0, None
    for line in secs.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 7 and f[2] == "PROGBITS" and "X" in f[7]:
            insns += int(f[5], 16) // 8
            if f[1] == ".text":
                text = f[0].strip("[]")
    syms = subprocess.run(["readelf", "-sW", obj], capture_output=True, check=True,
                          text=True).stdout
    progs = sum(1 for line in syms.splitlines()
                if len(line.split()) > 7 and line.split()[3] == "FUNC" and
                line.split()[4] == "GLOBAL" and line.split()[6] != text)
    return progs, insns


def main():
    relocore, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    i = sys.argv.index("--")
    kernels = [a.split("=", 1) for a in sys.argv[4:i]]
    objs = sys.argv[i + 1:]
    kname, kbtf = kernels[0]
    rows = []
    for obj in objs:
        name = os.path.basename(obj)
        nrel = relocations(relocore, obj, kbtf)
        progs, insns = programs(obj)
        size = os.path.getsize(obj)
        rmin, bmin = os.path.join(work, "rc.min.btf"), os.path.join(work, "bpftool.min.btf")
        bpftool = ["bpftool", "gen", "min_core_btf", kbtf, bmin, obj]
        r, b = pairs([relocore, "btfgen", "--btf", kbtf, "-o", rmin, obj], bpftool, n)
        res = {"object": name, "relocations": nrel, "programs": progs, "insns": insns,
               "bytes": size, "kernel": kname,
               "btfgen": r, "bpftool": b,
               "btfgen_bytes": os.path.getsize(rmin), "bpftool_bytes": os.path.getsize(bmin)}
        for cmd in ("explain", "reloc", "check"):
            extra = ["-o", os.path.join(work, "rel.o")] if cmd == "reloc" else []
            res[cmd], _ = pairs([relocore, cmd, obj, "--btf", kbtf] + extra, bpftool, n)
        # every kernel: an archive minimized for the probe, against bpftool
        # once per kernel; check over the archive against one kernel
        ar = os.path.join(work, "probe.rcba")
        create = [relocore, "archive", "create", "-o", ar, "--min", obj] + \
            ["%s=%s" % (k, f) for k, f in kernels]
        walls, peaks = [], []
        for _ in range(n):
            w, m = run(create)
            walls.append(w)
            peaks.append(m)
        res["archive"] = (statistics.median(walls), max(peaks))
        bw = []
        for _ in range(n):
            bw.append(sum(run(["bpftool", "gen", "min_core_btf", f, bmin, obj])[0]
                          for _, f in kernels))
        res["bpftool_each"] = statistics.median(bw)
        # check --all over the kernels' full BTF (an archive not minimized:
        # the same work per kernel as check --btf)
        full = os.path.join(work, "full.rcba")
        if not os.path.exists(full):
            subprocess.run([relocore, "archive", "create", "-o", full] +
                           ["%s=%s" % (k, f) for k, f in kernels], check=True,
                           stderr=subprocess.DEVNULL)
        # against one kernel of the same archive (the same reading of it)
        res["check_all"], res["check_one"] = pairs(
            [relocore, "check", obj, "--archive", full, "--all"],
            [relocore, "check", obj, "--archive", full, "--release", kname], n)
        res["kernels"] = len(kernels)
        rows.append(res)
        print(json.dumps(res), flush=True)

    def fmt(x):
        return "%.3f s %4d MB" % (x[0], round(x[1] / 1024))

    for res in rows:
        b = res["bpftool"]
        print()
        print("%s: %d relocations, %d programs, %d instructions, %.1f MB; kernel %s"
              % (res["object"], res["relocations"], res["programs"], res["insns"],
                 res["bytes"] / 1e6, res["kernel"]))
        print("  %-34s %-18s %-18s %s" % ("", "relocore", "bpftool", "ratio (wall, peak)"))
        print("  %-34s %-18s %-18s %.2fx %.2fx" % ("btfgen / gen min_core_btf", fmt(res["btfgen"]),
              fmt(b), res["btfgen"][0] / b[0], res["btfgen"][1] / b[1]))
        print("  %-34s %-18s %-18s %.2fx" % ("  output bytes", res["btfgen_bytes"],
              res["bpftool_bytes"], res["btfgen_bytes"] / res["bpftool_bytes"]))
        for cmd in ("explain", "reloc", "check"):
            print("  %-34s %-18s %-18s %.2fx %.2fx" % (cmd + " (one kernel)", fmt(res[cmd]), fmt(b),
                  res[cmd][0] / b[0], res[cmd][1] / b[1]))
        k = res["kernels"]
        print("  %-34s %-18s %-18s %.2fx" % ("archive create --min, %d kernels" % k,
              fmt(res["archive"]), "%.3f s" % res["bpftool_each"],
              res["archive"][0] / res["bpftool_each"]))
        print("  %-34s %-18s %-18s %.2fx" % ("check, one kernel of the archive",
              fmt(res["check_one"]), "", res["check_one"][0] / b[0]))
        print("  %-34s %-18s %-18s %.2fx of one kernel of it" % ("check --all, %d kernels" % k,
              fmt(res["check_all"]), "", res["check_all"][0] / res["check_one"][0]))


if __name__ == "__main__":
    main()
