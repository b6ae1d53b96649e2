#!/usr/bin/env python3
"""realmaps.py - the maps of real objects (the crosscheck suite's corpus:
Debian's libbpf-tools and the project's examples), as libbpf 1.1 makes
them when it opens each object and as relocore check lists them: equal, map
by map (differ.py's comparison, on objects we did not write).

  realmaps.py --opener LIBBPF_OPEN --relocore RELOCORE --btf BTF OBJ...
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differ  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opener", required=True)
    ap.add_argument("--relocore", required=True)
    ap.add_argument("--btf", required=True)
    ap.add_argument("objs", nargs="+")
    a = ap.parse_args()
    opened = maps = 0
    bad = []
    for o in a.objs:
        p = subprocess.run([a.opener, o], capture_output=True, text=True)
        lines = p.stdout.splitlines()
        if not lines or not lines[0].endswith(" ok"):
            continue
        ok, whys, _, _, r_maps, _ = differ.relocore_read(a.relocore, o, a.btf)
        l_maps = differ.libbpf_maps(lines)
        opened += 1
        maps += len(l_maps)
        if not ok or l_maps != r_maps:
            bad.append(f"{os.path.basename(o)}: " + ("relocore refuses: " + "; ".join(whys)[:150] if not ok else
                       f"libbpf {sorted(l_maps - r_maps)[:2]} only, relocore {sorted(r_maps - l_maps)[:2]} only"))
    if not opened:
        print("FAIL: reader/real-maps: libbpf opened none of the objects given")
        return 1
    if bad:
        print(f"FAIL: reader/real-maps: {len(bad)} of {opened} objects: " + " | ".join(bad[:3]))
        return 1
    print(f"PASS: reader/real-maps ({opened} real objects, {maps} maps: the same as libbpf's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
