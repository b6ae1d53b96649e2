#!/usr/bin/env python3
"""objfuzz.py - object-level differential fuzzing of relocore's reader
against libbpf's open (issue 33; see README.md).

  objfuzz.py --opener LIBBPF_OPEN --relocore RELOCORE --btf BTF
             [--seed S] [--count N] [--out DIR] [--expected FILE] OBJ...

Each round takes one object of the corpus and applies one structural
mutation (below) to a copy; libbpf (libbpf_open) opens the mutant and
relocore reads it (`relocore check --json`: exit 2 or an 'open' problem
is a refusal).  Counted per mutation: both accept, both refuse, relocore
stricter (refuses what libbpf opens), relocore laxer (reads what libbpf
refuses), explained (either, by the --expected file), relocore crashed (a
signal or an exit status other than 0, 1, 2), by_new (a disagreement
with libbpf 1.1 where the second libbpf of --opener2 decides as relocore).
A mutant with no program check loads (none left, or only SEC("?...")
ones) is judged too: check reports the whole object's problems on their
own.  Every disagreement is written to DIR with its libbpf and relocore
messages.  Exits 1 if relocore crashed, or disagreed in a way the
--expected file (mutation, direction, libbpf warning pattern, why) does not
explain.  Standard library only; ELF64 little-endian objects.
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys

SHT_SYMTAB, SHT_NOBITS, SHT_REL = 2, 8, 9
SHF_WRITE, SHF_ALLOC, SHF_EXEC = 1, 2, 4
# BTF kinds, and the bytes that follow a type's 12-byte common part
(INT, PTR, ARRAY, STRUCT, UNION, ENUM, FWD, TYPEDEF, VOLATILE, CONST, RESTRICT,
 FUNC, FUNC_PROTO, VAR, DATASEC, FLOAT, DECL_TAG, TYPE_TAG, ENUM64) = range(1, 20)


def extra(kind, vlen):
    return {INT: 4, ARRAY: 12, STRUCT: 12 * vlen, UNION: 12 * vlen, ENUM: 8 * vlen,
            FUNC_PROTO: 8 * vlen, VAR: 4, DATASEC: 12 * vlen, DECL_TAG: 4,
            ENUM64: 12 * vlen}.get(kind, 0)


class Obj:
    def __init__(self, data):
        self.d = bytearray(data)
        d = self.d
        shoff, = struct.unpack_from("<Q", d, 0x28)
        entsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
        self.shdrs = [shoff + i * entsize for i in range(shnum)]
        stro = struct.unpack_from("<Q", d, self.shdrs[shstrndx] + 24)[0]
        self.stro = stro
        self.secs = []
        for h in self.shdrs:
            name, typ, flags = struct.unpack_from("<IIQ", d, h)
            off, size, link, info, align, ent = struct.unpack_from("<QQIIQQ", d, h + 24)
            end = d.index(b"\0", stro + name)
            self.secs.append(dict(hdr=h, name=d[stro + name:end].decode(errors="replace"),
                                  type=typ, flags=flags, off=off, size=size, link=link,
                                  info=info, ent=ent))
        self.byname = {s["name"]: i for i, s in enumerate(self.secs)}
        # BTF types: offsets of each record
        self.types = []
        if ".BTF" in self.byname:
            s = self.secs[self.byname[".BTF"]]
            hl, toff, tlen = struct.unpack_from("<III", d, s["off"] + 4)
            p = s["off"] + hl + toff
            end = p + tlen
            while p + 12 <= end:
                info, = struct.unpack_from("<I", d, p + 4)
                kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
                self.types.append(p)
                p += 12 + extra(kind, vlen)

    def syms(self):
        for s in self.secs:
            if s["type"] == SHT_SYMTAB:
                return [s["off"] + i * 24 for i in range(1, s["size"] // 24)]
        return []

    def rels(self):
        out = []
        for s in self.secs:
            if s["type"] == SHT_REL:
                out += [s["off"] + i * 16 for i in range(s["size"] // 16)]
        return out

    def u32(self, off, v=None):
        if v is None:
            return struct.unpack_from("<I", self.d, off)[0]
        struct.pack_into("<I", self.d, off, v & 0xFFFFFFFF)


def kind_of(o, p):
    return (o.u32(p + 4) >> 24) & 0x1F


# ---- the mutations: each returns a description, or None if it does not apply
def m_var_linkage(o, r):
    vs = [p for p in o.types if kind_of(o, p) == VAR]
    if not vs:
        return None
    p = r.choice(vs)
    v = r.choice([0, 1, 2, 3])
    o.u32(p + 12, v)
    return f"VAR @{p:#x} linkage {v}"


def m_func_linkage(o, r):
    fs = [p for p in o.types if kind_of(o, p) == FUNC]
    if not fs:
        return None
    p = r.choice(fs)
    v = r.choice([0, 1, 2, 3])
    o.u32(p + 4, (o.u32(p + 4) & ~0xFFFF) | v)
    return f"FUNC @{p:#x} linkage {v}"


def m_type_ref(o, r):
    ps = [p for p in o.types if kind_of(o, p) in (PTR, TYPEDEF, CONST, VOLATILE, VAR, FUNC, FUNC_PROTO, TYPE_TAG, DECL_TAG)]
    if not ps:
        return None
    p = r.choice(ps)
    v = r.choice([0, r.randrange(1, len(o.types) + 1), len(o.types) + 5])
    o.u32(p + 8, v)
    return f"type {kind_of(o, p)} @{p:#x} refers to {v}"


def m_name(o, r):
    if not o.types:
        return None
    p = r.choice(o.types)
    s = o.secs[o.byname[".BTF"]]
    hl, toff, tlen, soff, slen = struct.unpack_from("<IIIII", o.d, s["off"] + 4)
    v = r.choice([0, r.randrange(0, max(slen, 1)), slen + 100])
    o.u32(p, v)
    return f"type @{p:#x} name_off {v}"


def m_datasec(o, r):
    ps = [p for p in o.types if kind_of(o, p) == DATASEC and o.u32(p + 4) & 0xFFFF]
    if not ps:
        return None
    p = r.choice(ps)
    e = p + 12 + 12 * r.randrange(o.u32(p + 4) & 0xFFFF)
    f = r.choice([0, 4, 8])
    v = r.choice([0, 1, 3, 4096, r.randrange(1, len(o.types) + 1)])
    o.u32(e + f, v)
    return f"DATASEC entry @{e:#x} field {f} = {v}"


def m_kind(o, r):
    ps = [p for p in o.types if kind_of(o, p) in (PTR, TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG, FWD, FLOAT)]
    if not ps:
        return None
    p = r.choice(ps)
    k = r.choice([PTR, TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG, FWD])
    o.u32(p + 4, (o.u32(p + 4) & ~(0x1F << 24)) | (k << 24))
    return f"type @{p:#x} kind -> {k}"


def m_sym_bind(o, r):
    ss = o.syms()
    if not ss:
        return None
    p = r.choice(ss)
    info = o.d[p + 4]
    b = r.choice([0, 1, 2])
    o.d[p + 4] = (b << 4) | (info & 0xF)
    return f"symbol @{p:#x} bind {b}"


def m_sym_type(o, r):
    ss = o.syms()
    if not ss:
        return None
    p = r.choice(ss)
    info = o.d[p + 4]
    t = r.choice([0, 1, 2, 3])
    o.d[p + 4] = (info & 0xF0) | t
    return f"symbol @{p:#x} type {t}"


def m_sym_shndx(o, r):
    ss = o.syms()
    if not ss:
        return None
    p = r.choice(ss)
    v = r.choice([0, r.randrange(1, len(o.secs)), 0xFFF1, len(o.secs) + 3])
    struct.pack_into("<H", o.d, p + 6, v)
    return f"symbol @{p:#x} shndx {v}"


def m_sym_value(o, r):
    ss = o.syms()
    if not ss:
        return None
    p = r.choice(ss)
    v = struct.unpack_from("<Q", o.d, p + 8)[0] + r.choice([1, 4, 8, 64, 1 << 20])
    struct.pack_into("<Q", o.d, p + 8, v)
    return f"symbol @{p:#x} value {v}"


def m_sec_flags(o, r):
    i = r.randrange(1, len(o.secs))
    f = r.choice([SHF_EXEC, SHF_ALLOC, SHF_WRITE])
    s = o.secs[i]
    struct.pack_into("<Q", o.d, s["hdr"] + 8, s["flags"] ^ f)
    return f"section {s['name']} flags ^ {f}"


def m_sec_type(o, r):
    i = r.randrange(1, len(o.secs))
    s = o.secs[i]
    t = r.choice([1, SHT_NOBITS, 0])
    o.u32(s["hdr"] + 4, t)
    return f"section {s['name']} type {t}"


NAMES = ["maps", ".maps", ".kconfig", ".ksyms", "license", "version", ".rodata", ".data",
         ".bss", ".text", "kprobe/x", "socket", "xdp", ".struct_ops", ".BTF.ext", ".rodata.str1.1",
         ".data.foo", "?kprobe/x", ".addr_space.1", ".extern"]


def m_sec_name(o, r):
    i = r.randrange(1, len(o.secs))
    s = o.secs[i]
    new = r.choice(NAMES).encode() + b"\0"
    shstr = o.secs[struct.unpack_from("<H", o.d, 0x3E)[0]]
    # the new name over an existing string of at least its length, if any
    for j, t in enumerate(o.secs):
        start = shstr["off"] + struct.unpack_from("<I", o.d, t["hdr"])[0]
        if j != i and len(t["name"]) + 1 >= len(new):
            o.d[start:start + len(new)] = new
            o.u32(s["hdr"], start - shstr["off"])
            return f"section {s['name']} renamed {new[:-1].decode()} (and {t['name']})"
    return None


def m_rel(o, r):
    rs = o.rels()
    if not rs:
        return None
    p = r.choice(rs)
    f = r.choice(["sym", "type", "off"])
    info = struct.unpack_from("<Q", o.d, p + 8)[0]
    if f == "sym":
        info = (r.randrange(0, len(o.syms()) + 3) << 32) | (info & 0xFFFFFFFF)
    elif f == "type":
        info = (info & ~0xFFFFFFFF) | r.choice([0, 1, 2, 3, 10])
    else:
        struct.pack_into("<Q", o.d, p, struct.unpack_from("<Q", o.d, p)[0] + r.choice([1, 8, 4096]))
        return f"rel @{p:#x} offset moved"
    struct.pack_into("<Q", o.d, p + 8, info)
    return f"rel @{p:#x} {f} -> {info:#x}"


def m_ext(o, r):
    if ".BTF.ext" not in o.byname:
        return None
    s = o.secs[o.byname[".BTF.ext"]]
    if s["size"] < 40:
        return None
    off = s["off"] + r.randrange(8, s["size"] - 4) // 4 * 4
    v = r.choice([0, 1, 0xFFFFFFFF, o.u32(off) + 8])
    o.u32(off, v)
    return f".BTF.ext word @{off:#x} = {v:#x}"


MUTATIONS = {f.__name__[2:]: f for f in [m_var_linkage, m_func_linkage, m_type_ref, m_name, m_datasec,
                                           m_kind, m_sym_bind, m_sym_type, m_sym_shndx, m_sym_value,
                                           m_sec_flags, m_sec_type, m_sec_name, m_rel, m_ext]}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def libbpf_verdict(opener, path):
    _, out, _ = run([opener, path])
    first = out.splitlines()[0] if out else "open ? refused ? no output"
    f = first.split(" ", 3)
    return f[2] == "ok", (f[3] if len(f) > 3 else "")


def relocore_verdict(relocore, path, btf):
    rc, out, err = run([relocore, "check", path, "--btf", btf, "--json"])
    if rc < 0 or rc > 2 or "Sanitizer" in err:
        return None, f"exit {rc}: {err.strip()[:300]}"
    if rc == 2 or not out.strip():
        return False, err.strip()
    doc = json.loads(out.splitlines()[0])
    k = doc["kernels"][0]
    # the object's own problems: there even when no program is loaded
    opens = [pb["detail"] for pb in k["problems"] if pb["kind"] == "open"]
    return (not opens), ("; ".join(sorted(set(opens))) if opens else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opener", required=True)
    ap.add_argument("--relocore", required=True)
    ap.add_argument("--btf", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--out", default="objfuzz-out")
    ap.add_argument("--expected")
    ap.add_argument("--opener2", help="NAME=PATH: a second libbpf's libbpf_open; a disagreement "
                    "where it decides as relocore counts as explained by that version")
    ap.add_argument("objs", nargs="+")
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    expected = []
    if a.expected:
        for l in open(a.expected):
            if l.strip() and not l.startswith("#"):
                m, d, pat, why = l.rstrip("\n").split("\t", 3)
                expected.append((m, d, re.compile(pat), why))
    stats = {m: dict(both_ok=0, both_refuse=0, stricter=0, laxer=0, crash=0, explained=0, by_new=0) for m in MUTATIONS}
    new_name, new_opener = a.opener2.split("=", 1) if a.opener2 else (None, None)
    bad = 0
    used = {}	# expected pattern -> disagreements it explained
    names = list(MUTATIONS)
    done = 0
    while done < a.count:
        src = r.choice(a.objs)
        mname = names[done % len(names)]
        o = Obj(open(src, "rb").read())
        try:
            what = MUTATIONS[mname](o, r)
        except (IndexError, struct.error, ValueError):
            what = None
        if what is None:
            done += 1
            continue
        path = os.path.join(a.out, "mutant.o")
        with open(path, "wb") as f:
            f.write(o.d)
        l_ok, l_why = libbpf_verdict(a.opener, path)
        r_ok, r_why = relocore_verdict(a.relocore, path, a.btf)
        st = stats[mname]
        done += 1
        if r_ok is None:
            st["crash"] += 1
        elif l_ok == r_ok:
            st["both_ok" if l_ok else "both_refuse"] += 1
            continue
        if r_ok is not None and new_opener and libbpf_verdict(new_opener, path)[0] == r_ok:
            st["by_new"] += 1	# the newer libbpf decides as relocore
            continue
        direction = "crash" if r_ok is None else ("stricter" if l_ok else "laxer")
        rule = next((e for e in expected if e[0] in (mname, "*") and e[1] == direction and
                     e[2].search(l_why if direction == "laxer" else r_why)), None)
        if rule and direction != "crash":
            st["explained"] += 1
            used[rule[2].pattern] = used.get(rule[2].pattern, 0) + 1
            continue
        if direction != "crash":
            st[direction] += 1
        bad += 1
        keep = os.path.join(a.out, f"{direction}-{mname}-{done}.o")
        os.replace(path, keep)
        with open(keep + ".txt", "w") as f:
            f.write(f"from {src}: {what}\nlibbpf: {'ok' if l_ok else 'refused: ' + l_why}\n"
                    f"relocore: {'ok' if r_ok else 'refused/crashed: ' + r_why}\n")
        if bad <= 20:
            print(f"objfuzz: {direction}: {os.path.basename(src)}: {what}: libbpf "
                  f"{'opens' if l_ok else 'refuses (' + l_why[:120] + ')'}, relocore "
                  f"{'reads it' if r_ok else r_why[:160]} ({keep})")
    tot = {k: sum(s[k] for s in stats.values()) for k in next(iter(stats.values()))}
    for m in names:
        s = stats[m]
        print(f"objfuzz: {m:12s} " + " ".join(f"{k} {v}" for k, v in s.items()))
    for pat, n in sorted(used.items(), key=lambda x: -x[1]):
        print(f"objfuzz: explained {n:4d} by objfuzz.expected: {pat}")
    print(f"objfuzz: {a.count} rounds (seed {a.seed}): " + ", ".join(f"{k} {v}" for k, v in tot.items()) +
          (f" (by_new: {new_name} decides as relocore)" if new_opener else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
