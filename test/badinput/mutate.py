#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derive one malformed file from a valid one, for test/badinput/run.sh.

  mutate.py MUTATION IN OUT

IN is a BPF ELF object (with .BTF and .BTF.ext) or a raw BTF file,
depending on the mutation; OUT gets the damaged copy.  `mutate.py list`
prints the mutations.  Standard library only; ELF64 little-endian.
"""
import random
import struct
import sys

BTF_MAGIC = 0xEB9F

# BTF kinds and the size of what follows a type's 12-byte common part
INT, PTR, ARRAY, STRUCT, UNION, ENUM, FWD, TYPEDEF, VOLATILE, CONST, \
    RESTRICT, FUNC, FUNC_PROTO, VAR, DATASEC, FLOAT, DECL_TAG, TYPE_TAG, \
    ENUM64 = range(1, 20)


def extra_size(kind, vlen):
    return {INT: 4, ARRAY: 12, STRUCT: 12 * vlen, UNION: 12 * vlen,
            ENUM: 8 * vlen, FUNC_PROTO: 8 * vlen, VAR: 4,
            DATASEC: 12 * vlen, DECL_TAG: 4, ENUM64: 12 * vlen}.get(kind, 0)


class Elf:
    """Section headers of an ELF64 LE file, and where they live."""

    def __init__(self, data):
        self.data = bytearray(data)
        shoff, = struct.unpack_from("<Q", data, 0x28)
        entsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        self.secs = {}
        hdrs = [shoff + i * entsize for i in range(shnum)]
        strtab = struct.unpack_from("<Q", data, hdrs[shstrndx] + 24)[0]
        for h in hdrs:
            name_off, = struct.unpack_from("<I", data, h)
            off, size = struct.unpack_from("<QQ", data, h + 24)
            end = data.index(b"\0", strtab + name_off)
            name = data[strtab + name_off:end].decode()
            self.secs[name] = {"hdr": h, "off": off, "size": size}

    def sec(self, name):
        return self.secs[name]["off"], self.secs[name]["size"]

    def set_sec(self, name, off=None, size=None):
        h = self.secs[name]["hdr"]
        if off is not None:
            struct.pack_into("<Q", self.data, h + 24, off)
        if size is not None:
            struct.pack_into("<Q", self.data, h + 32, size)

    def u32(self, off, val=None):
        if val is None:
            return struct.unpack_from("<I", self.data, off)[0]
        struct.pack_into("<I", self.data, off, val)
        return val


class Btf:
    """A raw BTF blob at offset @base of @buf: header, types, strings."""

    def __init__(self, buf, base):
        self.buf, self.base = buf, base
        (magic, _, _, self.hdr_len, self.type_off, self.type_len,
         self.str_off, self.str_len) = struct.unpack_from("<HBBIIIII", buf, base)
        assert magic == BTF_MAGIC, "not BTF"
        self.types = [None]   # file offsets of the type records, by id
        pos = base + self.hdr_len + self.type_off
        end = pos + self.type_len
        while pos < end:
            info, = struct.unpack_from("<I", buf, pos + 4)
            self.types.append(pos)
            pos += 12 + extra_size((info >> 24) & 0x1F, info & 0xFFFF)

    def strs(self):
        return self.base + self.hdr_len + self.str_off

    def string(self, off):
        start = self.strs() + off
        return bytes(self.buf[start:self.buf.index(b"\0", start)]).decode()

    def kind(self, tid):
        return (struct.unpack_from("<I", self.buf, self.types[tid] + 4)[0] >> 24) & 0x1F

    def find(self, kind, name):
        for tid in range(1, len(self.types)):
            name_off, = struct.unpack_from("<I", self.buf, self.types[tid])
            if self.kind(tid) == kind and self.string(name_off) == name:
                return tid
        raise KeyError(name)

    def member(self, tid, name):
        """File offset of member @name of struct @tid (name_off, type, offset)."""
        vlen = struct.unpack_from("<I", self.buf, self.types[tid] + 4)[0] & 0xFFFF
        for i in range(vlen):
            m = self.types[tid] + 12 + 12 * i
            if self.string(struct.unpack_from("<I", self.buf, m)[0]) == name:
                return m
        raise KeyError(name)


def core_relos(elf):
    """(header offset, record size, [record offsets]) of .BTF.ext core_relo."""
    off, _ = elf.sec(".BTF.ext")
    hdr_len = elf.u32(off + 4)
    relo_off, relo_len = struct.unpack_from("<II", elf.data, off + 24)
    pos = off + hdr_len + relo_off
    end = pos + relo_len
    rec_size = elf.u32(pos)
    first = pos
    pos += 4
    recs = []
    while pos < end:
        nr = elf.u32(pos + 4)
        pos += 8
        recs += [pos + i * rec_size for i in range(nr)]
        pos += nr * rec_size
    return first, rec_size, recs


def relo_with_access(elf, btf, access):
    """Offset of the first core_relo record whose access string is @access."""
    for rec in core_relos(elf)[2]:
        if btf.string(elf.u32(rec + 8)) == access:
            return rec
    raise KeyError(access)


def obj_btf(elf):
    return Btf(elf.data, elf.sec(".BTF")[0])


def garbage(n, seed=1):
    return bytes(random.Random(seed).getrandbits(8) for _ in range(n))


def rewrite_string(elf, btf, old, new):
    """Overwrite string @old of the object's .BTF in place (same length)."""
    assert len(old) == len(new)
    strs = bytes(elf.data[btf.strs():btf.strs() + btf.str_len])
    i = strs.index(b"\0" + old.encode() + b"\0") + 1
    elf.data[btf.strs() + i:btf.strs() + i + len(new)] = new.encode()


