#!/usr/bin/env python3
"""test/vm/tools-check.py - judge Debian's libbpf-tools run both ways in one
guest (test/vm/tools-guest.sh; python3 stdlib only).

    tools-check.py KERNEL RESULTS_DIR [--summary FILE]
                   [--check RELOCORE --btf FILE --bins DIR [--no-kernel-btf]
                    [--objs DIR]]
    tools-check.py --table SUMMARY.json... [--out FILE]

For every tool of test/vm/tools.list: did `relocore run` load and attach it
(the object embedded in the Debian binary, relocated by relocore), did the
Debian binary itself (its own libbpf's CO-RE), and when both did, did they
load the same programs: the kernel's tag of every program (a hash of its
instructions after relocation) from relocore's --json output and from the
binary's /proc/PID/fdinfo.  Both load, or neither does: PASS.  One only, or
different programs: FAIL, unless test/vm/tools.expect explains it for this
kernel.  The tools with a TRUTH mode: their events under /bin/trigger equal
the ground truth the trigger took in the guest, exactly.  Prints
`PASS: vm/KERNEL/tools/TOOL: ...` / `FAIL: ...` lines; --summary writes the
row for the tools table (--table: tools x kernels).

With --check: `relocore check BIN --btf FILE` (the kernel's BTF, as the host
has it) with the tool's options predicts, offline, whether relocore's run
loads and attaches every program; each prediction is compared with what the
guest did (a miss FAILs unless tools.expect explains it, OUTCOME "check").
A kernel without BTF of its own (--no-kernel-btf: the archive's BTF stands
for it) cannot attach fentry/fexit/tp_btf/lsm/iter programs: check is given
--no-kernel-btf too.  --objs DIR: the example objects the guest ran too
(results/run/EXAMPLE.rc), predicted the same way.
"""
import subprocess
import argparse
import fnmatch
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS_LIST = os.path.join(HERE, "tools.list")
EXPECT = os.path.join(HERE, "tools.expect")
MARK = {"both": "B", "neither": ".", "relocore": "R", "binary": "b"}


ONLY = None  # --only NAME,...: the part of the list the guests ran (RC_VM_TOOLS)


def tools_list():
    out = []
    for line in open(TOOLS_LIST):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        f += ["-"] * (4 - len(f))
        if ONLY is None or f[0] in ONLY:
            out.append({"tool": f[0], "ropts": f[1], "bargs": f[2], "truth": f[3]})
    return out


def expectations():
    """TOOL KERNEL-GLOB OUTCOME REASON: OUTCOME relocore|binary|programs."""
    out = []
    if not os.path.exists(EXPECT):
        return out
    for line in open(EXPECT):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        t, k, o, why = line.split(None, 3)
        out.append((t, k, o, why.strip()))
    return out


def slurp(p, d=""):
    try:
        return open(p, errors="replace").read()
    except OSError:
        return d


def jsonl(p):
    out = []
    for line in slurp(p).splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


INFO = ("trace the same", "the kernel has ", "(--optional)", "(--attach-if-present)")


def first_error(text, words=("fail", "error", "cannot", "refused", "needs", "no ", "not ")):
    """The line that says why: relocore's own error lines first (not its
    informational ones: alternatives picked, attach targets resolved)."""
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("    ")
             and not any(i in x for i in INFO)]
    for want in (lambda x: x.startswith("relocore") and any(w in x.lower() for w in words),
                 lambda x: any(w in x.lower() for w in words)):
        for line in lines:
            if want(line):
                return line.strip()[:200]
    lines = [x for x in text.splitlines() if x.strip()]
    return lines[-1].strip()[:200] if lines else ""


def diff(triples):
    """(field, value, want) -> the ones that differ, said"""
    return [f"{f} {v!r} != {w!r}" for f, v, w in triples if v != w]


def hexrec(ev):
    v = ev.get("value")
    return bytes.fromhex(v) if isinstance(v, str) else None


def cstr(b, off, n):
    s = b[off:off + n]
    return s.split(b"\0", 1)[0].decode(errors="replace")


