#!/usr/bin/env python3
"""test/faults/run.py WORK RELOCORE SHIM LIBBPF_OPEN K1 K2 OBJ1 OBJ2 KOBJ KCONFIG

Every command of relocore that writes a file, with faults injected while it
writes (issue 30).  For each command a destination already holds an older
output (OLD) and a bystander file sits beside it; the command would write
NEW.  Then:

  kill/N    SIGKILL before its N-th write-related call (open for writing,
            write, fsync, linkat, rename, unlink: every one it makes, counted
            by shim.c), for every N;
  eio/N, enospc/N   that call fails (EIO, ENOSPC) instead, for every N;
  named/...         the same with no unnamed temporaries (a filesystem
            without O_TMPFILE): named ones, created exclusively;
  timed     killed by `timeout -s KILL` at 16 delays across its run time;
  symlink/dest      the destination is a link to the bystander;
  symlink/pid       links planted at the names the old writers used
            (OUT.tmp<pid>, OUT.tmp.<pid>);
  symlink/guess     a link planted at every temporary name the writer
            creates, just before it creates it (an attacker who guessed);
  swapdir/N the destination's directory replaced by a link to another
            directory before the N-th call;
  full      the destination on a full filesystem (a small tmpfs);
  race      two `archive install` to one destination at once, 20 times,
            with a reader of the destination running throughout.

After each: every destination is byte-identical to OLD or to NEW (NEW when
the command exited 0), and both were read back by relocore and by libbpf;
a failing command said why, naming the file; the bystander is untouched; no
file but the destinations is left in the directory - except the one window a
kill cannot be cleaned up after (between naming the temporary and renaming
it), whose leftover the next write beside it must remove.

Prints PASS: faults/<command>/<test> or FAIL: ...: why.
"""
import os
import shutil
import subprocess
import sys
import time

(work, R, SHIM, OPEN, K1, K2, OBJ1, OBJ2, KOBJ, KCONFIG) = sys.argv[1:11]
fails = 0


def result(name, problems, detail=""):
    global fails
    if problems:
        fails += 1
        print(f"FAIL: faults/{name}: " + "; ".join(problems[:4]) +
              (f" (and {len(problems) - 4} more)" if len(problems) > 4 else ""))
    else:
        print(f"PASS: faults/{name}" + (f" ({detail})" if detail else ""))
    sys.stdout.flush()


