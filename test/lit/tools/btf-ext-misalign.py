#!/usr/bin/env python3
"""btf-ext-misalign.py IN OUT: OUT is the ELF object IN with its .BTF.ext
section's bytes moved to the end of the file, at an offset that is 1 more
than a multiple of 4 (GCC writes .BTF.ext with alignment 1, so where it
lands depends on what precedes it, e.g. the length of the source path).
The section's content is unchanged; only sh_offset moves.  Prints the new
offset modulo 4."""
import struct
import sys

src, dst = sys.argv[1:3]
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
hdr = lambda i: shoff + 64 * i
strtab = struct.unpack_from("<Q", d, hdr(shstrndx) + 24)[0]
for i in range(shnum):
    name, = struct.unpack_from("<I", d, hdr(i))
    if bytes(d[strtab + name:strtab + name + 9]) == b".BTF.ext\0":
        off, size = struct.unpack_from("<QQ", d, hdr(i) + 24)
        data = bytes(d[off:off + size])
        new = len(d) + (1 - len(d)) % 4
        d += b"\0" * (new - len(d)) + data
        struct.pack_into("<Q", d, hdr(i) + 24, new)
        open(dst, "wb").write(d)
        print("ext offset mod 4 =", new % 4)
        sys.exit(0)
sys.exit(f"{src}: no .BTF.ext section")
