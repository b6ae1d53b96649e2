#!/usr/bin/env python3
"""bench/probe-gen.py - write the C source of a large CO-RE probe.

    probe-gen.py RAW_BTF_DUMP PROGRAMS READS [SEED] > probe.bpf.c

A security agent's probe is one object of a few hundred programs and
15,000-35,000 CO-RE relocations.  This writes one of that shape over real
kernel types: PROGRAMS kprobe programs, each with READS reads of kernel
data, every read chosen from the types of RAW_BTF_DUMP (the output of
`bpftool btf dump file BTF`, the same BTF the vmlinux.h it is compiled
against was made from).  A read is one of
  - a field read through pointers, BPF_CORE_READ(r, a.b, c, d[2]): one
    byte-offset relocation per hop, the fields embedded or behind
    pointers, the last one a scalar (integer, enum, pointer);
  - a bitfield, BPF_CORE_READ_BITFIELD_PROBED: byte offset, byte size,
    signedness and both shifts;
  - a field's existence or size, a type's existence, size or kernel id,
    an enumerator's existence or value.
Deterministic: the same dump, counts and seed give the same source (the
generator's only randomness is its own seeded generator).  Nothing is
compiled here; bench/probe.sh compiles and caches.
"""
import random
import re
import sys

GROUP = 12
POOL = 300
HEAD = re.compile(r"^\[(\d+)\] (\w+) '([^']*)'(.*)$")
MEMBER = re.compile(r"^\t'([^']*)' type_id=(\d+) bits_offset=(\d+)(?: bitfield_size=(\d+))?")
ENUMV = re.compile(r"^\t'([^']*)' val=(-?\d+)")
KV = re.compile(r"(\w+)=(\S+)")


def parse(path):
    types = {0: ("VOID", "", {}, [])}
    cur = None
    with open(path) as f:
        for line in f:
            m = HEAD.match(line)
            if m:
                tid, kind, name, rest = int(m[1]), m[2], m[3], m[4]
                attrs = dict(KV.findall(rest))
                cur = (kind, "" if name == "(anon)" else name, attrs, [])
                types[tid] = cur
                continue
            if cur is None:
                continue
            m = MEMBER.match(line)
            if m and cur[0] in ("STRUCT", "UNION"):
                cur[3].append(("" if m[1] == "(anon)" else m[1], int(m[2]), int(m[4] or 0),
                               int(m[3])))
                continue
            m = ENUMV.match(line)
            if m and cur[0] == "ENUM":
                cur[3].append((m[1], int(m[2])))
    return types