def run(argv, env=None, timeout=120):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(argv, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def must(argv):
    rc, out, err = run(argv)
    if rc:
        raise SystemExit(f"FAIL: faults/setup: {' '.join(argv)}: exit {rc}: {err.strip()}")
    return out


def read(p):
    with open(p, "rb") as f:
        return f.read()


# --- inputs made once ------------------------------------------------------
inp = os.path.join(work, "in")
os.makedirs(inp, exist_ok=True)
ARCH = os.path.join(inp, "a.rcba")
ARCH_OLD = os.path.join(inp, "old.rcba")
must([R, "archive", "create", "-o", ARCH, "--min", OBJ1, "--min", OBJ2, f"k1={K1}", f"k2={K2}"])
must([R, "archive", "create", "-o", ARCH_OLD, "--min", OBJ1, f"k1={K2}"])
# a binary embedding two objects, and an older one embedding the same
# objects (same names) relocated
BIN = os.path.join(inp, "tool")
BIN_OLD = os.path.join(inp, "tool.old")
with open(BIN, "wb") as f:
    f.write(b"\x7fnot-elf-prefix\0" + read(OBJ1) + read(OBJ2))
olds = []
for i, o in enumerate((OBJ1, OBJ2)):
    p = os.path.join(inp, f"old{i}.o")
    must([R, "reloc", o, "--btf", K2, "-o", p])
    olds.append(read(p))
with open(BIN_OLD, "wb") as f:
    f.write(b"\x7fnot-elf-prefix\0" + b"".join(olds))
names = [l.split()[1] for l in must([R, "extract", "--list", BIN]).splitlines() if l.strip()]

# (name, kind, argv(dest dir) for NEW, argv for OLD, the files written)
cases = [
    ("reloc", "obj", lambda d: [R, "reloc", OBJ1, "--btf", K1, "-o", f"{d}/out.o"],
     lambda d: [R, "reloc", OBJ1, "--btf", K2, "-o", f"{d}/out.o"], ["out.o"]),
    ("reloc-kconfig", "obj",
     lambda d: [R, "reloc", KOBJ, "--btf", KOBJ, "--kernel-release", "6.1.0-27-cloud-amd64",
                "--kconfig", KCONFIG, "-o", f"{d}/out.o"],
     lambda d: [R, "reloc", KOBJ, "--btf", KOBJ, "--kernel-release", "5.10.0-1-cloud-amd64",
                "--kconfig", KCONFIG, "-o", f"{d}/out.o"], ["out.o"]),
    ("btfgen", "btf", lambda d: [R, "btfgen", "--btf", K1, "-o", f"{d}/out.btf", OBJ1, OBJ2],
     lambda d: [R, "btfgen", "--btf", K2, "-o", f"{d}/out.btf", OBJ1], ["out.btf"]),
    ("gen-min-core-btf", "btf", lambda d: [R, "gen", "min_core_btf", K1, f"{d}/out.btf", OBJ1],
     lambda d: [R, "gen", "min_core_btf", K2, f"{d}/out.btf", OBJ1], ["out.btf"]),
    ("archive-create", "archive",
     lambda d: [R, "archive", "create", "-o", f"{d}/out.rcba", "--min", OBJ1, "--min", OBJ2,
                f"k1={K1}", f"k2={K2}"],
     lambda d: [R, "archive", "create", "-o", f"{d}/out.rcba", "--min", OBJ1, f"k1={K2}"],
     ["out.rcba"]),
    ("archive-extract", "btf", lambda d: [R, "archive", "extract", ARCH, "k1", "-o", f"{d}/out.btf"],
     lambda d: [R, "archive", "extract", ARCH, "k2", "-o", f"{d}/out.btf"], ["out.btf"]),
    ("archive-install", "archive", lambda d: [R, "archive", "install", ARCH, "-o", f"{d}/out.rcba"],
     lambda d: [R, "archive", "install", ARCH_OLD, "-o", f"{d}/out.rcba"], ["out.rcba"]),
    ("extract", "obj", lambda d: [R, "extract", BIN, "-o", d],
     lambda d: [R, "extract", BIN_OLD, "-o", d], [f"{n}.o" for n in names]),
]


def readback(kind, path):
    """Problems reading PATH back with relocore and with libbpf."""
    probs = []
    if kind == "obj":
        rc, out, err = run([OPEN, path])
        if f"open {path} ok" not in out:
            probs.append(f"libbpf does not open {path}: {out.strip()[:120]}")
        rc, out, err = run([R, "check", path, "--btf", K1])
        if rc not in (0, 1):
            probs.append(f"relocore check cannot read {path}: {err.strip()[:120]}")
    elif kind == "btf":
        rc, out, err = run(["bpftool", "btf", "dump", "file", path])
        if rc:
            probs.append(f"libbpf (bpftool) cannot read {path}: {err.strip()[:120]}")
        rc, out, err = run([R, "explain", OBJ1, "--btf", path])
        if rc:
            probs.append(f"relocore explain against {path}: {err.strip()[:120]}")
    else:
        rc, out, err = run([R, "archive", "list", path])
        rels = [l.split()[0] for l in out.splitlines() if l.strip()]
        if rc or not rels:
            probs.append(f"relocore archive list {path}: {err.strip()[:120]}")
        for rel in rels:
            x = path + f".{rel}.btf"
            rc, out, err = run([R, "archive", "extract", path, rel, "-o", x])
            rc2, _, err2 = run(["bpftool", "btf", "dump", "file", x])
            if rc or rc2:
                probs.append(f"kernel {rel} of {path} does not read back: {err.strip()} {err2.strip()}"[:160])
            if os.path.exists(x):
                os.unlink(x)
    return probs


# the references: NEW and OLD of every case, read back once
refs = {}
for name, kind, new, old, outs in cases:
    probs = []
    for tag, argv in (("new", new), ("old", old)):
        d = os.path.join(work, "ref", name, tag)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        rc, _, err = run(argv(d))
        if rc:
            probs.append(f"{tag}: exit {rc}: {err.strip()[:160]}")
            continue
        for o in outs:
            probs += readback(kind, os.path.join(d, o))
        refs[(name, tag)] = {o: read(os.path.join(d, o)) for o in outs}
    if not probs and any(refs[(name, "new")][o] == refs[(name, "old")][o] for o in outs):
        probs.append("OLD and NEW are the same bytes: the test could not tell them apart")
    result(f"{name}/reference", probs, "NEW and OLD read back by relocore and libbpf")

D = os.path.join(work, "d")
VICTIM = os.path.join(work, "bystander")
VICTIM_TEXT = b"a file nobody asked relocore to touch\n"
TMP_TAG = ".rc-tmp-"


def reset(name, outs, dirpath=D):
    if os.path.islink(dirpath):
        os.unlink(dirpath)
    shutil.rmtree(dirpath, ignore_errors=True)
    for extra in (dirpath + ".moved", os.path.join(work, "evil")):
        if os.path.islink(extra):
            os.unlink(extra)
        shutil.rmtree(extra, ignore_errors=True)
    os.makedirs(dirpath)
    for o in outs:
        with open(os.path.join(dirpath, o), "wb") as f:
            f.write(refs[(name, "old")][o])
    with open(VICTIM, "wb") as f:
        f.write(VICTIM_TEXT)
    with open(os.path.join(dirpath, "bystander"), "wb") as f:
        f.write(VICTIM_TEXT)


def judge(name, outs, rc, err, dirpath=D, allow_tmp=False, expect_fail=False):
    """Problems with the state after a run; and whether a temporary was left."""
    probs = []
    new, old = refs[(name, "new")], refs[(name, "old")]
    left = []
    for e in sorted(os.listdir(dirpath)):
        if e in outs or e == "bystander":
            continue
        if TMP_TAG in e:
            left.append(e)
        else:
            probs.append(f"unexpected file {e}")
    if left and not allow_tmp:
        probs.append(f"temporary left: {left}")
    if len(left) > len(outs):
        probs.append(f"more temporaries than files written left: {left}")
    for o in outs:
        p = os.path.join(dirpath, o)
        if os.path.islink(p) or not os.path.isfile(p):
            probs.append(f"{o} is not a regular file")
            continue
        b = read(p)
        if b == new[o]:
            continue
        if b == old[o] and rc != 0:
            continue
        probs.append(f"{o} is " + ("OLD though the command exited 0" if b == old[o] else
                                    f"neither OLD nor NEW ({len(b)} bytes)"))
    if rc > 0 and (not err.strip() or "relocore" not in err):
        probs.append(f"exit {rc} without a message")
    if rc > 0 and not any(o in err for o in outs) and "out." not in err and dirpath not in err:
        probs.append(f"exit {rc}, message does not name the file: {err.strip()[:100]}")
    if expect_fail and rc == 0:
        probs.append("exit 0 although the fault could not be recovered from")
    if read(VICTIM) != VICTIM_TEXT or read(os.path.join(dirpath, "bystander")) != VICTIM_TEXT:
        probs.append("the bystander file was changed")
    return probs, left


def count_calls(name, new, outs, env=None, dirpath=D):
    reset(name, [])
    reset(name, outs, dirpath)
    cf = os.path.join(work, "count")
    e = {"LD_PRELOAD": SHIM, "RC_FAULT_COUNT": cf}
    e.update(env or {})
    rc, _, err = run(new(dirpath), e)
    lines = read(cf).decode().split("\n")
    return rc, int(lines[0]), [l for l in lines[1:] if l]


def fault_series(name, new, outs, mode_env, tag):
    rc, n, calls = count_calls(name, new, outs, mode_env)
    if rc:
        result(f"{name}/{tag}", [f"the run with the shim failed: exit {rc}"])
        return
    for act in ("kill", "eio", "enospc"):
        probs = []
        points = 0
        for k in range(1, n + 1):
            if act == "enospc" and calls[k - 1] not in ("write", "fsync"):
                continue
            points += 1
            reset(name, outs)
            e = {"LD_PRELOAD": SHIM, "RC_FAULT_AT": str(k), "RC_FAULT_DO": act}
            e.update(mode_env)
            rc, _, err = run(new(D), e)
            if act == "kill" and rc != -9:
                probs.append(f"{act}/{k} ({calls[k - 1]}): not killed (exit {rc})")
                continue
            # named temporaries exist from their creation; an unnamed one
            # gets a name only at linkat, and the rename follows it
            window = act == "kill" and (mode_env or calls[k - 1] == "renameat")
            p, left = judge(name, outs, rc, err, allow_tmp=window)
            probs += [f"{act}/{k} ({calls[k - 1]}): {x}" for x in p]
            if left:	# the next write beside it removes it
                rc2, _, err2 = run(new(D))
                p2, left2 = judge(name, outs, rc2, err2)
                if rc2 or left2 or p2:
                    probs.append(f"{act}/{k} ({calls[k - 1]}): the next run did not clean up: "
                                 f"exit {rc2}, left {left2}, {p2}")
        result(f"{name}/{tag}{act}", probs, f"{points} points of {n} calls: {' '.join(calls)}")


def timed(name, new, outs):
    reset(name, outs)
    t = time.monotonic()
    run(new(D))
    dur = time.monotonic() - t
    probs = []
    for i in range(16):
        delay = dur * 1.2 * i / 15
        reset(name, outs)
        rc, _, err = run(["timeout", "-s", "KILL", f"{delay:.4f}"] + new(D))
        if rc == -9 or rc == 137:
            rc = -9
        p, left = judge(name, outs, rc, err, allow_tmp=True)
        probs += [f"killed at {delay:.3f}s: {x}" for x in p]
        if left:
            rc2, _, err2 = run(new(D))
            p2, left2 = judge(name, outs, rc2, err2)
            if rc2 or left2 or p2:
                probs.append(f"killed at {delay:.3f}s: the next run did not clean up: "
                             f"exit {rc2} {err2.strip()[:80]}, left {left}, then {left2}, {p2}")
    result(f"{name}/timed", probs, f"16 delays over {dur:.3f}s")


def symlinks(name, new, outs):
    # the destination is a link to the bystander: replaced, not followed
    probs = []
    reset(name, outs)
    for o in outs:
        os.unlink(os.path.join(D, o))
        os.symlink(VICTIM, os.path.join(D, o))
    rc, _, err = run(new(D))
    p, _ = judge(name, outs, rc, err)
    probs += p + ([f"exit {rc}: {err.strip()[:100]}"] if rc else [])
    result(f"{name}/symlink/dest", probs)
    # links at the names the writers of relocore 1.2 used: OUT.tmp<pid>
    # (btfgen, archive create), OUT.tmp.<pid> (archive install)
    reset(name, outs)
    plant = " ".join(f"ln -s {VICTIM} {D}/{o}.tmp$$; ln -s {VICTIM} {D}/{o}.tmp.$$;" for o in outs)
    argv = new(D)
    rc, _, err = run(["sh", "-c", plant + ' exec "$@"', "sh"] + argv)
    probs = []
    if rc:
        probs.append(f"exit {rc}: {err.strip()[:100]}")
    if read(VICTIM) != VICTIM_TEXT:
        probs.append("followed a link planted at OUT.tmp<pid>: the bystander was overwritten")
    for e in os.listdir(D):
        if ".tmp" in e and not os.path.islink(os.path.join(D, e)):
            probs.append(f"{e} is no longer the planted link")
        elif ".tmp" in e:
            os.unlink(os.path.join(D, e))
    probs += judge(name, outs, rc, err)[0]
    result(f"{name}/symlink/pid", probs)
    # a link planted at every temporary name, before each is created
    for mode_env, tag in (({}, ""), ({"RC_FAULT_NO_TMPFILE": "1"}, "named-"),
                          ({"RC_FAULT_NO_LINK": "1"}, "nolink-")):
        reset(name, outs)
        log = os.path.join(work, "shim.log")
        if os.path.exists(log):
            os.unlink(log)
        e = {"LD_PRELOAD": SHIM, "RC_FAULT_DIR": D, "RC_FAULT_PLANT": VICTIM,
             "RC_FAULT_LOG": log}
        e.update(mode_env)
        rc, _, err = run(new(D), e)
        lines = read(log).decode().splitlines() if os.path.exists(log) else []
        planted = [l.split(" ", 1)[1] for l in lines if l.startswith("planted ")]
        probs = [f"created {l.split(' ', 1)[1]} without O_EXCL" for l in lines
                 if l.startswith("nonexcl ")]
        if rc:
            probs.append(f"exit {rc}: {err.strip()[:100]}")
        if read(VICTIM) != VICTIM_TEXT:
            probs.append("a planted link was followed: the bystander was overwritten")
        for p in planted:
            if not os.path.islink(p):
                probs.append(f"the planted link {os.path.basename(p)} was replaced")
            else:
                os.unlink(p)
        if mode_env and not planted:
            probs.append("no temporary name was created (the shim saw none)")
        probs += judge(name, outs, rc, err)[0]
        result(f"{name}/symlink/{tag}guess", probs, f"{len(planted)} links planted")


def swapdir(name, new, outs):
    sub = os.path.join(D, "sub")
    evil = os.path.join(work, "evil")
    rc, n, calls = count_calls(name, new, outs, dirpath=sub)
    probs = [] if rc == 0 and n else [f"the run with the shim failed: exit {rc}"]
    for k in range(1, n + 1):
        reset(name, [])
        reset(name, outs, sub)
        os.makedirs(evil)
        e = {"LD_PRELOAD": SHIM, "RC_FAULT_AT": str(k), "RC_FAULT_DO": f"swap:{sub}:{evil}"}
        rc, _, err = run(new(sub), e)
        if os.listdir(evil):
            probs.append(f"{k} ({calls[k - 1]}): wrote into the directory swapped in: "
                         f"{os.listdir(evil)}")
        if not os.path.islink(sub):
            probs.append(f"{k}: the swap did not happen")
            continue
        # the files are where the directory went
        p, _ = judge(name, outs, rc, err, dirpath=sub + ".moved")
        probs += [f"{k} ({calls[k - 1]}): {x}" for x in p]
    result(f"{name}/swapdir", probs, f"{n} points")


def full_disk(name, new, outs):
    mnt = os.path.join(work, "full")
    os.makedirs(mnt, exist_ok=True)
    size = sum(len(v) for t in ("old", "new") for v in refs[(name, t)].values()) + 256 * 1024
    rc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mnt],
                        stderr=subprocess.PIPE).returncode
    if rc:
        result(f"{name}/full", ["cannot mount a small tmpfs (the test runs as root)"])
        return
    try:
        reset(name, outs, mnt + "/d")
        st = os.statvfs(mnt)
        free = st.f_bavail * st.f_frsize
        need = min(len(v) for v in refs[(name, "new")].values())
        probs = []
        if need <= free:
            with open(mnt + "/filler", "wb") as f:	# leave less than NEW needs
                f.write(b"\0" * (free - need // 2))
        before = os.statvfs(mnt).f_bfree
        rc, _, err = run(new(mnt + "/d"))
        if rc == 0:
            probs.append("exit 0 on a full disk")
        if "No space left" not in err:
            probs.append(f"the message does not say the disk is full: {err.strip()[:120]}")
        p, _ = judge(name, outs, rc, err, dirpath=mnt + "/d")
        probs += p
        if os.statvfs(mnt).f_bfree != before:
            probs.append("blocks still used after the failed write")
        os.unlink(mnt + "/filler")
        rc, _, err = run(new(mnt + "/d"))	# with room again: written
        if rc:
            probs.append(f"with room again: exit {rc}: {err.strip()[:100]}")
        probs += [f"with room again: {x}" for x in judge(name, outs, rc, err, dirpath=mnt + "/d")[0]]
        result(f"{name}/full", probs, f"{free} bytes free, NEW needs {need}")
    finally:
        subprocess.run(["umount", mnt])


def race():
    name = "archive-install"
    dest = os.path.join(D, "out.rcba")
    reset(name, ["out.rcba"])
    a, b = read(ARCH), read(ARCH_OLD)
    probs = []
    reader = subprocess.Popen(["sh", "-c", f'while :; do "{R}" archive list "{dest}" >/dev/null || '
                               f'echo "reader failed"; done'], stdout=subprocess.PIPE)
    try:
        for i in range(20):
            p1 = subprocess.Popen([R, "archive", "install", ARCH, "-o", dest],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            p2 = subprocess.Popen([R, "archive", "install", ARCH_OLD, "-o", dest],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for p in (p1, p2):
                _, err = p.communicate(timeout=60)
                if p.returncode:
                    probs.append(f"round {i}: install exit {p.returncode}: {err.decode().strip()[:80]}")
            got = read(dest)
            if got not in (a, b):
                probs.append(f"round {i}: the destination is neither archive")
            left = [e for e in os.listdir(D) if TMP_TAG in e]
            if left:
                probs.append(f"round {i}: temporaries left {left}")
    finally:
        reader.kill()
        out = reader.communicate()[0].decode()
    if "reader failed" in out:
        probs.append(f"a reader of the destination failed {out.count('reader failed')} times")
    result(f"{name}/race", probs, "20 rounds of two installs, a reader throughout")


for name, kind, new, old, outs in cases:
    if (name, "new") not in refs or (name, "old") not in refs:
        continue
    fault_series(name, new, outs, {}, "")
    fault_series(name, new, outs, {"RC_FAULT_NO_TMPFILE": "1"}, "named/")
    timed(name, new, outs)
    symlinks(name, new, outs)
    swapdir(name, new, outs)
    if os.geteuid() == 0:
        full_disk(name, new, outs)
if ("archive-install", "new") in refs:
    race()
sys.exit(1 if fails else 0)