def append_string(elf, btf, s):
    """Move .BTF to the end of the file with @s added to its strings;
    returns the new string's offset."""
    off, size = elf.sec(".BTF")
    blob = bytearray(elf.data[off:off + size])
    str_end = btf.hdr_len + btf.str_off + btf.str_len
    assert str_end == size, "strings are not last in .BTF"
    new_off = btf.str_len
    blob += s.encode() + b"\0"
    struct.pack_into("<I", blob, 20, btf.str_len + len(s) + 1)
    while len(elf.data) % 8:
        elf.data.append(0)
    pos = len(elf.data)
    elf.data += blob
    elf.set_sec(".BTF", off=pos, size=len(blob))
    return new_off


# --- the mutations: name -> function(bytes) -> bytes ----------------------

def m_empty(d):
    return b""


def m_garbage(d):
    return garbage(4096)


def m_garbage_elf(d):
    return b"\x7fELF" + garbage(len(d) - 4)


def trunc(n):
    return lambda d: d[:n]


def m_trunc_btf(d):
    off, size = Elf(d).sec(".BTF")
    return d[:off + size // 2]


def m_trunc_shdrs(d):
    return d[:-1]


# embedded objects (a binary that carries the object, as a libbpf
# skeleton's tool does): 16 bytes of host before it
EMBED_PAD = b"HOST" + bytes(12)


def m_embed_trunc(d):
    # the object's last bytes (its section header table) cut off
    return EMBED_PAD + d[:-8]


def m_embed_trunc_section(d):
    # the headers whole, the .BTF section said to reach past the file's end
    elf = Elf(d)
    off, size = elf.sec(".BTF")
    elf.set_sec(".BTF", size=len(d))
    return EMBED_PAD + bytes(elf.data)


def m_embed_twice(d):
    return EMBED_PAD + d + EMBED_PAD + d


def m_embed_shentsize(d):
    obj = bytearray(d)
    struct.pack_into("<H", obj, 0x3a, 40)
    return EMBED_PAD + bytes(obj)


def elf_mut(fn):
    def run(d):
        elf = Elf(d)
        fn(elf)
        return bytes(elf.data)
    return run


def btf_hdr(field, val):
    """Set a u32 field of the object's .BTF header (4 = hdr_len ...)."""
    def fn(elf):
        elf.u32(elf.sec(".BTF")[0] + field, val)
    return elf_mut(fn)


@elf_mut
def m_btf_twice(elf):
    """A second section named .BTF (license's header renamed): which one
    counts would be the readers' guess."""
    name_off = elf.u32(elf.secs[".BTF"]["hdr"])
    elf.u32(elf.secs["license"]["hdr"], name_off)


@elf_mut
def m_btf_magic(elf):
    struct.pack_into("<H", elf.data, elf.sec(".BTF")[0], 0x1234)


@elf_mut
def m_btf_member_type(elf):
    btf = obj_btf(elf)
    elf.u32(btf.member(btf.find(STRUCT, "sk"), "b") + 4, 4242)


@elf_mut
def m_btf_member_name(elf):
    btf = obj_btf(elf)
    elf.u32(btf.member(btf.find(STRUCT, "sk"), "b"), 0x7FFFFFF0)


@elf_mut
def m_btf_type_name(elf):
    btf = obj_btf(elf)
    elf.u32(btf.types[btf.find(STRUCT, "sk")], btf.str_len + 100)


@elf_mut
def m_btf_modcycle(elf):
    """Endless nesting: the CONST of "const struct sk *" made to point at
    itself, and made the type of the relocated member sk.b."""
    btf = obj_btf(elf)
    tid = next(t for t in range(1, len(btf.types)) if btf.kind(t) == CONST)
    elf.u32(btf.types[tid] + 8, tid)
    elf.u32(btf.member(btf.find(STRUCT, "sk"), "b") + 4, tid)


@elf_mut
def m_ext_magic(elf):
    struct.pack_into("<H", elf.data, elf.sec(".BTF.ext")[0], 0xBEEF)


@elf_mut
def m_ext_truncated(elf):
    elf.set_sec(".BTF.ext", size=20)


@elf_mut
def m_ext_core_len(elf):
    off, size = elf.sec(".BTF.ext")
    elf.u32(off + 28, size)     # core_relo_len: past the section's end


@elf_mut
def m_ext_recsize0(elf):
    first, _, _ = core_relos(elf)
    elf.u32(first, 0)


@elf_mut
def m_ext_insn_past(elf):
    _, size = elf.sec("kprobe/badinput")
    elf.u32(core_relos(elf)[2][0], size + 8)


@elf_mut
def m_ext_insn_misaligned(elf):
    rec = core_relos(elf)[2][0]
    elf.u32(rec, elf.u32(rec) + 3)


@elf_mut
def m_ext_type_id(elf):
    elf.u32(core_relos(elf)[2][0] + 4, 99999)


@elf_mut
def m_ext_access_off(elf):
    elf.u32(core_relos(elf)[2][0] + 8, 0x7FFFFFF0)


@elf_mut
def m_ext_kind99(elf):
    elf.u32(core_relos(elf)[2][0] + 12, 99)


@elf_mut
def m_ext_kind_matches(elf):
    """Every type_exists record made a type_matches one."""
    for rec in core_relos(elf)[2]:
        if elf.u32(rec + 12) == 8:
            elf.u32(rec + 12, 12)


@elf_mut
def m_ext_sec_name(elf):
    first, _, _ = core_relos(elf)
    elf.u32(first + 4, 0x7FFFFFF0)


@elf_mut
def m_ext_sec_nr(elf):
    first, _, _ = core_relos(elf)
    elf.u32(first + 8, 0x10000000)  # records of the first program section


@elf_mut
def m_access_noparse(elf):
    btf = obj_btf(elf)
    relo_with_access(elf, btf, "0:1")
    rewrite_string(elf, btf, "0:1", "0:x")


@elf_mut
def m_access_index(elf):
    """sk has 4 members: "0:1" (sk.b) becomes "0:9"."""
    btf = obj_btf(elf)
    relo_with_access(elf, btf, "0:1")
    rewrite_string(elf, btf, "0:1", "0:9")


@elf_mut
def m_access_deep(elf):
    """An access string 200 steps deep ("0:0:...") on the sk.b record."""
    btf = obj_btf(elf)
    rec = relo_with_access(elf, btf, "0:1")
    elf.u32(rec + 8, append_string(elf, btf, ":".join(["0"] * 200)))


@elf_mut
def m_access_huge_index(elf):
    btf = obj_btf(elf)
    rec = relo_with_access(elf, btf, "0:1")
    elf.u32(rec + 8, append_string(elf, btf, "0:99999999999999999999"))


# raw target BTF (a .BTF section dumped to a file)

def raw_mut(fn):
    def run(d):
        buf = bytearray(d)
        fn(buf, Btf(buf, 0))
        return bytes(buf)
    return run


def m_raw_trunc(d):
    return d[:len(d) - 7]


@raw_mut
def m_raw_member_type(buf, btf):
    struct.pack_into("<I", buf, btf.member(btf.find(STRUCT, "sk"), "a") + 4, 77777)


@raw_mut
def m_raw_str_len(buf, btf):
    struct.pack_into("<I", buf, 20, btf.str_len + 4096)


MUTATIONS = {
    "empty": m_empty,
    "garbage": m_garbage,
    "garbage-elf": m_garbage_elf,
    "trunc-10": trunc(10),
    "trunc-64": trunc(64),
    "trunc-btf": m_trunc_btf,
    "trunc-shdrs": m_trunc_shdrs,
    "btf-magic": m_btf_magic,
    "btf-twice": m_btf_twice,
    "btf-hdr-len": btf_hdr(4, 0x1000),
    "btf-str-len": btf_hdr(20, 0x100000),
    "btf-type-len": btf_hdr(12, 0x7FFFFFF0),
    "btf-member-type": m_btf_member_type,
    "btf-member-name": m_btf_member_name,
    "btf-type-name": m_btf_type_name,
    "btf-modcycle": m_btf_modcycle,
    "ext-magic": m_ext_magic,
    "ext-truncated": m_ext_truncated,
    "ext-core-len": m_ext_core_len,
    "ext-recsize0": m_ext_recsize0,
    "ext-insn-past": m_ext_insn_past,
    "ext-insn-misaligned": m_ext_insn_misaligned,
    "ext-type-id": m_ext_type_id,
    "ext-access-off": m_ext_access_off,
    "ext-kind99": m_ext_kind99,
    "ext-kind-matches": m_ext_kind_matches,
    "ext-sec-name": m_ext_sec_name,
    "ext-sec-nr": m_ext_sec_nr,
    "access-noparse": m_access_noparse,
    "access-index": m_access_index,
    "access-deep": m_access_deep,
    "access-huge-index": m_access_huge_index,
    "raw-trunc": m_raw_trunc,
    "raw-member-type": m_raw_member_type,
    "raw-str-len": m_raw_str_len,
    "embed-trunc": m_embed_trunc,
    "embed-trunc-section": m_embed_trunc_section,
    "embed-twice": m_embed_twice,
    "embed-shentsize": m_embed_shentsize,
}


def main():
    if sys.argv[1:] == ["list"]:
        print("\n".join(MUTATIONS))
        return
    name, src, dst = sys.argv[1:]
    with open(src, "rb") as f:
        data = f.read()
    out = MUTATIONS[name](data)
    assert out != data, f"{name}: nothing changed"
    with open(dst, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
