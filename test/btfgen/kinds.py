#!/usr/bin/env python3
"""kinds.py ORIGINAL.btf EXTRACTED.btf - every (kind, kind_flag) pair that
the original raw BTF has, the extracted one has too (an archive keeps each
type's flags: a TYPE_TAG with kind_flag, 6.14's attribute form, is one).
Exit 1 naming the pairs lost."""
import struct
import sys

# bytes after the 12-byte btf_type, fixed and per vlen entry, by kind
EXTRA = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 13: (0, 8),
         14: (4, 0), 15: (0, 12), 17: (4, 0), 19: (0, 12)}


def pairs(path):
    d = open(path, "rb").read()
    _, _, _, hl, to, tl, _, _ = struct.unpack("<HBBIIIII", d[:24])
    p, end, seen = hl + to, hl + to + tl, set()
    while p < end:
        _, info, _ = struct.unpack("<III", d[p:p + 12])
        kind, kflag, vlen = (info >> 24) & 0x1f, info >> 31, info & 0xffff
        seen.add((kind, kflag))
        fixed, per = EXTRA.get(kind, (0, 0))
        p += 12 + fixed + per * vlen
    return seen


lost = pairs(sys.argv[1]) - pairs(sys.argv[2])
if lost:
    sys.exit("kinds: %s lost (kind, kind_flag): %s" % (sys.argv[2], sorted(lost)))