class Tools:
    def __init__(self, kernel, res, check=None):
        self.k, self.res, self.d = kernel, res, os.path.join(res, "tools")
        self.check = check
        self.fails = 0
        self.rows = {}
        self.expect = expectations()

    def say(self, ok, what, why):
        print(f"{'PASS' if ok else 'FAIL'}: vm/{self.k}/tools/{what}: {why}")
        if not ok:
            self.fails += 1

    def expected(self, tool, outcome):
        for t, kg, o, why in self.expect:
            if fnmatch.fnmatch(tool, t) and o == outcome and fnmatch.fnmatch(self.k, kg):
                return why
        return None

    def p(self, tool, ext):
        return os.path.join(self.d, f"{tool}.{ext}")

    # --- one tool -------------------------------------------------------------
    def judge(self, t):
        tool = t["tool"]
        rrc = slurp(self.p(tool, "r.rc")).strip()
        brc = slurp(self.p(tool, "b.rc")).strip()
        state = slurp(self.p(tool, "b.state")).strip()
        if not rrc or not brc:
            self.say(False, tool, "not run in the guest (no results)")
            self.rows[tool] = {"cat": "?"}
            return
        r_ok = rrc == "0"
        berr = slurp(self.p(tool, "b.err"))
        # the binary: attached and asleep (then SIGINT), or ended with 0
        # without saying it failed
        b_ok = state in ("ready", "timeout") or (brc == "0" and "fail" not in berr.lower())
        if state in ("ready", "timeout") and "fail" in berr.lower() and brc not in ("0", "130"):
            b_ok = False
        cat = "both" if r_ok and b_ok else "neither" if not r_ok and not b_ok else \
            "relocore" if r_ok else "binary"
        rwhy = first_error(slurp(self.p(tool, "r.err"))) if not r_ok else ""
        bwhy = first_error(berr) if not b_ok else ""
        row = {"cat": cat, "relocore": r_ok, "binary": b_ok}
        opts = "" if t["ropts"] == "-" else f" [options: {t['ropts'][:60]}{'...' if len(t['ropts']) > 60 else ''}]"
        if cat == "both":
            rt = sorted(e["tag"] for e in jsonl(self.p(tool, "r.out")) if "tag" in e)
            bt = sorted(x.strip() for x in slurp(self.p(tool, "b.tags")).split() if x.strip())
            if not bt and state != "ready":
                row["progs"] = "-"
                self.say(True, tool, f"both load ({len(rt)} programs; the binary's not read: {state}){opts}")
            elif rt == bt:
                row["progs"] = "same"
                self.say(True, tool, f"both load, the same {len(rt)} programs (kernel tags equal){opts}")
            else:
                rn = {e["tag"]: e["program"] for e in jsonl(self.p(tool, "r.out")) if "tag" in e}
                only_r = [rn.get(x, x) for x in rt if x not in bt]
                only_b = [x for x in bt if x not in rt]
                row["progs"] = "differ"
                why = self.expected(tool, "programs")
                msg = (f"both load, programs differ: relocore {len(rt)}, binary {len(bt)}; "
                       f"relocore only: {' '.join(only_r) or '-'}; binary only: {len(only_b)} tag(s)")
                self.say(why is not None, tool, msg + (f" (expected: {why})" if why else "") + opts)
        elif cat == "neither":
            self.say(True, tool, f"neither loads: relocore: {rwhy}; binary: {bwhy}")
        else:
            why = self.expected(tool, cat)
            other = f"binary: {bwhy}" if cat == "relocore" else f"relocore: {rwhy}"
            self.say(why is not None, tool, f"only {'relocore' if cat == 'relocore' else 'the binary'} loads; {other}"
                     + (f" (expected: {why})" if why else " (unexplained)") + opts)
        row["why_r"], row["why_b"] = rwhy, bwhy
        if self.check:
            self.predict(t, row, r_ok, rwhy)
        if t["truth"] != "-" and r_ok:
            fn = getattr(self, "truth_" + tool, None)
            if fn:
                errs, what = fn()
                row["truth"] = not errs
                self.say(not errs, f"{tool}/truth", what if not errs else "; ".join(errs[:4]))
        self.rows[tool] = row

    def kernel_dir(self):
        if not hasattr(self, "_kdir"):
            p = subprocess.run(["bash", os.path.join(HERE, "..", "..", "vm", "kernel.sh"), self.k],
                               capture_output=True, text=True)
            self._kdir = p.stdout.strip() if p.returncode == 0 else None
        return self._kdir

    def module_btf(self, name):
        """The module's .ko from the kernel's package, decompressed once
        (its .BTF is split BTF over vmlinux's), or None (built in)."""
        kd = self.kernel_dir()
        if not kd:
            return None
        hits = []
        for root, _, files in os.walk(os.path.join(kd, "lib", "modules")):
            hits += [os.path.join(root, f) for f in files if f.split(".ko")[0] == name and ".ko" in f]
        if not hits:
            return None
        src = hits[0]
        out = os.path.join(self.res, "..", f"{name}.ko")
        if not os.path.exists(out):
            tool = {".xz": ["xz", "-dc"], ".zst": ["zstd", "-dcq"], ".gz": ["gzip", "-dc"]}
            ext = os.path.splitext(src)[1]
            with open(out + ".tmp", "wb") as f:
                if ext in tool:
                    subprocess.run(tool[ext] + [src], stdout=f, check=False)
                else:
                    f.write(open(src, "rb").read())
            os.rename(out + ".tmp", out)
        # a module built without BTF (no CONFIG_DEBUG_INFO_BTF_MODULES)
        return out if b".BTF\0" in open(out, "rb").read() else None

    # --- relocore check's prediction ---------------------------------------------
    def predict(self, t, row, r_ok, rwhy):
        relocore, btf, bins, nokbtf = self.check
        opts = [] if t["ropts"] == "-" else t["ropts"].replace("@PID_MAX@", "32768").replace(
            "@LIBC@", "/lib/libc.so.6").split()
        cmd = [relocore, "check", os.path.join(bins, t["tool"]), "--btf", btf, "--json"] + opts
        if nokbtf:
            cmd.append("--no-kernel-btf")
        # the kernel's release and config, as the guest's libbpf fills the
        # .kconfig externs (LINUX_KERNEL_VERSION ...): branches on them are
        # decided as on the kernel
        kd = self.kernel_dir()
        mod = self.module_btf("ext4") if t["tool"] in ("fsdist", "fsslower") else None
        if mod:
            cmd += ["--module", mod]
        if kd and os.path.exists(os.path.join(kd, "release")):
            cmd += ["--kernel-release", slurp(os.path.join(kd, "release")).strip()]
        if kd and os.path.exists(os.path.join(kd, "config")):
            cmd += ["--kconfig", os.path.join(kd, "config")]
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            doc = json.loads(p.stdout.splitlines()[0])
            progs = doc["kernels"][0]["programs"]
        except (ValueError, IndexError, KeyError):
            row["check"] = None
            self.say(False, f"{t['tool']}/check", f"relocore check gave no answer (rc {p.returncode}): {p.stderr.strip()[:200]}")
            return
        ok = p.returncode == 0
        row["check"] = ok
        self.twins(t["tool"], doc["kernels"][0])
        probs = [f"{q['name']}: {q['problems'][0]['detail']}" for q in progs if not q["ok"] and q["problems"]]
        if ok == r_ok:
            row["check_hit"] = True
            return
        row["check_hit"] = False
        why = self.expected(t["tool"], "check")
        said = "ok" if ok else "fails: " + "; ".join(probs[:2])
        self.say(why is not None, f"{t['tool']}/check",
                 f"relocore check said {said}, the guest's relocore run {'loaded it' if r_ok else 'did not: ' + rwhy}"
                 + (f" (expected: {why})" if why else " (a miss)"))

    # --- ground truth -------------------------------------------------------------
    def truth(self, tool):
        return jsonl(self.p(tool, "t.truth.json")), jsonl(self.p(tool, "t.out"))

    def truth_line(self, tr, what):
        for x in tr:
            if x.get("truth") == what:
                return x
        return None

    def truth_execsnoop(self):
        tr, out = self.truth("execsnoop")
        child, res = self.truth_line(tr, "exec-child"), self.truth_line(tr, "exec-result")
        if not child or not res:
            return ["no ground truth from the trigger"], ""
        evs = [e["value"] for e in out if e.get("event") is not None and isinstance(e.get("value"), dict)
               and e["value"].get("pid") == child["pid"]]
        if len(evs) != 1:
            return [f"{len(evs)} events for the exec'd pid {child['pid']} (want 1)"], ""
        e, errs = evs[0], []
        want = {"pid": child["pid"], "ppid": res["pid"], "uid": 0, "retval": 0,
                "args_count": 3, "comm": child["comm"]}
        for f, v in want.items():
            if e.get(f) != v:
                errs.append(f"{f} {e.get(f)!r} != {v!r}")
        # args: the file name, then argv[1...], NUL-separated (printed up to
        # the first NUL)
        args = e.get("args")
        if args != res["filename"]:
            errs.append(f"args {args!r} != the file name {res['filename']!r}")
        return errs, f"exec of {res['filename']} by pid {child['pid']} ({child['comm']}, ppid {res['pid']}, 3 args) exact"

    def truth_exitsnoop(self):
        tr, out = self.truth("exitsnoop")
        child, res = self.truth_line(tr, "exec-child"), self.truth_line(tr, "exec-result")
        if not child or not res:
            return ["no ground truth from the trigger"], ""
        recs = [b for b in (hexrec(e) for e in out if "event" in e) if b and len(b) >= 52]
        # struct event (exitsnoop.h): u64 start_time, exit_time; u32 pid, tid,
        # ppid, sig; int exit_code; char comm[16]
        mine = [b for b in recs if struct.unpack_from("<I", b, 16)[0] == child["pid"]]
        if len(mine) != 1:
            return [f"{len(mine)} exit events for pid {child['pid']} (want 1; {len(recs)} events)"], ""
        b = mine[0]
        pid, tid, ppid, sig, code = struct.unpack_from("<IIIIi", b, 16)
        errs = diff((("tid", tid, child["pid"]), ("ppid", ppid, res["pid"]), ("sig", sig, 0),
                        ("exit_code", code, child["exit_code"]), ("comm", cstr(b, 36, 16), child["comm"])))
        return errs, f"exit of pid {pid} ({child['comm']}, ppid {ppid}) with code {code} exact"

    def truth_opensnoop(self):
        tr, out = self.truth("opensnoop")
        o = self.truth_line(tr, "open")
        if not o:
            return ["no ground truth from the trigger"], ""
        path = o["path"].encode()
        recs = [b for b in (hexrec(e) for e in out if "event" in e) if b and path + b"\0" in b]
        if len(recs) != 1:
            return [f"{len(recs)} events naming {o['path']} (want 1)"], ""
        b = recs[0]
        # struct event (opensnoop.h): u64 ts; pid_t pid; uid_t uid; int ret;
        # int flags; ... char comm[16]; char fname[]
        pid, uid, ret, flags = struct.unpack_from("<iIii", b, 8)
        fo = b.index(path + b"\0")
        errs = diff((("pid", pid, o["pid"]), ("uid", uid, o["uid"]), ("ret", ret, o["fd"]),
                        ("flags", flags, o["flags"]), ("comm", cstr(b, fo - 16, 16), o["comm"])))
        return errs, f"open of {o['path']} by pid {pid} ({o['comm']}), flags {flags:#x}, fd {ret} exact"

    def truth_tcpconnect(self):
        tr, out = self.truth("tcpconnect")
        c = self.truth_line([x for x in tr if x.get("role") == "client"], "tcp")
        if not c:
            return ["no ground truth from the trigger"], ""
        # struct event (tcpconnect.h, 0.26): saddr[16]; daddr[16]; char
        # task[16]; u64 ts_us; u32 af, pid, uid; u16 sport (only with -s:
        # 0), dport (network order)
        recs = [b for b in (hexrec(e) for e in out if "event" in e) if b and len(b) >= 72
                and struct.unpack_from("<I", b, 60)[0] == c["pid"]]
        if len(recs) != 1:
            return [f"{len(recs)} connect events for pid {c['pid']} (want 1)"], ""
        b = recs[0]
        saddr, daddr = struct.unpack_from("<II", b, 0)[0], struct.unpack_from("<I", b, 16)[0]
        af, pid, uid = struct.unpack_from("<III", b, 56)
        sport, dport = struct.unpack_from("<H", b, 68)[0], struct.unpack_from(">H", b, 70)[0]
        errs = diff((("sport", sport, 0), ("af", af, c["family"]), ("saddr", saddr, c["saddr4"]), ("daddr", daddr, c["daddr4"]),
                        ("dport", dport, c["dport"]), ("uid", uid, 0), ("task", cstr(b, 32, 16), "trigger")))
        return errs, f"connect of pid {pid} to 127.0.0.1:{dport} exact"

    def truth_bitesize(self):
        tr, out = self.truth("bitesize")
        io = self.truth_line(tr, "iowait")
        if not io:
            return ["no ground truth from the trigger"], ""
        # block_rq_issue runs where the request is issued: often a kworker
        # of blk-mq, not the reading task; every request in the guest is
        # the trigger's
        h = [m for m in out if m.get("map") == "hists" and isinstance(m.get("value"), dict)]
        slots = [0] * 20
        for m in h:
            for i, v in enumerate(m["value"].get("slots", [])[:20]):
                slots[i] += v
        # 64 KiB O_DIRECT reads: log2(64) = slot 6 of the KiB histogram
        want = [0] * 20
        want[6] = io["reads"]
        if slots != want:
            return [f"slots {slots} != {want} ({io['reads']} reads of 64 KiB)"], ""
        comms = sorted({m["key"].get("comm", "?") for m in h if isinstance(m.get("key"), dict)})
        return [], f"{io['reads']} reads of 64 KiB, all in slot 6 (64-127 KiB) exact (issued by {' '.join(comms)})"

    def options(self):
        """relocore run's load options, wrong and right (tools-options.list)"""
        n = 0
        for line in open(os.path.join(HERE, "tools-options.list")):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            i, tool, opts, rc, want = [x.strip() for x in line.split("|", 4)]
            opts = f"{tool} {opts}"
            p = os.path.join(self.d, "options", i)
            got, err = slurp(p + ".rc").strip(), slurp(p + ".err")
            n += 1
            if not got:
                self.say(False, f"options/{i}", "not run in the guest")
            elif got != rc:
                self.say(False, f"options/{i}", f"{opts}: exit {got}, want {rc}: {first_error(err)}")
            elif want != "-" and want not in err:
                self.say(False, f"options/{i}", f"{opts}: stderr does not say \"{want}\": {first_error(err)}")
            else:
                self.say(True, f"options/{i}", f"{opts}: exit {got}" + (f", \"{want}\"" if want != "-" else ""))
        return n

    def twins(self, tool, k):
        """relocore run (in the guest) and relocore check (offline) pick the
        same fentry/kprobe and tp_btf/raw_tp twins: both decide by
        check/progtype.c's pt_pick_twins, run asking the running kernel,
        check the kernel's BTF"""
        alts = [e for e in jsonl(self.p(tool, "r.out")) if "alternatives" in e]
        if not alts:
            return
        won = {w for e in alts for w in e["loaded"].split()}
        lost = {w for e in alts for w in e["not_loaded"].split()}
        check_out = {x["name"] for x in k.get("not_loaded", [])}
        check_in = {x["name"] for x in k.get("programs", [])}
        bad = sorted(f"{n} (run loaded it, check did not)" for n in won if n not in check_in) + \
            sorted(f"{n} (run did not load it, check did)" for n in lost if n not in check_out)
        why = self.expected(tool, "twins") if bad else None
        self.say(not bad or why is not None, f"{tool}/twins",
                 f"run and check pick the same twins ({len(won)} loaded, {len(lost)} not)" if not bad else
                 "run and check pick different twins: " + "; ".join(bad[:4])
                 + (f" (expected: {why})" if why else ""))

    def examples(self, objs):
        """relocore check on the example objects the guest ran (results/run)"""
        hits = asked = 0
        relocore, btf, _, nokbtf = self.check
        for o in sorted(os.listdir(objs)):
            if not o.endswith(".bpf.o"):
                continue
            ex = o[:-len(".bpf.o")]
            rc = slurp(os.path.join(self.res, "run", ex + ".rc")).strip()
            if not rc:
                continue
            cmd = [relocore, "check", os.path.join(objs, o), "--btf", btf]
            kd = self.kernel_dir()
            if kd and os.path.exists(os.path.join(kd, "release")):
                cmd += ["--kernel-release", slurp(os.path.join(kd, "release")).strip()]
            if kd and os.path.exists(os.path.join(kd, "config")):
                cmd += ["--kconfig", os.path.join(kd, "config")]
            if nokbtf:
                cmd.append("--no-kernel-btf")
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode not in (0, 1):
                self.say(False, f"examples/{ex}/check", f"relocore check gave no answer: {p.stderr.strip()[:200]}")
                continue
            asked += 1
            ok, ran = p.returncode == 0, rc == "0"
            if ok == ran:
                hits += 1
                continue
            why = self.expected(ex, "check")
            self.say(why is not None, f"examples/{ex}/check",
                     f"relocore check said {'ok' if ok else 'it fails'}, the guest's run {'loaded it' if ran else 'did not'}: "
                     + first_error(p.stdout if not ok else slurp(os.path.join(self.res, "run", ex + ".err")))
                     + (f" (expected: {why})" if why else " (a miss)"))
        if asked:
            self.say(True, "examples-check-accuracy",
                     f"relocore check predicted {hits} of {asked} example objects' runs right")
        return hits, asked

    def run(self, summary, objs=None):
        tl = tools_list()
        if not os.path.isdir(self.d):
            self.say(False, "run", "the guest ran no tools (no results/tools)")
        else:
            for t in tl:
                self.judge(t)
            self.options()
        counts = {c: sum(1 for r in self.rows.values() if r.get("cat") == c) for c in MARK}
        self.say(True, "summary", f"{len(tl)} tools: both {counts['both']}, neither {counts['neither']}, "
                 f"only relocore {counts['relocore']}, only the binary {counts['binary']}; "
                 f"same programs {sum(1 for r in self.rows.values() if r.get('progs') == 'same')}")
        if self.check:
            hits = sum(1 for r in self.rows.values() if r.get("check_hit"))
            asked = sum(1 for r in self.rows.values() if "check_hit" in r)
            counts["check_hits"], counts["check_asked"] = hits, asked
            self.say(True, "check-accuracy", f"relocore check predicted {hits} of {asked} tools' loads right "
                     f"({100.0 * hits / max(asked, 1):.1f}%)")
            if objs:
                eh, ea = self.examples(objs)
                counts["check_hits"], counts["check_asked"] = hits + eh, asked + ea
        if summary:
            json.dump({"kernel": self.k, "tools": self.rows, "counts": counts}, open(summary, "w"))
        return 1 if self.fails else 0


