#!/usr/bin/env python3
"""test/vm/check.py - judge what one guest handed back (python3 stdlib only).

    check.py KERNEL RESULTS_DIR --objs DIR --host-explain DIR [--summary FILE]
             [--arch ARCH --host-objs DIR --host-btf FILE]
    check.py --table SUMMARY.json...

RESULTS_DIR is the guest's /results (see test/vm/guest-tests.sh).  The
objects of STOCK (compiled with the relocore plugin) are also judged as
loaded by stock libbpf alone (stock/: test/vm/stockload.c): libbpf's own CO-RE
decisions (its -v log) must equal relocore's, and the events the same truth.  Events are
hex records (relocore run prints hex when it finds no single *_event struct
in the object's BTF); they are decoded with the layouts of the host-built
object in --objs, taken from its DWARF (pahole -> BTF -> `bpftool -j`).  Every value is compared EXACTLY with
the ground truth the trigger took inside the guest.  Prints one line per
check, `PASS: vm/KERNEL/CHECK` or `FAIL: vm/KERNEL/CHECK: why`, and writes a
summary row for the matrix table.

Per architecture (--arch, Debian's name): the guest's uname -m must be that
architecture's; --objs are that architecture's objects (vm/arch-objs.sh): on
arm64 the files of --host-objs except the architecture-specific ones, which
the summary names.  --host-btf is the BTF the host cut from the kernel's
vmlinuz (vm/kernel-btf.sh): it must be byte-identical to the guest's
/sys/kernel/btf/vmlinux.  A kernel that cannot attach fentry programs to
kernel functions (arm64 before 6.4: no DYNAMIC_FTRACE_WITH_DIRECT_CALLS in
its .config) must still load them (the verifier accepts the relocated
program) and refuse only the attachment, with ENOTSUPP.
"""
import hashlib
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

F_IOWAIT, F_CONTRIB_LOAD, F_USER_FAULT, F_RT_MUTEX, F_SOFTIRQ = 1, 2, 16, 32, 64
TASK_UNINTERRUPTIBLE = 2
EVENT_STRUCTS = {
    "getpid": ["getpid_event"],
    "execsnoop": ["exec_event", "exit_event"],
    "schedstate": ["block_event"],
    "skbdrop": ["drop_event"],
    "tcpclose": ["close_event"],
    "taskwatch": ["event"],     # llvm-pass/examples: compiled with the plugin
    "taskwatch-clang19": ["event"],     # the same source, clang-19 and the LLVM 19 plugin
}
STOCK = ["taskwatch"]           # also loaded by stock libbpf (test/vm/stockload.c)
TASKEXIT_COMM = "trg-taskwatch"
MACHINE = {"amd64": "x86_64", "arm64": "aarch64"}     # Debian arch -> uname -m
ENOTSUPP = 524
# libbpf's own CO-RE decisions in its debug log (tools/lib/bpf/relo_core.c)
LIBBPF_PATCHED = re.compile(r"relo #(\d+): patched insn #(\d+) \([^)]*\) (?:off|imm|imm64) (\d+) -> (\d+)")
LIBBPF_POISONED = re.compile(r"relo #(\d+): substituting insn #(\d+) w/ invalid insn")
CORE_LINE = re.compile(r"CO-RE|relo #\d+: kind|candidate|core_relo", re.I)


