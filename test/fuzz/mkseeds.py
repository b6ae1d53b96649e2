#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn compiled BPF objects into seed inputs of the relocore fuzzer.

  mkseeds.py OUTDIR TARGET.btf OBJ[=OWN_TARGET.btf]...

For each OBJ (stripped of debug info beforehand) writes into OUTDIR:
  obj-NAME          the object itself: relocated against the fixed target
  pair-NAME         LEN(le32) TARGET.btf OBJ (OWN_TARGET.btf when given):
                    the target is fuzzed as well
  self-NAME         LEN(le32) OBJ's own .BTF OBJ: every type has a candidate
  mod-NAME          LEN|2^31 TARGET.btf MLEN MODULE OBJ: OBJ's own .BTF
                    rewritten as split BTF over TARGET.btf, a module whose
                    types are candidates when the target lacks them
  matches-NAME      (objects with type_exists records) the records turned
                    into type_matches, for compilers without that kind
  embed-NAME        a "binary" that embeds OBJ twice (as a skeleton's tool
                    does), with a stray ELF magic between: rc_embedded_find

Only the standard library; ELF64 little-endian objects only.
"""
import os
import struct
import sys

BTF_EXT_MAGIC = 0xEB9F
TYPE_EXISTS, TYPE_MATCHES = 8, 12


def sections(data):
    """{name: (offset, size)} of an ELF64 LE file."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = []
    for i in range(shnum):
        hdrs.append(struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize))
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name_off, off, size = h[0], h[4], h[5]
        end = data.index(b"\0", stroff + name_off)
        out[data[stroff + name_off:end].decode()] = (off, size)
    return out


def core_relo_records(data, secs):
    """File offsets of every core_relo record and the record size."""
    off, size = secs[".BTF.ext"]
    magic, _, _, hdr_len = struct.unpack_from("<HBBI", data, off)
    assert magic == BTF_EXT_MAGIC and hdr_len >= 32
    relo_off, relo_len = struct.unpack_from("<II", data, off + 24)
    pos = off + hdr_len + relo_off
    end = pos + relo_len
    rec_size, = struct.unpack_from("<I", data, pos)
    pos += 4
    recs = []
    while pos < end:
        _, nr = struct.unpack_from("<II", data, pos)
        pos += 8
        recs += [pos + i * rec_size for i in range(nr)]
        pos += nr * rec_size
    return recs


def btf_parse(b):
    """(header fields, [(offset, kind, vlen)] of the types) of raw BTF."""
    hdr = struct.unpack_from("<HBBIIIII", b, 0)
    hdr_len, type_off, type_len = hdr[3], hdr[4], hdr[5]
    pos, end, types = hdr_len + type_off, hdr_len + type_off + type_len, []
    while pos < end:
        info, = struct.unpack_from("<I", b, pos + 4)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        types.append((pos, kind, vlen))
        pos += 12 + {1: 4, 3: 12, 4: 12 * vlen, 5: 12 * vlen, 6: 8 * vlen,
                     13: 8 * vlen, 14: 4, 15: 12 * vlen, 17: 4,
                     19: 12 * vlen}.get(kind, 0)
    return hdr, types


def split_over(base, own):
    """@own (standalone raw BTF) rewritten as split BTF over @base: its
    type ids and string offsets moved past the base's."""
    bhdr, btypes = btf_parse(base)
    hdr, types = btf_parse(own)
    out = bytearray(own)
    nbase, sbase = len(btypes), bhdr[7]

    def name(off):
        if struct.unpack_from("<I", out, off)[0]:
            struct.pack_into("<I", out, off, struct.unpack_from("<I", out, off)[0] + sbase)

    def tid(off):
        if struct.unpack_from("<I", out, off)[0]:
            struct.pack_into("<I", out, off, struct.unpack_from("<I", out, off)[0] + nbase)

    for pos, kind, vlen in types:
        name(pos)
        if kind in (2, 8, 9, 10, 11, 12, 13, 14, 17, 18):   # ptr .. type_tag
            tid(pos + 8)
        if kind == 3:                                       # array
            tid(pos + 12)
            tid(pos + 16)
        for i in range(vlen):
            if kind in (4, 5):                              # members
                name(pos + 12 + 12 * i)
                tid(pos + 16 + 12 * i)
            elif kind in (6, 19):                           # enumerators
                name(pos + 12 + (8 if kind == 6 else 12) * i)
            elif kind == 13:                                # params
                name(pos + 12 + 8 * i)
                tid(pos + 16 + 8 * i)
            elif kind == 15:                                # datasec vars
                tid(pos + 12 + 12 * i)
    return bytes(out)


def pair(target, obj):
    return struct.pack("<I", len(target)) + target + obj


def main():
    outdir, target_path, objs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    with open(target_path, "rb") as f:
        target = f.read()
    for arg in objs:
        path, _, own = arg.partition("=")
        name = os.path.basename(path).removesuffix(".o")
        with open(path, "rb") as f:
            obj = f.read()
        targ = target
        if own:
            with open(own, "rb") as f:
                targ = f.read()
        secs = sections(obj)
        btf_off, btf_size = secs[".BTF"]
        seeds = {
            "obj-" + name: obj,
            "pair-" + name: pair(targ, obj),
            "self-" + name: pair(obj[btf_off:btf_off + btf_size], obj),
            "mod-" + name: struct.pack("<I", len(target) | 1 << 31) + target
            + pair(split_over(target, obj[btf_off:btf_off + btf_size]), obj),
            "embed-" + name: b"HOST" + bytes(12) + obj + b"\x7fELF" + bytes(4)
            + obj,
        }
        if ".BTF.ext" in secs:
            patched = bytearray(obj)
            n = 0
            for rec in core_relo_records(obj, secs):
                if struct.unpack_from("<I", obj, rec + 12)[0] == TYPE_EXISTS:
                    struct.pack_into("<I", patched, rec + 12, TYPE_MATCHES)
                    n += 1
            if n:
                seeds["matches-" + name] = bytes(patched)
        for seed, data in seeds.items():
            with open(os.path.join(outdir, seed), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