def table(paths, out_path=None):
    rows = [json.load(open(p)) for p in paths if os.path.exists(p)]
    if not rows:
        return
    tools = [t["tool"] for t in tools_list()]
    ks = [r["kernel"] for r in rows]
    # two header lines: "cloud-6.12" -> "cloud" over "6.12", "ours-6.1-a" -> "ours-6.1" over "a"
    top = [k.rsplit("-", 1)[0] for k in ks]
    bot = [k.rsplit("-", 1)[1] if "-" in k else "" for k in ks]
    w = max([5] + [len(x) for x in top + bot])
    lines = ["libbpf-tools 0.26 x kernels: B both load, R only relocore, b only the binary, . neither"
             " (= same programs, ~ programs differ, ! truth failed)"]
    lines.append(f"{'':15s}" + "".join(f" {x:>{w}s}" for x in top))
    lines.append(f"{'tool':15s}" + "".join(f" {x:>{w}s}" for x in bot))
    for t in tools:
        cells = []
        for r in rows:
            x = r["tools"].get(t, {})
            c = MARK.get(x.get("cat"), "?")
            c += {"same": "=", "differ": "~"}.get(x.get("progs"), "")
            if x.get("truth") is False:
                c += "!"
            cells.append(f" {c:>{w}s}")
        lines.append(f"{t:15s}" + "".join(cells))
    for lab, key in (("both", "both"), ("only relocore", "relocore"), ("only binary", "binary"), ("neither", "neither")):
        lines.append(f"{lab:15s}" + "".join(f" {r['counts'].get(key, 0):>{w}d}" for r in rows))
    if any("check_asked" in r["counts"] for r in rows):
        lines.append(f"{'check right':15s}" + "".join(
            f" {str(r['counts'].get('check_hits', '-')) + '/' + str(r['counts'].get('check_asked', '-')):>{w}s}" for r in rows))
    lines.append("")
    lines.append("what each tool's user space does, as relocore run options (test/vm/tools.list):")
    for t in tools_list():
        if t["ropts"] != "-":
            flags = []
            for f in t["ropts"].split():
                if f.startswith("--") and f not in flags:
                    flags.append(f)
            lines.append(f"  {t['tool']:15s}" + " ".join(f"{f} x{t['ropts'].split().count(f)}" if t['ropts'].split().count(f) > 1 else f for f in flags))
    text = "\n".join(lines)
    print(text)
    if out_path:
        open(out_path, "w").write(text + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel", nargs="?")
    ap.add_argument("results", nargs="?")
    ap.add_argument("--summary")
    ap.add_argument("--table", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--check")
    ap.add_argument("--btf")
    ap.add_argument("--bins")
    ap.add_argument("--no-kernel-btf", action="store_true")
    ap.add_argument("--objs")
    ap.add_argument("--only", help="comma-separated tools: judge and tabulate only these")
    a = ap.parse_args()
    if a.only:
        global ONLY
        ONLY = set(a.only.split(","))
    if a.table:
        table(a.table, a.out)
        return 0
    chk = (a.check, a.btf, a.bins, a.no_kernel_btf) if a.check else None
    return Tools(a.kernel, a.results, chk).run(a.summary, a.objs)


if __name__ == "__main__":
    sys.exit(main())