class Gen:
    def __init__(self, types, seed):
        self.t = types
        self.rnd = random.Random(seed)
        # names C can use as they are: bpftool's vmlinux.h renames all but
        # one of the types (and enumerators) that share a name (X___2)
        tags, idents = {}, {}
        for kind, name, _, members in types.values():
            if kind in ("STRUCT", "UNION", "ENUM", "ENUM64") and name:
                tags[name] = tags.get(name, 0) + 1
            if kind == "TYPEDEF":
                idents[name] = idents.get(name, 0) + 1
            if kind in ("ENUM", "ENUM64"):
                for v, _ in members:
                    idents[v] = idents.get(v, 0) + 1
        self.idents = idents
        self.structs = []
        self.enums = []
        self.typedefs = []
        for tid in sorted(types):
            kind, name, attrs, members = types[tid]
            if kind in ("STRUCT", "ENUM") and tags.get(name) != 1:
                continue
            if kind == "STRUCT" and int(attrs.get("size", 0)) >= 32 and \
                    len(self.fields(tid)) >= 4:
                self.structs.append(tid)
            elif kind == "ENUM" and int(attrs.get("size", 4)) <= 4 and \
                    any(idents[v] == 1 for v, _ in members):
                self.enums.append(tid)
            elif kind == "TYPEDEF" and idents[name] == 1 and \
                    self.t[self.strip(tid)][0] in ("STRUCT", "UNION", "INT", "ENUM", "PTR"):
                self.typedefs.append(tid)

        # a pool of types, as an agent reads a few hundred kernel types, not
        # all of them: clang's .BTF string table lookups are linear, so
        # every type pulled in slows the compile of every relocation
        pool = []
        for _ in range(POOL):
            pool.append(self.pick(self.structs))
        self.structs = sorted(set(pool))
        self.pool = set(self.structs)

    def align(self, tid, cache={}):
        """A type's alignment in C, and whether bpftool's vmlinux.h gives it
        more than its members' (a member placed past its natural offset gets
        an aligned() attribute): (alignment, over-aligned)."""
        tid = self.strip(tid)
        if tid in cache:
            return cache[tid]
        kind, _, attrs, members = self.t[tid]
        cache[tid] = (1, False)
        if kind in ("INT", "ENUM", "ENUM64"):
            res = (int(attrs["size"]), False)  # BPF aligns __int128 to 16
        elif kind == "PTR":
            res = (8, False)
        elif kind == "ARRAY":
            res = self.align(int(attrs["type_id"]))
        elif kind in ("STRUCT", "UNION"):
            # clang's own layout of the record decides whether it can
            # relocate a bitfield in it (its IR type's alignment): "over"
            # marks the records whose IR type is not the plain one, which
            # are skipped: a gap (bpftool fills it with `long: 64`, an i256
            # to clang), a run of bitfields that is not 1, 2, 4 or 8 bytes
            # at its own alignment (an i24: a packed IR type)
            al, over, packed, end, run = 1, False, False, 0, None
            for _, mt, bits, off in members + [("", 0, 0, -1)]:
                if run and (not bits or off < 0):
                    lo, hi = run[0] // 8, (run[1] + 7) // 8
                    if hi - lo not in (1, 2, 4, 8) or lo % (hi - lo):
                        over = True
                    run = None
                if off < 0:
                    break
                a, o = self.align(mt)
                al, over = max(al, a), over or o
                if bits:
                    run = (run[0] if run else off, off + bits)
                    end = max(end, (off + bits + 7) // 8)
                    continue
                if off % (a * 8):
                    packed = True
                natural = (end + a - 1) // a * a
                if kind == "STRUCT" and off // 8 > natural:
                    over = True
                end = max(end, off // 8 + self.size(mt))
            size = int(attrs.get("size", 0))
            if size % al:
                packed = True
            if kind == "STRUCT" and size > (end + al - 1) // al * al:
                over = True
            res = (1, over) if packed else (al, over)
        else:
            res = (1, False)
        cache[tid] = res
        return res

    def size(self, tid):
        kind, _, attrs, _ = self.t[self.strip(tid)]
        if kind == "PTR":
            return 8
        if kind == "ARRAY":
            return int(attrs["nr_elems"]) * self.size(int(attrs["type_id"]))
        return int(attrs.get("size", 0))

    def pick(self, seq):
        return seq[int(self.rnd.random() * len(seq))]

    def strip(self, tid):
        """Through typedefs and qualifiers."""
        while self.t[tid][0] in ("TYPEDEF", "CONST", "VOLATILE", "RESTRICT", "TYPE_TAG"):
            tid = int(self.t[tid][2]["type_id"])
        return tid

    def fields(self, tid, cache={}):
        """A struct's or union's fields as C names them: anonymous members'
        fields are the struct's own.  (name, type id, bitfield size, bit
        offset in its record, its record: @tid or an anonymous member's)."""
        if tid in cache:
            return cache[tid]
        out = []
        for name, mt, bits, off in self.t[tid][3]:
            st = self.strip(mt)
            if not name:
                if self.t[st][0] in ("STRUCT", "UNION"):
                    out.extend(self.fields(st))
                continue
            out.append((name, mt, bits, off, tid))
        cache[tid] = out
        return out

    def scalar(self, tid):
        kind, _, attrs, _ = self.t[self.strip(tid)]
        return kind in ("ENUM", "PTR") or (kind == "INT" and int(attrs["size"]) <= 8)

    def complete(self, tid):
        """A struct or union with fields that C can name (not a FWD)."""
        st = self.strip(tid)
        return self.t[st][0] in ("STRUCT", "UNION") and bool(self.fields(st))

    def ctype(self, tid):
        kind, name, _, _ = self.t[tid]
        return ("struct " if kind == "STRUCT" else "union " if kind == "UNION" else "") + name

    def path(self, root):
        """Hops from struct @root to a scalar: a list of segments, each a C
        member designator (a.b[1].c); all but the last end at a pointer to a
        complete struct.  None when the walk finds no scalar."""
        segs, seg, cur = [], [], root
        for _ in range(12):
            fl = [f for f in self.fields(cur) if not f[2]]
            if not fl:
                return None
            name, mt = self.pick(fl)[:2]
            st = self.strip(mt)
            kind = self.t[st][0]
            if kind == "ARRAY":
                attrs = self.t[st][2]
                n = int(attrs["nr_elems"])
                et = self.strip(int(attrs["type_id"]))
                if n == 0 or not (self.scalar(et) or self.complete(et)):
                    continue
                name += "[%d]" % int(self.rnd.random() * n)
                mt, st, kind = et, et, self.t[et][0]
            seg.append(name)
            if kind in ("STRUCT", "UNION"):
                if not self.fields(st):
                    return None
                cur = st
                continue
            if kind == "PTR":
                tgt = self.strip(int(self.t[st][2]["type_id"]))
                if tgt in self.pool and len(segs) < 3 and self.rnd.random() < 0.6:
                    segs.append(".".join(seg))
                    seg, cur = [], tgt
                    continue
            if self.scalar(mt):
                segs.append(".".join(seg))
                return segs
            return None
        return None

    def probable(self, f):
        """Whether clang can relocate bitfield @f: its record aligned to at
        most 8 bytes, the bits inside one aligned unit of it."""
        _, _, bits, off, rec = f
        al, over = self.align(rec)
        unit = al * 8
        return al <= 8 and not over and bits <= unit and \
            off // unit == (off + bits - 1) // unit

    def bitfield(self, root):
        """(pointer hops, the bitfield's designator) or None."""
        hops, cur = [], root
        for _ in range(3):
            bf = [f for f in self.fields(cur) if f[2] and self.probable(f)]
            if bf:
                return hops, self.pick(bf)[0]
            ptrs = [f for f in self.fields(cur) if not f[2] and self.t[self.strip(f[1])][0] == "PTR"
                    and self.strip(int(self.t[self.strip(f[1])][2]["type_id"])) in self.pool]
            if not ptrs:
                return None
            name, mt = self.pick(ptrs)[:2]
            hops.append(name)
            cur = self.strip(int(self.t[self.strip(mt)][2]["type_id"]))
        return None

    def read(self):
        """One read as a C statement, and its relocation count."""
        r = self.rnd.random()
        root = self.pick(self.structs)
        decl = "%s *r = b;" % self.ctype(root)
        if r < 0.10:
            bf = self.bitfield(root)
            if bf:
                hops, field = bf
                if hops:
                    return ("{ %s __auto_type s = BPF_CORE_READ(r, %s); "
                            "acc += BPF_CORE_READ_BITFIELD_PROBED(s, %s); }"
                            % (decl, ", ".join(hops), field), len(hops) + 5)
                return ("{ %s acc += BPF_CORE_READ_BITFIELD_PROBED(r, %s); }" % (decl, field), 5)
        if r < 0.16:
            f = self.pick(self.fields(root))[0]
            what = "exists" if self.rnd.random() < 0.5 else "size"
            return ("{ %s acc += bpf_core_field_%s(r->%s); }" % (decl, what, f), 1)
        if r < 0.22:
            what = self.pick(["exists", "size"])
            if self.rnd.random() < 0.3 and self.typedefs:
                name = self.t[self.pick(self.typedefs)][1]
                return ("acc += bpf_core_type_%s(%s);" % (what, name), 1)
            return ("acc += bpf_core_type_%s(%s);" % (what, self.ctype(root)), 1)
        if r < 0.24:
            return ("acc += bpf_core_type_id_kernel(%s);" % self.ctype(root), 1)
        if r < 0.28 and self.enums:
            e = self.pick(self.enums)
            vals = [m for m in self.t[e][3] if self.idents[m[0]] == 1]
            name, val = self.pick(vals)
            what = "exists" if self.rnd.random() < 0.5 else ""
            # a value of 2^31 or more: clang 14 writes it zero-extended, and
            # libbpf 1.1 (and relocore, as libbpf) refuses to relocate it
            # (the local enum, signed to clang 14, gives -2^31): kept out, so
            # that every relocation of the probe applies
            if not what and not 0 <= val < 2**31:
                what = "exists"
            if what:
                return ("acc += bpf_core_enum_value_exists(enum %s, %s);" % (self.t[e][1], name), 1)
            return ("acc += bpf_core_enum_value(enum %s, %s);" % (self.t[e][1], name), 1)
        for _ in range(20):
            segs = self.path(root)
            if segs:
                return ("{ %s acc += (__u64)BPF_CORE_READ(r, %s); }" % (decl, ", ".join(segs)),
                        len(segs))
            root = self.pick(self.structs)
            decl = "%s *r = b;" % self.ctype(root)
        return ("acc += bpf_core_type_exists(%s);" % self.ctype(root), 1)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: probe-gen.py RAW_BTF_DUMP PROGRAMS READS [SEED]")
    nprog, nread = int(sys.argv[2]), int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) == 5 else 1
    g_ = Gen(parse(sys.argv[1]), seed)
    out = ["// generated by bench/probe-gen.py %d programs x %d reads, seed %d"
           % (nprog, nread, seed),
           '#include "vmlinux.h"',
           "#include <bpf/bpf_helpers.h>",
           "#include <bpf/bpf_core_read.h>",
           "",
           'char LICENSE[] SEC("license") = "GPL";', ""]
    # a program's reads in subprograms of at most GROUP reads each: every
    # read's temporaries take their own stack slots, and a BPF function
    # has 512 bytes of stack (agents split their probes the same way)
    relos = 0
    for p in range(nprog):
        calls = []
        for g in range((nread + GROUP - 1) // GROUP):
            fn = "probe_%d_%d" % (p, g)
            calls.append(fn)
            body = []
            for _ in range(min(GROUP, nread - g * GROUP)):
                stmt, n = g_.read()
                relos += n
                body.append(stmt)
            # one line: clang (14 to 19) keeps each distinct source line as
            # a .BTF string for line_info and looks every string up by a
            # linear search; a line per read made a 35,000-relocation probe
            # take 9 minutes to compile
            out += ["static __noinline __u64 %s(void *b)" % fn,
                    "{ __u64 acc = 0; %s return acc; }" % " ".join(body), ""]
        out += ['SEC("kprobe/vfs_read")', "int probe_%d(void *ctx)" % p, "{",
                "\tvoid *b = (void *)bpf_get_current_task();", "\t__u64 acc = 0;", ""]
        out += ["\tacc += %s(b);" % fn for fn in calls]
        out += ["\treturn acc != 0;", "}", ""]
    out.append("// about %d CO-RE relocations" % relos)
    print("\n".join(out))


if __name__ == "__main__":
    main()