def read_jsonl(path):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def slurp(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


class Decoder:
    """Decode raw records with the struct layouts of a BPF object's BTF."""

    def __init__(self, obj):
        # The event structs are often absent from the object's .BTF (clang
        # emits BTF only for types that globals, maps, functions or CO-RE
        # relocations refer to), but the DWARF (-g) has them: pahole turns
        # the DWARF into BTF, which bpftool prints as JSON.
        with tempfile.TemporaryDirectory() as tmp:
            btf = os.path.join(tmp, "dwarf.btf")
            subprocess.run(["pahole", "--btf_encode_detached=" + btf, obj],
                           check=True, capture_output=True)
            raw = subprocess.run(["bpftool", "-j", "btf", "dump", "file", btf, "format", "raw"],
                                 check=True, capture_output=True, text=True).stdout
        self.types = {t["id"]: t for t in json.loads(raw)["types"]}
        self.by_name = {}
        for t in self.types.values():
            if t["kind"] == "STRUCT":
                self.by_name.setdefault(t["name"], t)

    def strip(self, tid):
        while self.types[tid]["kind"] in ("TYPEDEF", "CONST", "VOLATILE", "RESTRICT", "TYPE_TAG"):
            tid = self.types[tid]["type_id"]
        return self.types[tid]

    def size(self, t):
        k = t["kind"]
        if k == "ARRAY":
            return self.size(self.strip(t["type_id"])) * t["nr_elems"]
        if k == "PTR":
            return 8
        return t["size"]

    def value(self, t, data, off):
        k = t["kind"]
        if k in ("INT", "ENUM", "ENUM64"):
            n = t["size"]
            signed = (k == "INT" and "SIGNED" in t.get("encoding", "")) or \
                     (k != "INT" and t.get("encoding") == "SIGNED")
            return int.from_bytes(data[off:off + n], "little", signed=signed)
        if k == "PTR":
            return int.from_bytes(data[off:off + 8], "little")
        if k == "ARRAY":
            et = self.strip(t["type_id"])
            es = self.size(et)
            if et["kind"] == "INT" and es == 1:
                b = data[off:off + t["nr_elems"]]
                return b.split(b"\0", 1)[0].decode("latin-1")
            return [self.value(et, data, off + i * es) for i in range(t["nr_elems"])]
        if k in ("STRUCT", "UNION"):
            return self.struct(t, data, off)
        return None

    def struct(self, t, data, off=0):
        out = {}
        for m in t["members"]:
            mt = self.strip(m["type_id"])
            bo = m["bits_offset"]
            if m.get("bitfield_size"):
                v = int.from_bytes(data[off:off + t["size"]], "little")
                out[m["name"]] = (v >> bo) & ((1 << m["bitfield_size"]) - 1)
            elif m["name"]:
                out[m["name"]] = self.value(mt, data, off + bo // 8)
            else:
                out.update(self.value(mt, data, off + bo // 8) or {})
        return out

    def decode(self, names, hexstr):
        data = bytes.fromhex(hexstr)
        for n in names:
            t = self.by_name.get(n)
            if t and t["size"] == len(data):
                d = self.struct(t, data)
                d["_type"] = n
                return d
        return {"_type": None, "_len": len(data)}


class Kernel:
    def __init__(self, name, res, objs, host_explain, arch="amd64", host_objs=None, host_btf=None, idioms=0,
                 progtypes=0):
        self.name, self.res, self.objs, self.host_explain = name, res, objs, host_explain
        self.idioms = idioms
        self.progtypes = progtypes
        self.arch, self.host_objs, self.host_btf = arch, host_objs, host_btf
        self.config = {}
        for line in slurp(os.path.join(res, "config.txt")).splitlines():
            k, _, v = line.partition("=")
            self.config[k] = v
        # no config from the guest: assume the x86_64 kernels' (fentry works)
        self.fentry_attach = not self.config or \
            self.config.get("CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS") == "y"
        self.lines = []
        self.failed = 0
        self.row = {"kernel": name, "arch": arch}
        self.decoders = {}
        self.btf = {}
        self.sys = {}
        # a kernel built without BTF: relocore took its BTF from an archive
        self.no_kernel_btf = os.path.exists(os.path.join(res, "no-kernel-btf"))

    def result(self, check, errs):
        errs = [e for e in errs if e]
        if errs:
            more = f" (+{len(errs) - 3} more)" if len(errs) > 3 else ""
            self.lines.append(f"FAIL: vm/{self.name}/{check}: {'; '.join(errs[:3])}{more}")
            self.failed += 1
        else:
            self.lines.append(f"PASS: vm/{self.name}/{check}")
        return not errs

    def decoder(self, ex):
        if ex not in self.decoders:
            self.decoders[ex] = Decoder(os.path.join(self.objs, ex + ".bpf.o"))
        return self.decoders[ex]

    def events(self, ex, path):
        dec = self.decoder(ex)
        out = []
        for r in read_jsonl(path):
            if "event" not in r:
                continue
            v = r["value"]
            out.append(dec.decode(EVENT_STRUCTS[ex], v) if isinstance(v, str) else v)
        return out

    # --- truth helpers ---------------------------------------------------
    def field(self, struct, f):
        s = self.btf.get(struct)
        if not s or not s.get("id"):
            return None
        return s["fields"].get(f)

    # --- checks ------------------------------------------------------------
    def check_boot(self):
        rc = slurp(os.path.join(self.res, "guest.rc")).strip()
        ok = self.result("boot", [None if rc == "0" else f"guest tests rc {rc or 'missing'}"])
        self.sys = (read_jsonl(os.path.join(self.res, "truth-sys.json")) or [{}])[0]
        btf = read_jsonl(os.path.join(self.res, "truth-btf.json"))
        self.btf = btf[0] if btf else {}
        self.row["release"] = self.sys.get("release", "?")
        self.row["arch"] = self.sys.get("machine", "?")
        self.result("truth", [None if self.btf.get("task_struct") else "no BTF truth from the guest",
                              None if self.sys else "no sysinfo from the guest"])
        return ok

    def check_arch(self):
        """the guest runs the architecture kernels.list names, on the objects
        of that architecture; the host's BTF is the guest kernel's"""
        m = slurp(os.path.join(self.res, "machine")).strip() or self.sys.get("machine")
        errs = []
        if m != MACHINE.get(self.arch):
            errs.append(f"uname -m {m!r}, kernels.list says {self.arch} ({MACHINE.get(self.arch)})")
        own = []
        if self.host_objs and os.path.realpath(self.host_objs) != os.path.realpath(self.objs):
            for o in sorted(glob.glob(os.path.join(self.objs, "*.bpf.o"))):
                h = os.path.join(self.host_objs, os.path.basename(o))
                if not os.path.exists(h) or open(h, "rb").read() != open(o, "rb").read():
                    own.append(os.path.basename(o)[:-6])
            spec = [l.split("\t")[0] for l in slurp(os.path.join(self.objs, "ARCH-SPECIFIC")).splitlines() if l]
            if sorted(spec) != own:
                errs.append(f"objects that differ from the host's {own} != ARCH-SPECIFIC {spec}")
        n = len(glob.glob(os.path.join(self.objs, "*.bpf.o")))
        self.row["objects"] = {"shared": n - len(own), "own": own}
        self.result("arch", errs)
        if self.host_btf and not self.no_kernel_btf:
            g = slurp(os.path.join(self.res, "btf.sha256")).strip()
            try:
                h = hashlib.sha256(open(self.host_btf, "rb").read()).hexdigest()
            except OSError as e:
                h = f"unreadable ({e})"
            self.result("host-btf", [None if g == h else
                                     f"the guest's /sys/kernel/btf/vmlinux sha256 {g or 'missing'} != "
                                     f"{self.host_btf} {h}"])

    def check_fentry_unattachable(self, ex):
        """a kernel that cannot attach fentry programs to kernel functions:
        relocore run loads the program (the verifier accepts it) and only the
        attachment is refused, with ENOTSUPP"""
        rc = slurp(os.path.join(self.res, "run", ex + ".rc")).strip()
        err = slurp(os.path.join(self.res, "run", ex + ".err"))
        errs = []
        if rc == "0":
            errs.append("attached on a kernel without DYNAMIC_FTRACE_WITH_DIRECT_CALLS")
        elif "kernel refused" in err:
            errs.append("the kernel refused the program (the verifier, not the attachment)")
        elif not re.search(r"cannot attach .*(Unknown error %d|-%d)" % (ENOTSUPP, ENOTSUPP), err):
            errs.append("not refused at the attachment with ENOTSUPP: " + err.strip()[-140:])
        self.result(ex + "/fentry-unsupported", errs)
        self.row.setdefault("examples", {})[ex] = "n/a"
        if not errs:
            self.lines.append(f"  note: vm/{self.name}/{ex}: loaded; attaching fentry refused (ENOTSUPP): "
                              "this kernel has no DYNAMIC_FTRACE_WITH_DIRECT_CALLS")

    def check_explain(self):
        """relocore's decisions in the guest == the guest BTF parsed by trigger."""
        errs, n = [], 0
        offs = {}
        for ex in sorted(EVENT_STRUCTS):
            p = os.path.join(self.res, "explain", ex + ".json")
            try:
                d = json.load(open(p))
            except (OSError, ValueError):
                errs.append(f"{ex}: no explain output ({slurp(p[:-5] + '.err').strip()[:80]})")
                continue
            for r in d["relocations"]:
                e = self.judge_relo(ex, r, offs)
                if e is not None:
                    n += 1
                    if e:
                        errs.append(e)
        self.row["offsets"] = offs
        self.row["explain_checked"] = n
        self.result("explain-vs-btf", errs + ([] if n else ["no relocation compared"]))

    def judge_relo(self, ex, r, offs):
        acc, kind, new, ok = r["access"], r["kind"], r["new"], r["result"] == "ok"
        where = f"{ex} #{r['insn']} {kind} {acc}"
        m = re.fullmatch(r"(\w+?)(?:___\w+)?\.(\w+)", acc)
        if m and m.group(1) in self.btf and m.group(2) in self.btf[m.group(1)]["fields"]:
            tf = self.field(m.group(1), m.group(2))
            if kind == "field_exists":
                return None if new == (1 if tf else 0) else f"{where}: exists={new}, BTF says {bool(tf)}"
            if not ok:
                return None if tf is None else f"{where}: {r['result']} but the field exists"
            if tf is None:
                return f"{where}: relocated but the guest BTF has no such field"
            if r["target_bit_offset"] != tf["bit_off"]:
                return f"{where}: bit offset {r['target_bit_offset']} != BTF {tf['bit_off']}"
            if kind == "byte_off" and not tf["bits"]:
                if m.group(1) == "task_struct":
                    offs[m.group(2)] = new
                return None if new == tf["bit_off"] // 8 else f"{where}: {new} != BTF {tf['bit_off'] // 8}"
            if kind == "byte_sz" and not tf["bits"]:
                return None if new == tf["size"] else f"{where}: size {new} != BTF {tf['size']}"
            return ""
        m = re.fullmatch(r"enum (\w+?)(?:___\w+)?::(\w+?)(?:___\w+)?", acc)
        if m and m.group(1) in self.btf and m.group(2) in self.btf[m.group(1)]["values"]:
            tv = self.btf[m.group(1)]["values"][m.group(2)]
            if kind == "enumval_exists":
                return None if new == (tv is not None) else f"{where}: exists={new}, BTF says {tv is not None}"
            if not ok:
                return None if tv is None else f"{where}: {r['result']} but the value exists"
            return None if new == tv else f"{where}: {new} != BTF {tv}"
        m = re.fullmatch(r"(?:struct|enum) (\w+?)(?:___\w+)?", acc)
        if m and m.group(1) in self.btf:
            tt = self.btf[m.group(1)]
            if kind == "type_exists":
                return None if new == (1 if tt["id"] else 0) else f"{where}: {new}, BTF id {tt['id']}"
            if kind == "type_size" and ok:
                return None if new == tt["size"] else f"{where}: {new} != BTF {tt['size']}"
            if kind == "target_type_id":
                if self.no_kernel_btf:	# ids of the archive's minimized BTF
                    return None if r["target_type"].split()[-1] == m.group(1) else \
                        f"{where}: target type {r['target_type']!r}"
                return None if new == tt["id"] else f"{where}: {new} != BTF id {tt['id']}"
        return None

    def run_common(self, sub, ex, what):
        """the run happened, relocore relocated it, libbpf did no CO-RE"""
        base = os.path.join(self.res, sub, what)
        out = read_jsonl(base + ".out")
        err = slurp(base + ".err")
        errs = []
        head = next((r for r in out if "object" in r), None)
        if head is None:
            errs.append("no object line: " + err.strip().splitlines()[-1][:120] if err.strip() else "no output")
        elif head.get("core_relos_left") != 0:
            errs.append(f"core_relos_left={head.get('core_relos_left')}")
        core = [l for l in err.splitlines() if l.startswith("libbpf") and CORE_LINE.search(l)]
        if core:
            errs.append(f"libbpf did CO-RE work: {core[0][:100]}")
        if "libbpf:" not in err:
            errs.append("no libbpf log (-v) to inspect")
        refused = "kernel refused" in err
        return out, err, head, refused, errs

    def check_getpid(self, sub="run", what="getpid", record=True):
        truth = read_jsonl(os.path.join(self.res, sub, what + ".truth.json"))
        evs = self.events("getpid", os.path.join(self.res, sub, what + ".out"))
        tsz = dict(self.btf.get("task_struct", {}))
        if self.no_kernel_btf:
            # no kernel BTF, so no kernel type ids: the id is the one of the
            # BTF relocore took from its archive, as explain reported it
            try:
                relos = json.load(open(os.path.join(self.res, "explain", "getpid.json")))["relocations"]
                tsz["id"] = next(r["new"] for r in relos if r["kind"] == "target_type_id"
                                 and r["target_type"] == "struct task_struct")
            except (OSError, ValueError, StopIteration):
                tsz["id"] = None
        errs, seen = [], {}
        for t in truth:
            mine = [e for e in evs if e.get("pid") == t["pid"]]
            if len(mine) < 5:
                errs.append(f"{t['truth']}: {len(mine)} events for pid {t['pid']} (expected >= 5)")
            hz = 10 ** 9 // t["clk_tck"]
            want = {"tgid": t["tgid"], "ppid": t["ppid"], "leader_pid": t["tgid"], "ret": t["tgid"],
                    "comm": t["comm"], "state": 0, "task_btf_id": tsz.get("id"),
                    "task_size": tsz.get("size"), "comm_size": 16}
            for e in mine:
                for k, v in want.items():
                    if e.get(k) != v:
                        errs.append(f"{t['truth']} pid {t['pid']}: {k}={e.get(k)!r} truth {v!r}")
                if e.get("start_time_ns", -1) // hz != t["start_ticks"]:
                    errs.append(f"{t['truth']}: start_time_ns {e.get('start_time_ns')} -> "
                                f"{e.get('start_time_ns', 0) // hz} ticks, /proc says {t['start_ticks']}")
            if mine:
                seen[t["truth"]] = (mine[0], t)
        if not truth:
            errs.append("no ground truth written by the trigger")
        if record and "getpid-main" in seen:
            e, t = seen["getpid-main"]
            self.row["read"] = {"pid": (e["pid"], t["pid"]), "tgid": (e["tgid"], t["tgid"]),
                                "ppid": (e["ppid"], t["ppid"]), "comm": (e["comm"], t["comm"]),
                                "start": (e["start_time_ns"] // (10 ** 9 // t["clk_tck"]), t["start_ticks"])}
        if not record and "getpid-main" in seen:
            e, t = seen["getpid-main"]
            return errs, f"pid {e['pid']}/{t['pid']} tgid {e['tgid']}/{t['tgid']} ppid {e['ppid']}/{t['ppid']} comm {e['comm']!r}"
        if not record and not seen and truth:
            # nothing for the trigger's pid: show what was read instead
            e = evs[0] if evs else None
            t = truth[0]
            return errs, (f"read pid {e.get('pid')} tgid {e.get('tgid')} comm {e.get('comm')!r} "
                          f"for truth pid {t['pid']} comm {t['comm']!r}" if e else "no events")
        return errs, ""

    def check_execsnoop(self):
        truth = {t["truth"]: t for t in read_jsonl(os.path.join(self.res, "run", "execsnoop.truth.json"))}
        evs = self.events("execsnoop", os.path.join(self.res, "run", "execsnoop.out"))
        errs = []
        par, ch, res = truth.get("exec-parent"), truth.get("exec-child"), truth.get("exec-result")
        if not (par and ch and res):
            return ["incomplete ground truth"]
        execs = [e for e in evs if e.get("_type") == "exec_event" and e.get("pid") == ch["pid"]]
        exits = [e for e in evs if e.get("_type") == "exit_event" and e.get("pid") == ch["pid"]]
        pexit = [e for e in evs if e.get("_type") == "exit_event" and e.get("pid") == par["pid"]]
        if len(execs) != 1:
            errs.append(f"{len(execs)} exec events for the child pid {ch['pid']}")
        for e in execs:
            for k, v in {"ppid": par["pid"], "uid": ch["uid"], "old_pid": ch["pid"], "comm": ch["comm"],
                         "filename": res["filename"], "arg0": res["argv0"]}.items():
                if e.get(k) != v:
                    errs.append(f"exec: {k}={e.get(k)!r} truth {v!r}")
        if len(exits) != 1:
            errs.append(f"{len(exits)} exit events for the child pid {ch['pid']}")
        hz = 10 ** 9 // ch["clk_tck"]
        for e in exits:
            for k, v in {"tid": ch["pid"], "ppid": par["pid"], "code": res["child_status"],
                         "comm": ch["comm"]}.items():
                if e.get(k) != v:
                    errs.append(f"exit: {k}={e.get(k)!r} truth {v!r}")
            # lifetime = ktime at do_exit - task->start_time: start_time is
            # within [start_ticks, start_ticks+1) ticks, do_exit after mono_ns
            lo = ch["mono_ns"] - (ch["start_ticks"] + 1) * hz
            hi = ch["mono_ns"] + 5 * 10 ** 9 - ch["start_ticks"] * hz
            if not lo <= e.get("lifetime_ns", -1) <= hi:
                errs.append(f"exit: lifetime_ns {e.get('lifetime_ns')} outside [{lo}, {hi}]")
        if len(pexit) != 1:
            errs.append(f"{len(pexit)} exit events for the trigger pid {par['pid']}")
        for e in pexit:
            if (e.get("code"), e.get("ppid")) != (0, par["ppid"]):
                errs.append(f"trigger exit: code {e.get('code')} ppid {e.get('ppid')}, truth 0 {par['ppid']}")
        return errs

    def check_schedstate(self):
        truth = read_jsonl(os.path.join(self.res, "run", "schedstate.truth.json"))
        evs = self.events("schedstate", os.path.join(self.res, "run", "schedstate.out"))
        if not truth:
            return ["no ground truth"]
        t = truth[0]
        errs = []
        mine = [e for e in evs if e.get("pid") == t["pid"]]
        if t.get("voluntary_switches", 0) < 1:
            errs.append("the trigger never slept on the disk (no voluntary switch)")
        if not mine:
            errs.append(f"no block event for pid {t['pid']} ({len(evs)} events in all)")
        has = {f: self.field("task_struct", f) is not None for f in
               ("saved_state", "in_user_fault", "sched_rt_mutex", "softirq_disable_cnt", "numa_preferred_nid")}
        for e in mine:
            for k, v in {"tgid": t["tgid"], "comm": t["comm"], "state": TASK_UNINTERRUPTIBLE,
                         "prio": t["prio"], "policy": t["policy"]}.items():
                if e.get(k) != v:
                    errs.append(f"{k}={e.get(k)!r} truth {v!r}")
            fl = e.get("flags", 0)
            if not fl & F_IOWAIT or not fl & F_CONTRIB_LOAD:
                errs.append(f"flags {fl:#x} lack in_iowait/sched_contributes_to_load")
            if (e.get("saved_state") != 0xffffffff) != has["saved_state"]:
                errs.append(f"saved_state {e.get('saved_state')} but BTF has saved_state={has['saved_state']}")
            for bit, f in ((F_USER_FAULT, "in_user_fault"), (F_RT_MUTEX, "sched_rt_mutex"),
                           (F_SOFTIRQ, "softirq_disable_cnt")):
                if fl & bit and not has[f]:
                    errs.append(f"flag of {f} set, but the kernel has no {f}")
            if not has["numa_preferred_nid"] and e.get("numa_nid") != -1:
                errs.append(f"numa_nid {e.get('numa_nid')} without numa_preferred_nid")
        if mine:
            self.row["sched"] = {"events": len(mine), "state": mine[0]["state"], "flags": mine[0]["flags"]}
        return errs

    def check_ksymaddr(self):
        """typeless __ksym externs: the addresses libbpf filled in at load
        are the guest's /proc/kallsyms ones; a missing weak one is 0"""
        truth = {}
        for l in slurp(os.path.join(self.res, "run", "kallsyms.txt")).splitlines():
            f = l.split()
            if len(f) >= 3:
                truth.setdefault(f[2], set()).add(int(f[0], 16))
        out = read_jsonl(os.path.join(self.res, "run", "ksymaddr.out"))
        vals = [r["value"] for r in out if r.get("map") == "addrs" and isinstance(r.get("value"), dict)]
        want = truth.get("bpf_prog_active", set())
        errs = []
        if "relocore_no_such_symbol" in truth:
            errs.append("the guest's kallsyms has relocore_no_such_symbol")
        if len(want) != 1 or 0 in want:
            return errs + [f"kallsyms gives no single non-zero address of bpf_prog_active: {sorted(want)}"]
        if not vals:
            return errs + ["no value in map addrs (the program never ran?)"]
        v = vals[0]
        if v.get("hits", 0) < 1:
            errs.append("no sched_switch seen")
        if v.get("active") not in want:
            errs.append(f"&bpf_prog_active = {v.get('active'):#x}, kallsyms {min(want):#x}"
                        if isinstance(v.get("active"), int) else f"active = {v.get('active')!r}")
        if v.get("missing") != 0:
            errs.append(f"the missing weak ksym's address is {v.get('missing')!r}, not 0")
        if not errs:
            self.row["ksym"] = f"{min(want):#x}"
        return errs

    def kallsyms_lacks(self, name):
        """the guest's kallsyms has no @name (variables are listed only with
        CONFIG_KALLSYMS_ALL: Debian's arm64 6.1 has it off)"""
        f = os.path.join(self.res, "run", "kallsyms.txt")
        return os.path.exists(f) and not any(
            l.split()[2:3] == [name] for l in slurp(f).splitlines())

    def check_ksym_unresolved(self, ex, name):
        """a strong typeless __ksym the kernel's kallsyms lacks: libbpf
        must refuse the object, naming the extern, before any program is
        loaded (nothing half-done)"""
        rc = slurp(os.path.join(self.res, "run", ex + ".rc")).strip()
        err = slurp(os.path.join(self.res, "run", ex + ".err"))
        errs = []
        if rc == "0":
            errs.append(f"loaded, though the guest's kallsyms has no {name}")
        elif f"extern '{name}' (strong): not resolved" not in err:
            errs.append(f"refused, but not for the unresolved extern {name}: " + err.strip()[-160:])
        if self.result(ex + "/ksym-unresolved", errs):
            self.lines.append(f"  note: vm/{self.name}/{ex}: the kernel's kallsyms lists no {name} "
                              "(no CONFIG_KALLSYMS_ALL): refused at load, as libbpf must")
        self.row.setdefault("examples", {})[ex] = "n/a"

    def check_skbdrop(self):
        truth = read_jsonl(os.path.join(self.res, "run", "skbdrop.truth.json"))
        evs = self.events("skbdrop", os.path.join(self.res, "run", "skbdrop.out"))
        if not truth:
            return ["no ground truth"]
        t = truth[0]
        enum = self.btf.get("skb_drop_reason", {})
        nosock = enum.get("values", {}).get("SKB_DROP_REASON_NO_SOCKET")
        errs = []
        if not enum.get("id"):
            # no drop reasons in this kernel (< 5.17): every IPv4 drop is
            # reported with class DROP_NO_REASON, reason 0, enum_size 0
            mine = [e for e in evs if e.get("drop_class") == 5]
            if len(mine) < t["sent"]:
                errs.append(f"{len(mine)} NO_REASON drop events, {t['sent']} datagrams sent to a closed port")
            for e in mine:
                for k, v in {"reason": 0, "protocol": t["protocol"], "enum_size": 0, "subsys": 0}.items():
                    if e.get(k) != v:
                        errs.append(f"{k}={e.get(k)!r} truth {v!r}")
                if not e.get("location"):
                    errs.append("location 0")
            if any(e.get("drop_class") not in (5,) for e in evs):
                errs.append("a drop class other than NO_REASON on a kernel without drop reasons")
            self.row["drop"] = {"events": len(mine), "reason": None, "truth": None}
            return errs
        mine = [e for e in evs if e.get("drop_class") == 1]
        if len(mine) < t["sent"]:
            errs.append(f"{len(mine)} NO_SOCKET drop events, {t['sent']} datagrams sent to a closed port")
        for e in mine:
            for k, v in {"reason": nosock, "protocol": t["protocol"], "enum_size": enum.get("size"),
                         "subsys": 0}.items():
                if e.get(k) != v:
                    errs.append(f"{k}={e.get(k)!r} truth {v!r}")
            if not e.get("location"):
                errs.append("location 0")
        self.row["drop"] = {"events": len(mine), "reason": mine[0]["reason"] if mine else None, "truth": nosock}
        return errs

    def check_tcpclose(self, sub="run", what="tcpclose"):
        truth = read_jsonl(os.path.join(self.res, sub, what + ".truth.json"))
        evs = self.events("tcpclose", os.path.join(self.res, sub, what + ".out"))
        if not truth:
            return ["no ground truth"]
        proto = self.field("sock", "sk_protocol")
        errs = []
        for t in truth:
            mine = [e for e in evs if e.get("pid") == t["pid"] and e.get("sport") == t["sport"]
                    and e.get("dport") == t["dport"]]
            if len(mine) != 1:
                errs.append(f"{t['role']}: {len(mine)} close events for {t['sport']}->{t['dport']}")
                continue
            e = mine[0]
            want = dict(t)
            # kernels from 6.13 on also mark a socket that connect() bound
            # to an ephemeral port (SOCK_CONNECT_BIND, bit 4 of
            # sk_userlocks): the autobinding client has it there
            kv = self.kernel_version() or 0
            if t["role"] == "client" and kv >= (6 << 16 | 13 << 8):
                want["userlocks"] = t["userlocks"] | 0x10
            for k in ("family", "saddr4", "daddr4", "state", "bytes_received", "bytes_acked",
                      "total_retrans", "srtt_us", "linger", "keepalive", "userlocks", "dead"):
                if e.get(k) != want[k]:
                    errs.append(f"{t['role']}: {k}={e.get(k)!r} truth {want[k]!r}")
            if e.get("comm") != "trigger":
                errs.append(f"{t['role']}: comm {e.get('comm')!r}")
            if proto and e.get("sk_protocol_off") != proto["bit_off"] // 8:
                errs.append(f"sk_protocol_off {e.get('sk_protocol_off')} != BTF {proto['bit_off'] // 8}")
        return errs

    def kernel_version(self):
        """LINUX_KERNEL_VERSION of the guest's uname -r, as libbpf computes it"""
        m = re.match(r"(\d+)\.(\d+)\.(\d+)", self.sys.get("release", ""))
        if not m:
            return None
        a, b, c = (int(x) for x in m.groups())
        return a << 16 | b << 8 | min(c, 255)

    def check_taskwatch(self, sub="run", record=True, stem="taskwatch", ex="taskwatch"):
        """kprobe/do_exit events of the trigger's forked child and of the
        trigger itself == /proc/<pid>/stat, getuid(), SIGCHLD, uname -r"""
        truth = {t["truth"]: t for t in read_jsonl(os.path.join(self.res, sub, stem + ".truth.json"))}
        evs = self.events(ex, os.path.join(self.res, sub, stem + ".out"))
        ch, me = truth.get("taskexit-child"), truth.get("taskexit-self")
        if not (ch and me):
            return ["incomplete ground truth"]
        errs = []
        if ch["ppid"] != me["pid"] or ch["comm"] != TASKEXIT_COMM or me.get("child") != ch["pid"]:
            errs.append(f"inconsistent truth: child {ch['pid']} ppid {ch['ppid']} comm {ch['comm']!r}, "
                        f"trigger {me['pid']}")
        kv = self.kernel_version()
        for t in (ch, me):
            if t["kver"] != kv:
                errs.append(f"truth kver {t['kver']:#x} != {kv} of release {self.sys.get('release')!r}")
        for t in (ch, me):
            who = t["truth"]
            mine = [e for e in evs if e.get("pid") == t["pid"]]
            if len(mine) != 1:
                errs.append(f"{who}: {len(mine)} exit events for pid {t['pid']} ({len(evs)} in all)")
            hz = 10 ** 9 // t["clk_tck"]
            want = {"ppid": t["ppid"], "uid": t["uid"], "kver": t["kver"], "arg_start": t["arg_start"],
                    "in_execve": t["in_execve"], "in_iowait": t["in_iowait"],
                    "exit_signal": t["exit_signal"], "comm": t["comm"],
                    # task->__state in do_exit: the task runs (TASK_RUNNING);
                    # read by the >= 5.14 branch, the other one is pruned
                    "state": 0,
                    # container_of(signal->thread_head.next, task_struct,
                    # thread_node)->pid: the (single-threaded) task itself
                    "thread0": t["pid"]}
            for e in mine:
                for k, v in want.items():
                    if e.get(k) != v:
                        errs.append(f"{who}: {k}={e.get(k)!r} truth {v!r}")
                # task->start_time: monotonic ns; /proc: start_boottime in
                # ticks (the same clock in a guest that never suspended, but
                # read a moment later by fork: it may be one tick further)
                if e.get("start_time", -1) // hz not in (t["start_ticks"], t["start_ticks"] - 1):
                    errs.append(f"{who}: start_time {e.get('start_time')} -> {e.get('start_time', 0) // hz}"
                                f" ticks, /proc says {t['start_ticks']}")
        if sub == "run" and not self.same_decisions(ex, self.name):
            errs.append("the host's `relocore explain` for this kernel decided otherwise than the guest's")
        if record:
            e = next((e for e in evs if e.get("pid") == ch["pid"]), {})
            self.row["taskwatch"] = {k: e.get(k) for k in ("pid", "ppid", "kver", "exit_signal", "comm")}
        return errs

    def stockload_run(self, base):
        """a stockload run's (out lines, stderr, rc, errors): an error when
        it did not load, with stockload's own last message"""
        out, err = read_jsonl(base + ".out"), slurp(base + ".err")
        rc = slurp(base + ".rc").strip()
        errs = []
        if rc != "0" or next((r for r in out if "object" in r), None) is None:
            last = [l for l in err.splitlines() if l.startswith("stockload")]
            errs.append(f"stockload rc {rc or 'missing'}: " + (last[-1][:140] if last else "no output"))
        return out, err, rc, errs

    def check_stock(self, ex):
        """the plugin-compiled object loaded by stock libbpf alone (stockload):
        libbpf's CO-RE decisions == relocore's in this guest, .kconfig filled,
        the events read the same exact values"""
        out, err, rc, errs = self.stockload_run(os.path.join(self.res, "stock", ex))
        head = next((r for r in out if "object" in r), None)
        patched = {int(m.group(2)): int(m.group(4)) for m in LIBBPF_PATCHED.finditer(err)}
        poisoned = {int(m.group(2)) for m in LIBBPF_POISONED.finditer(err)}
        try:
            relos = json.load(open(os.path.join(self.res, "explain", ex + ".json")))["relocations"]
        except (OSError, ValueError):
            relos = []
        if not relos:
            errs.append("no relocore explain of this object in the guest to compare with")
        if not patched and not poisoned:
            errs.append("libbpf's log shows no CO-RE relocation (not a CO-RE load?)")
        for r in relos:
            i = r["insn"]
            if r["result"] == "ok":
                if patched.get(i) != r["new"]:
                    errs.append(f"insn #{i} {r['kind']} {r['access']}: libbpf "
                                f"{'poisoned it' if i in poisoned else patched.get(i)}, relocore {r['new']}")
            elif i not in poisoned:
                errs.append(f"insn #{i} {r['access']}: relocore {r['result']}, libbpf {patched.get(i)}")
        kc = next((r["kconfig"] for r in out if "kconfig" in r), None)
        kv = self.kernel_version()
        if kc is None or kc.get("LINUX_KERNEL_VERSION") != kv:
            errs.append(f".kconfig LINUX_KERNEL_VERSION {kc and kc.get('LINUX_KERNEL_VERSION')} != {kv}")
        if head is not None:
            errs += self.check_taskwatch("stock", record=False)
        ok = self.result(f"plugin-stock-libbpf/{ex}", errs)
        self.row.setdefault("stock", {})[ex] = "ok" if ok else ("failed" if head is None else "wrong")
        if ok:
            self.lines.append(f"  note: vm/{self.name}/plugin-stock-libbpf/{ex}: libbpf patched "
                              f"{len(patched)} insns as relocore decided, poisoned {len(poisoned)}, "
                              f"LINUX_KERNEL_VERSION {kv:#x}")
        return ok

    def check_baked(self):
        """taskwatch relocated AND .kconfig-baked on the host for this kernel
        (relocore reloc --kernel-release REL --kconfig CONFIG), loaded by
        stock libbpf alone with no BTF: no CO-RE left, LINUX_KERNEL_VERSION
        read from .rodata.kconfig == this release's, exact events.  Baked for
        a release on the other side of 5.14 instead (5.10.0, or 6.1.0 on an
        older kernel), the verifier must follow the other branch into the
        relocation that is poisoned on this kernel and refuse the load."""
        base = os.path.join(self.res, "baked", "taskwatch.baked")
        if not os.path.exists(base + ".rc"):
            self.result("baked/taskwatch", ["no baked object was run in the guest"])
            return
        out, err, rc, errs = self.stockload_run(base)
        if LIBBPF_PATCHED.search(err) or LIBBPF_POISONED.search(err):
            errs.append("libbpf still did CO-RE relocations (the object was relocated on the host)")
        kc = next((r for r in out if "kconfig" in r), None)
        kv = self.kernel_version()
        if kc is None or not kc.get("baked") or kc["kconfig"].get("LINUX_KERNEL_VERSION") != kv:
            errs.append(f"baked .rodata.kconfig: {kc} (want LINUX_KERNEL_VERSION {kv}, baked)")
        if rc == "0":
            errs += self.check_taskwatch("baked", record=False, stem="taskwatch.baked")
        self.result("baked/taskwatch", errs)
        self.row["baked"] = "ok" if not errs else "FAIL"

        wrong = sorted(glob.glob(os.path.join(self.res, "baked", "taskwatch.baked-wrong-*.rc")))
        base = wrong[0][:-3] if wrong else os.path.join(self.res, "baked", "taskwatch.baked-wrong-?")
        v = base.rsplit("-", 1)[-1]
        rc = slurp(base + ".rc").strip()
        err = slurp(base + ".err")
        errs = []
        if rc == "0" or rc == "":
            errs.append(f"stockload rc {rc or 'missing'}: the object baked for {v} loaded on {self.sys.get('release')}")
        elif "195896080" not in err:  # 0xbad2310: the poisoned relocation's call
            errs.append(f"refused, but not at the relocation poisoned for {v}: "
                        + " | ".join(err.strip().splitlines()[-3:])[:200])
        if self.result("baked/taskwatch-wrong-version", errs):
            self.lines.append(f"  note: vm/{self.name}/baked: the object baked for {v} was refused at "
                              "the poisoned state relocation (call 195896080), as it must be")

    def check_needs_kernel_btf(self, ex):
        """fentry programs need the kernel's own BTF (the attach point is a
        kernel BTF id): on a kernel built without BTF the load must be
        refused, saying so, and nothing else may run half-way"""
        rc = slurp(os.path.join(self.res, "run", ex + ".rc")).strip()
        err = slurp(os.path.join(self.res, "run", ex + ".err"))
        errs = []
        if rc == "0":
            errs.append("loaded on a kernel without BTF")
        elif not re.search(r"BTF", err):
            errs.append("refused without naming the missing kernel BTF: " + err.strip()[-140:])
        self.result(ex + "/needs-kernel-btf", errs)
        self.row.setdefault("examples", {})[ex] = "n/a"

    def check_example(self, ex, fn):
        out, err, head, refused, errs = self.run_common("run", ex, ex)
        if refused:
            vl = slurp(os.path.join(self.res, "run", ex + ".verifier.log"))
            why = [l for l in vl.splitlines() if l and not re.match(r"^\s*\d+:|^;|^===|^processed", l)]
            errs.append("the kernel refused the program: " + (why[-1] if why else "see run/%s.err" % ex))
        elif head is not None:
            errs += fn()
        ok = self.result(ex, errs)
        self.row.setdefault("examples", {})[ex] = "ok" if ok else ("refused" if refused else "wrong")
        return ok

    def check_negative(self):
        """objects relocated on the host for kernel K, run here as they are"""
        negdir = os.path.join(self.res, "neg")
        names = sorted(f[:-4] for f in os.listdir(negdir) if f.endswith(".out")) if os.path.isdir(negdir) else []
        shown, errs, notes = 0, [], []
        for b in names:
            ex, k = b.split(".for-", 1)
            if self.no_kernel_btf and ex == "tcpclose":
                continue	# fentry: refused here whatever its offsets
            if self.no_kernel_btf and ex == "getpid" and self.same_decisions(ex, k):
                continue	# same layout; and its kernel type ids cannot match
            out, err, head, refused, cerrs = self.run_common("neg", ex, b)
            if ex == "tcpclose" and not self.fentry_attach and not refused:
                # loaded, but fentry cannot attach here: it may not run
                if slurp(os.path.join(negdir, b + ".rc")).strip() == "0":
                    errs.append(f"{b}: ran on a kernel that cannot attach fentry")
                notes.append(f"{b}: loaded, not attachable here (no fentry)")
                continue
            if head is None and not refused:
                errs.append(f"{b}: did not run ({cerrs[0] if cerrs else '?'})")
                continue
            if head and head.get("relocations") not in (0, None):
                errs.append(f"{b}: relocore run relocated {head.get('relocations')} (expected none left)")
            same = self.same_decisions(ex, k)
            if refused:
                vl = slurp(os.path.join(negdir, b + ".verifier.log"))
                why = [l for l in vl.splitlines() if l and not re.match(r"^\s*\d+:|^;|^===|^processed", l)]
                verdict, detail = "refused", (why[-1] if why else "refused")
            else:
                if ex == "getpid":
                    werrs, detail = self.check_getpid("neg", b, record=False)
                else:
                    werrs, detail = self.check_tcpclose("neg", b), ""
                verdict = "wrong" if werrs else "right"
                if werrs and not detail:
                    detail = werrs[0]
            notes.append(f"{b}: {verdict}" + (f" ({detail})" if detail else ""))
            if verdict == "right" and not same:
                errs.append(f"{b}: reads right values although its offsets differ from this kernel's")
            if verdict != "right" and same:
                errs.append(f"{b}: {verdict} although the layouts agree: {detail}")
            if verdict != "right":
                shown += 1
                self.row.setdefault("negative", []).append(f"{ex}@{k}: {verdict}: {detail}".encode("ascii", "backslashreplace").decode())
        for n in notes:
            self.lines.append(f"  note: vm/{self.name}/negative: {n}")
        self.row["negative_shown"] = shown
        self.result("negative-control", errs + ([] if names else ["no negative runs"]))

    def check_kills(self):
        """relocore run killed at delays across its run (guest-tests.sh):
        what the kernel held after each kill is what it held before the
        first, and kills landed both before and after the programs were
        attached"""
        d = os.path.join(self.res, "kill")
        if not os.path.isdir(d):
            return self.result("kill", ["the guest ran no kill test (no /bin/bpfls?)"])
        base = slurp(os.path.join(d, "baseline.txt"))
        errs, attached, early, loaded = [], 0, 0, 0
        n = 0
        while os.path.exists(os.path.join(d, f"{n}.delay")):
            delay = slurp(os.path.join(d, f"{n}.delay")).split()
            after = slurp(os.path.join(d, f"{n}.after"))
            before = slurp(os.path.join(d, f"{n}.before"))
            if len(delay) < 2 or delay[1] != "137":
                errs.append(f"kill {n}: relocore run was not killed (wait status {delay[1:]})")
            if after != base:
                extra = sorted(set(after.splitlines()) - set(base.splitlines()))
                errs.append(f"kill {n} at {delay[0]}s: still held after it: {extra[:4]}")
            if '"attached"' in slurp(os.path.join(d, f"{n}.out")):
                attached += 1
            elif "getpid_" in before:
                loaded += 1
            else:
                early += 1
            n += 1
        if not n:
            errs.append("no kill recorded")
        elif not attached or not early + loaded:
            errs.append(f"the kills did not span the run: {early} before loading, {loaded} "
                        f"loaded, {attached} attached")
        self.row["kills"] = f"{n} ({early} early, {loaded} loaded, {attached} attached)"
        self.lines.append(f"# vm/{self.name}/kill: {self.row['kills']}")
        return self.result("kill", errs)

    def check_progtypes(self):
        """test/vm/progtypes in the guest: what each run did against its
        ground truth (3 pings over lo: XDP and tc ingress count the 6
        packets lo receives, cgroup_skb egress at least the 3 requests; the iterator
        lists pid 1; the syscall program returns sizeof(struct task_struct)
        of this kernel, from the BTF), and relocore check's prediction of
        each run (ok iff it loads and attaches)"""
        d = os.path.join(self.res, "progtypes")
        names = sorted(f[:-3] for f in os.listdir(d) if f.endswith(".rc")
                       and not f.endswith(".check.rc")) if os.path.isdir(d) else []
        if not names:
            return self.result("progtypes", ["the guest ran no program-type object"])
        errs, hits, shown = [], 0, []
        for b in names:
            rc = slurp(os.path.join(d, b + ".rc")).strip()
            out = read_jsonl(os.path.join(d, b + ".out"))
            err = slurp(os.path.join(d, b + ".err")).strip().splitlines()
            try:
                chk = json.load(open(os.path.join(d, b + ".check.json")))
                predicted = all(p["ok"] for p in chk["kernels"][0]["programs"])
            except (OSError, ValueError, KeyError, IndexError):
                predicted = None
            ran = rc == "0"
            # relocore run attaches tc programs by tcx links only (Linux
            # 6.6; a legacy filter would outlive a killed run), and check
            # --tc predicts that; where the kernel has none the refusal
            # must say why
            if b == "tccount" and (self.kernel_version() or 0) < (6 << 16 | 6 << 8) and \
                    (ran or not any("tcx needs Linux 6.6" in l for l in err)):
                errs.append(f"tccount: on {self.sys.get('release')} relocore run should refuse tc "
                            f"without tcx links, and say so: rc {rc}, {err[-1:] if err else ''}")
            if predicted == ran:
                hits += 1
            else:
                errs.append(f"{b}: relocore check predicted {'a load' if predicted else 'a failure'}, "
                            f"the run {'loaded' if ran else 'failed: ' + (err[-1] if err else rc)}")
            if not ran:
                shown.append(f"{b} refused")
                continue
            maps = {(r.get("map"), json.dumps(r.get("key"))): r.get("value")
                    for r in out if "map" in r}
            if b == "tccount":
                v = maps.get(("tc_pkts", "0"), 0)
                shown.append(f"tc {v}")
                if not isinstance(v, int) or v < 6:
                    errs.append(f"tccount: tc ingress on lo counted {v} packets, 3 pings make 6")
            elif b == "xdpcount":
                v = maps.get(("xdp_pkts", "0"), 0)
                shown.append(f"xdp {v}")
                if not isinstance(v, int) or v < 6:
                    errs.append(f"xdpcount: XDP on lo counted {v} packets, 3 pings make 6")
            elif b == "cgcount":
                v = maps.get(("egress", "0")) or {}
                shown.append(f"egress {v.get('packets')}")
                if not isinstance(v, dict) or (v.get("packets") or 0) < 3 or (v.get("bytes") or 0) < 3 * 84:
                    errs.append(f"cgcount: cgroup_skb egress counted {v}, 3 pings send at least 3 packets of 84 bytes")
            elif b == "taskiter":
                o = "".join(r.get("output", "") for r in out if "iter" in r)
                lines = [l.split() for l in o.splitlines()]
                shown.append(f"iter {len(lines)} tasks")
                if not any(l[:2] == ["1", "1"] for l in lines):
                    errs.append(f"taskiter: pid 1 is not among the {len(lines)} tasks listed")
            elif b == "runonce":
                rv = [r.get("retval") for r in out if "run" in r]
                want = self.btf.get("task_struct", {}).get("size")
                shown.append(f"run {rv}")
                if not rv or (want and rv[0] != want):
                    errs.append(f"runonce: the syscall program returned {rv}, sizeof(struct task_struct) is {want}")
        self.row["progtypes"] = f"{hits}/{len(names)} predicted; " + ", ".join(shown)
        self.lines.append(f"# vm/{self.name}/progtypes: {self.row['progtypes']}")
        return self.result("progtypes", errs)

    def check_idioms(self, n):
        """the reader's idiom corpus (test/reader), each object loaded and
        not attached by stock libbpf (its own CO-RE) and by relocore run:
        both load it, with the same programs, or both do not"""
        d = os.path.join(self.res, "idioms")
        names = sorted(f[:-len(".stock.rc")] for f in os.listdir(d) if f.endswith(".stock.rc")) \
            if os.path.isdir(d) else []
        errs, notes, both_ok, both_no = [], [], 0, 0
        if len(names) != n:
            errs.append(f"the guest loaded {len(names)} of the {n} idiom objects it was given")

        def progs(path):
            return sorted((r["program"], r.get("section")) for r in read_jsonl(path) if "program" in r)

        def why(path):
            ls = [l for l in slurp(path).splitlines() if l.strip() and not l.startswith("libbpf: prog '")]
            return ls[-1][:160] if ls else "(nothing said)"
        for b in names:
            base = os.path.join(d, b)
            s_ok = slurp(base + ".stock.rc").strip() == "0"
            r_ok = slurp(base + ".run.rc").strip() == "0"
            if s_ok != r_ok:
                errs.append(f"{b}: stock libbpf {'loads it' if s_ok else 'does not: ' + why(base + '.stock.err')}, "
                            f"relocore run {'loads it' if r_ok else 'does not: ' + why(base + '.run.err')}")
            elif s_ok:
                sp, rp = progs(base + ".stock.out"), progs(base + ".run.out")
                if sp != rp:
                    errs.append(f"{b}: loaded both ways, but stock libbpf loaded {sp}, relocore run {rp}")
                both_ok += 1
            else:
                both_no += 1
                notes.append(f"{b}: refused both ways: libbpf: {why(base + '.stock.err')}; "
                             f"relocore run: {why(base + '.run.err')}")
        for x in notes:
            self.lines.append(f"  note: vm/{self.name}/idioms: {x}")
        self.row["idioms"] = f"{both_ok}+{both_no}/{len(names)}"
        self.result("idioms", errs)

    def same_decisions(self, ex, k):
        """does the host's explain for kernel k decide exactly as the guest's?"""
        try:
            host = json.load(open(os.path.join(self.host_explain, f"{ex}.{k}.json")))
            guest = json.load(open(os.path.join(self.res, "explain", ex + ".json")))
        except (OSError, ValueError):
            return False
        # type ids differ between a full BTF and an archive's minimized one
        key = lambda d: [(r["section"], r["insn"], r["result"],
                          r["target_type"] if r["kind"] == "target_type_id" else r["new"])
                         for r in d["relocations"]]
        return key(host) == key(guest)

    def check_presence(self):
        """kernel-specific fields: the BTF truth agrees with uname/config"""
        rt = self.sys.get("preempt_rt")
        has = {f: self.field("task_struct", f) is not None for f in
               ("saved_state", "sched_rt_mutex", "softirq_disable_cnt", "in_user_fault", "numa_preferred_nid")}
        self.row["fields"] = has
        self.row["preempt_rt"] = rt
        errs = []
        if has["softirq_disable_cnt"] != bool(rt):
            errs.append(f"softirq_disable_cnt present={has['softirq_disable_cnt']} but PREEMPT_RT={rt}")
        self.result("rt-fields-vs-uname", errs)

    def run(self):
        if not self.check_boot():
            self.row["status"] = "FAIL"
            self.row["failed"] = self.failed
            return
        self.check_presence()
        self.check_arch()
        self.check_explain()
        self.check_example("getpid", lambda: self.check_getpid()[0])
        self.check_example("execsnoop", self.check_execsnoop)
        self.check_example("schedstate", self.check_schedstate)
        self.check_example("skbdrop", self.check_skbdrop)
        if self.no_kernel_btf:
            self.check_needs_kernel_btf("tcpclose")
        elif not self.fentry_attach:
            self.check_fentry_unattachable("tcpclose")
        else:
            self.check_example("tcpclose", self.check_tcpclose)
        self.check_example("taskwatch", self.check_taskwatch)
        if os.path.exists(os.path.join(self.objs, "ksymaddr.bpf.o")):
            if self.kallsyms_lacks("bpf_prog_active"):
                self.check_ksym_unresolved("ksymaddr", "bpf_prog_active")
            else:
                self.check_example("ksymaddr", self.check_ksymaddr)
        # the same plain C compiled by clang-19 with the LLVM 19 plugin: the
        # same exact values
        if os.path.exists(os.path.join(self.objs, "taskwatch-clang19.bpf.o")):
            self.check_example("taskwatch-clang19", lambda: self.check_taskwatch(
                record=False, stem="taskwatch-clang19", ex="taskwatch-clang19"))
        for ex in STOCK:
            self.check_stock(ex)
        self.check_baked()
        self.check_negative()
        self.check_kills()
        if self.idioms:
            self.check_idioms(self.idioms)
        if self.progtypes:
            self.check_progtypes()
        self.row["failed"] = self.failed
        self.row["status"] = "PASS" if not self.failed else "FAIL"


def esc(v):
    """a value as printable ASCII: wrong reads are often raw bytes"""
    if not isinstance(v, str):
        return str(v)
    return "'" + "".join(c if 32 <= ord(c) < 127 else f"\\x{ord(c) & 0xff:02x}" for c in v) + "'"


def table(paths, full_path=None):
    """the matrix table: a compact one (fits 120 columns) on stdout, and the
    full per-field table with every negative-control detail in full_path"""
    rows = []
    for p in paths:
        try:
            rows.append(json.load(open(p)))
        except (OSError, ValueError):
            rows.append({"kernel": os.path.basename(os.path.dirname(p)), "status": "FAIL"})
    fields = ["pid", "tgid", "real_parent", "comm", "start_boottime", "__state"]

    def cells(r):
        o = r.get("offsets", {})
        rd = r.get("read", {})
        fl = r.get("fields", {})
        ex = r.get("examples", {})

        def rv(k):
            if k not in rd:
                return "-"
            a, b = rd[k]
            return esc(a) if a == b else f"{esc(a)}!={esc(b)}"
        yn = lambda k: "-" if k not in fl else ("yes" if fl[k] else "no")
        wrong = [k for k, (a, b) in rd.items() if a != b]
        return {
            "kernel": r.get("kernel", "?"), "arch": r.get("arch", "x86_64"),
            "release": r.get("release", "?"),
            **{f"@{f}": str(o.get(f, "-")) for f in fields},
            "@state": str(o.get("__state", o.get("state", "-"))),
            "pid": rv("pid"), "tgid": rv("tgid"), "ppid": rv("ppid"), "comm": rv("comm"), "start": rv("start"),
            "reads": ("=truth" if rd else "-") if not wrong else f"{len(wrong)} wrong",
            "saved_st": yn("saved_state"), "rt_cnt": yn("softirq_disable_cnt"),
            "numa": yn("numa_preferred_nid"), "u_fault": yn("in_user_fault"),
            "examples": f"{sum(v == 'ok' for v in ex.values())}/{sum(v != 'n/a' for v in ex.values())}",
            "stock": f"{sum(v == 'ok' for v in r.get('stock', {}).values())}/{len(r.get('stock', {}))}",
            "baked": r.get("baked", "-"),
            "neg": f"{r.get('negative_shown', 0)} wrong",
            "idioms": r.get("idioms", "-"),
            "time": r.get("time", "-"), "result": r.get("status", "FAIL"),
        }

    def render(hdr, body, out):
        w = [max(len(h), *(len(b[h]) for b in body)) if body else len(h) for h in hdr]
        line = lambda cs: "  ".join(c.ljust(w[i]) for i, c in enumerate(cs)).rstrip()
        print(line(hdr), file=out)
        print(line(["-" * x for x in w]), file=out)
        for b in body:
            print(line([b[h] for h in hdr]), file=out)

    body = [cells(r) for r in rows]
    short = ["kernel", "arch", "release", "@pid", "@state", "reads", "examples", "stock", "baked", "neg",
             "idioms", "time", "result"]
    render(short, body, sys.stdout)
    print("(@pid, @state: byte offsets relocore chose in that kernel's task_struct; reads: pid, tgid, ppid,")
    print(" comm, start time read by the CO-RE objects vs truth taken in the guest; examples, stock: passed/run")
    print(" under relocore run / stock libbpf; baked: relocated and .kconfig-baked on the host, stock libbpf, no")
    print(" BTF; neg: objects relocated for other kernels that read wrong values or were refused, as they must;")
    print(" idioms: test/reader's clang-19 objects loaded by stock libbpf and by relocore run, both ways alike:")
    print(" loaded+refused/given)")
    for r in rows:
        ob = r.get("objects", {})
        if ob.get("own"):
            print(f"  {r.get('kernel')}: {ob['shared']} objects are x86_64's files; compiled for {r.get('arch')}: "
                  f"{', '.join(ob['own'])} (pt_regs, syscall wrapper)")
    for r in rows:
        ex = r.get("examples", {})
        bad = [f"{k}={v}" for k, v in ex.items() if v not in ("ok", "n/a")]
        bad += [f"{k}(stock libbpf)={v}" for k, v in r.get("stock", {}).items() if v != "ok"]
        if bad:
            print(f"  {r.get('kernel')}: examples not ok: {', '.join(bad)}")
    if full_path:
        with open(full_path, "w") as f:
            full = ["kernel", "arch", "release"] + [f"@{x}" for x in fields] + [
                "pid", "tgid", "ppid", "comm", "start", "saved_st", "rt_cnt", "numa", "u_fault",
                "examples", "stock", "baked", "neg", "idioms", "time", "result"]
            render(full, body, f)
            print("\nnegative control (objects relocated on the host for another kernel, run here):", file=f)
            for r in rows:
                for n in r.get("negative", []):
                    print(f"  {r.get('kernel')}: {n}", file=f)
        print(f"(the full table, every field and every negative-control read: {full_path})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel", nargs="?")
    ap.add_argument("results", nargs="?")
    ap.add_argument("--objs")
    ap.add_argument("--host-explain")
    ap.add_argument("--summary")
    ap.add_argument("--arch", default="amd64")
    ap.add_argument("--host-objs")
    ap.add_argument("--host-btf")
    ap.add_argument("--table", nargs="+")
    ap.add_argument("--full-table")
    ap.add_argument("--idioms", type=int, default=0, help="N: the guest was given N idiom objects")
    ap.add_argument("--progtypes", type=int, default=0, help="1: the guest ran test/vm/progtypes")
    a = ap.parse_args()
    if a.table:
        table(a.table, a.full_table)
        return 0
    k = Kernel(a.kernel, a.results, a.objs, a.host_explain, a.arch, a.host_objs, a.host_btf, a.idioms,
               a.progtypes)
    k.run()
    print("\n".join(k.lines))
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(k.row, f)
    return 1 if k.failed else 0


if __name__ == "__main__":
    sys.exit(main())
