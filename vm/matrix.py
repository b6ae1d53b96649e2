#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""relocore matrix: the user's objects booted on every kernel they name.

Run as `relocore matrix ...` (cli/matrix.c execs this file with RELOCORE set
to the relocore binary).  For each kernel - from the catalog (vm/kernels.list:
Debian's kernels by package, our builds) or the user's own image - it:

  1. fetches the kernel and its BTF (vm/kernel.sh, vm/kernel-btf.sh: cached);
  2. decides offline, on the host, what `relocore check` predicts for every
     program of every object with the same load options;
  3. builds a small initramfs (busybox, relocore-static, vm/init.sh,
     vm/matrix-guest.sh, the objects; the kernel's virtio modules) and boots
     it (vm/boot.sh: QEMU, KVM where usable, else TCG; a timeout fails the
     cell), where `relocore run --keep-going` loads and attaches each object
     and says, per program, attached / loaded / not loaded / failed (stage,
     class, errno, the verifier's last lines);
  4. sets the prediction beside each verdict.

Output: a table (programs x kernels), JSON (--json: schema in
relocore-matrix(1)), Markdown, HTML.  Exit 0 when every program loads and
attaches on every kernel, 1 when not, 2 on bad input.
"""
import argparse
import concurrent.futures
import fnmatch
import gzip
import hashlib
import html
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

SCHEMA = 1
VM = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(VM)
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "relocore")
HOST_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)

# the load options of relocore run and check (cli/load_opts.h), passed to both
LOAD_OPTS = ["--no-autoload", "--no-autoattach", "--optional", "--attach-if-present",
             "--attach-target", "--set", "--map-size", "--map-value-size", "--no-autocreate",
             "--uprobe", "--perf-event", "--xdp", "--cgroup", "--tc", "--object"]
# a verdict's class as the table shows it (run's --keep-going classes)
SHORT = {"relocation": "reloc", "verifier": "verif", "attach": "attach", "helper": "helper",
         "kfunc": "kfunc", "map": "map", "btf_missing": "nobtf", "program_type": "ptype",
         "load": "load", "relocate": "reloc", "run": "run"}

out_lock = threading.Lock()


class BadInput(Exception):
    pass


def say(msg):
    with out_lock:
        print(f"matrix: {msg}", file=sys.stderr, flush=True)


def sha_files(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(os.path.basename(p).encode() + b"\0")
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:16]


def atomic_write(path, data):
    tmp = f"{path}.tmp.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def relocore_bin():
    for p in (os.environ.get("RELOCORE"), os.path.join(ROOT, "build/bin/relocore")):
        if p and os.access(p, os.X_OK):
            return p
    p = shutil.which("relocore")
    if not p:
        raise BadInput("no relocore binary (RELOCORE=PATH)")
    return p


# --- the catalog ---------------------------------------------------------------

def catalog():
    """vm/kernels.list (RC_VM_KERNELS): [{name, kind, spec, btf, arch}]"""
    path = os.environ.get("RC_VM_KERNELS") or os.path.join(VM, "kernels.list")
    ks = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            ks.append({"name": w[0], "kind": w[1], "spec": w[2],
                       "btf": w[3] if len(w) > 3 else "sysfs",
                       "arch": w[4] if len(w) > 4 else "amd64"})
    return ks


def catalog_state(k):
    """what is cached of catalog kernel k (for --list-kernels)"""
    kdir = os.path.join(CACHE, "kernels")
    if k["kind"] == "build":
        if not os.path.exists(os.path.join(ROOT, k["spec"])):
            return "unavailable (built from relocore's source tree)"
        built = [d for d in os.listdir(kdir) if d.startswith(f"build-{k['name']}-")] if os.path.isdir(kdir) else []
        return "built" if any(os.path.exists(os.path.join(kdir, d, "vmlinuz")) for d in built) else "to build (about 13 min)"
    memo = os.path.join(kdir, f".resolved-{k['name']}")
    try:
        deb = open(memo).read().split("\n")[2]
        if os.path.exists(os.path.join(kdir, deb, ".kernel-complete")):
            return f"cached ({deb.split('_')[0].replace('%2b', '+')})"
    except (OSError, IndexError):
        pass
    return "to download"


def run_script(args, log, env=None, timeout=3600):
    """a vm/ script: its stdout (stripped); its stderr to @log and, as
    progress, the lines of downloads and builds to ours"""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    def pump():
        for line in p.stderr:
            log.write(line)
            log.flush()
            if re.search(r"download|fell back|building|built in|apt-get update|ERROR|cannot|no package", line):
                say("  " + line.rstrip())
    t = threading.Thread(target=pump)
    t.start()
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        t.join()
        raise RuntimeError(f"{os.path.basename(args[0])} timed out after {timeout}s")
    t.join()
    if p.returncode:
        raise RuntimeError(f"{' '.join(os.path.basename(a) for a in args[:2])} failed (exit {p.returncode}; log {log.name})")
    return out.strip()


# --- kernels ---------------------------------------------------------------------

def parse_user_kernel(spec):
    """NAME=VMLINUZ[,modules=DIR][,config=FILE][,btf=FILE][,arch=ARCH]"""
    if "=" not in spec:
        raise BadInput(f"--kernel {spec}: NAME=VMLINUZ[,modules=DIR][,config=FILE][,btf=FILE][,arch=ARCH]")
    name, rest = spec.split("=", 1)
    parts = rest.split(",")
    k = {"name": name, "kind": "user", "image": os.path.abspath(parts[0]), "arch": None}
    if not re.fullmatch(r"[A-Za-z0-9._+-]+", name):
        raise BadInput(f"--kernel {spec}: NAME may hold letters, digits and ._+-")
    for p in parts[1:]:
        key, _, val = p.partition("=")
        if key not in ("modules", "config", "btf", "arch") or not val:
            raise BadInput(f"--kernel {name}: unknown or empty '{p}' (modules=DIR, config=FILE, btf=FILE, arch=ARCH)")
        k[key] = val if key == "arch" else os.path.abspath(val)
    if not os.path.isfile(k["image"]):
        raise BadInput(f"--kernel {name}: no kernel image {parts[0]}")
    for key in ("config", "btf"):
        if k.get(key) and not os.path.isfile(k[key]):
            raise BadInput(f"--kernel {name}: no {key} file {k[key]}")
    if k.get("modules") and not os.path.isdir(k["modules"]):
        raise BadInput(f"--kernel {name}: no modules directory {k['modules']}")
    desc = subprocess.run(["file", "-bL", k["image"]], capture_output=True, text=True).stdout
    if not k["arch"]:
        k["arch"] = "arm64" if "ARM64" in desc or "aarch64" in desc else \
            "amd64" if "x86 boot" in desc or "bzImage" in desc else \
            "s390x" if "S/390" in desc else HOST_ARCH
    if k["arch"] not in ("amd64", "arm64", "s390x"):
        raise BadInput(f"--kernel {name}: arch {k['arch']}: amd64, arm64 or s390x")
    m = re.search(r"version (\S+)", desc)
    k["release"] = os.path.basename(k["modules"].rstrip("/")) if k.get("modules") else \
        (m.group(1) if m else "unknown")
    return k


def prepare_kernel(k, log):
    """the kernel's directory, BTF file and whether the kernel exports its
    BTF: k gains kdir, btf_file, sysfs, release"""
    if k["kind"] != "user":
        k["kdir"] = run_script([os.path.join(VM, "kernel.sh"), k["name"]], log)
        k["btf_file"] = run_script([os.path.join(VM, "kernel-btf.sh"), k["name"]], log)
        k["sysfs"] = k["btf"] == "sysfs"
        k["release"] = open(os.path.join(k["kdir"], "release")).read().strip()
        return
    st = os.stat(k["image"])
    key = hashlib.sha256(f"{k['image']}|{st.st_size}|{st.st_mtime_ns}|{k.get('modules')}|{k.get('config')}|{k['release']}".encode()).hexdigest()[:16]
    kdir = os.path.join(CACHE, "matrix", f"user-{k['name']}-{key}")
    if not os.path.exists(os.path.join(kdir, ".done")):
        tmp = tempfile.mkdtemp(dir=os.path.join(CACHE, "matrix"), prefix=".user.")
        shutil.copyfile(k["image"], os.path.join(tmp, "vmlinuz"))
        open(os.path.join(tmp, "release"), "w").write(k["release"] + "\n")
        if k.get("config"):
            shutil.copyfile(k["config"], os.path.join(tmp, "config"))
        if k.get("modules"):
            os.makedirs(os.path.join(tmp, "lib/modules"))
            os.symlink(k["modules"], os.path.join(tmp, "lib/modules", k["release"]))
        # the image's own .BTF (CONFIG_DEBUG_INFO_BTF): it exports it
        r = subprocess.run([os.path.join(VM, "kernel-btf.sh"), "--image", os.path.join(tmp, "vmlinuz"),
                            "-o", os.path.join(tmp, "vmlinux.btf")], stdout=log, stderr=log)
        if r.returncode:
            try:
                os.unlink(os.path.join(tmp, "vmlinux.btf"))
            except FileNotFoundError:
                pass
        open(os.path.join(tmp, ".done"), "w").write("ok\n")
        try:
            os.rename(tmp, kdir)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    k["kdir"] = kdir
    own = os.path.join(kdir, "vmlinux.btf")
    k["sysfs"] = os.path.exists(own) and os.path.getsize(own) > 0
    if k["sysfs"]:
        k["btf_file"] = own
    elif k.get("btf"):
        k["btf_file"] = k["btf"]
    else:
        raise RuntimeError("the image carries no BTF (CONFIG_DEBUG_INFO_BTF) and no btf=FILE was given")


# --- the guest's image -------------------------------------------------------

class Cpio:
    """a newc cpio archive (what the kernel unpacks as an initramfs)"""
    def __init__(self):
        self.buf = io.BytesIO()
        self.ino = 1
        self.dirs = set()

    def _entry(self, name, mode, data=b"", nlink=1):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08x}" for v in (
            self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
        self.ino += 1
        self.buf.write(hdr.encode() + name_b)
        self.buf.write(b"\0" * (-(110 + len(name_b)) % 4))
        self.buf.write(data)
        self.buf.write(b"\0" * (-len(data) % 4))

    def dir(self, name):
        parts = name.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in self.dirs:
                self.dirs.add(d)
                self._entry(d, stat.S_IFDIR | 0o755, nlink=2)

    def file(self, name, data, mode=0o644):
        if "/" in name:
            self.dir(name.rsplit("/", 1)[0])
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name, target):
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def gz(self):
        self._entry("TRAILER!!!", 0)
        return gzip.compress(self.buf.getvalue(), 6)


def need(tool, pkg):
    ok = os.path.exists(tool) if tool.startswith("/") else shutil.which(tool)
    if not ok:
        raise BadInput(f"{tool} is missing: it comes with the Debian package {pkg} (apt-get install {pkg})")


def guest_programs(arch, log):
    """busybox, relocore-static and (when there) stockload for @arch"""
    if arch == HOST_ARCH:
        need("busybox", "busybox-static")
        busybox = shutil.which("busybox")
        rs = [os.environ.get("RELOCORE_STATIC"), os.path.join(ROOT, "build/bin/relocore-static"),
              os.path.join(ROOT, "relocore-static")]
    else:
        sysroot = run_script([os.path.join(VM, "sysroot.sh"), arch], log)
        busybox = os.path.join(sysroot, "bin/busybox")
        rs = [os.environ.get(f"RELOCORE_STATIC_{arch.upper()}"), os.path.join(ROOT, arch, "relocore-static")]
        if os.path.exists(os.path.join(ROOT, "CMakeLists.txt")):
            rs.append(os.path.join(run_script([os.path.join(VM, "cross.sh"), arch], log), "bin/relocore-static"))
    relocore = next((p for p in rs if p and os.access(p, os.X_OK)), None)
    if not relocore:
        raise BadInput(f"no static relocore for {arch} guests (make -C build relocore-static, or RELOCORE_STATIC{'' if arch == HOST_ARCH else '_' + arch.upper()}=PATH)")
    desc = subprocess.run(["file", "-bL", busybox], capture_output=True, text=True).stdout
    if "statically linked" not in desc:
        raise BadInput(f"{busybox} is not statically linked (Debian's busybox-static)")
    # stock libbpf, statically linked (test/vm/stockload.c): the host's
    # libbpf.a, or cross-built against the sysroot's (the architecture's
    # own libbpf: big-endian on s390x)
    stock = os.path.join(ROOT, "stockload") if arch == HOST_ARCH else None
    src = os.path.join(ROOT, "test/vm/stockload.c")
    trip = {"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu", "s390x": "s390x-linux-gnu"}.get(arch)
    if arch == HOST_ARCH:
        cc, libs, inputs = ["gcc"], ["-lbpf", "-lelf", "-lz"], [src]
        have = trip and os.path.exists(f"/usr/lib/{trip}/libbpf.a")
    else:
        lib = os.path.join(sysroot, "usr/lib", trip or "-")
        cc = [f"{trip}-gcc", "-I", os.path.join(sysroot, "usr/include")]
        libs = [os.path.join(lib, a) for a in ("libbpf.a", "libelf.a", "libz.a")]
        inputs = [src, os.path.join(sysroot, "packages")]
        have = trip and all(os.path.exists(x) for x in libs)
    if os.path.exists(src) and have and shutil.which(cc[0]):
        stock = os.path.join(CACHE, "initramfs", f"stockload-{arch}-{sha_files(inputs)}")
        if not os.access(stock, os.X_OK):
            os.makedirs(os.path.dirname(stock), exist_ok=True)
            tmp = f"{stock}.tmp.{os.getpid()}"
            subprocess.run(cc + ["-static", "-O2", "-o", tmp, src] + libs,
                           stdout=log, stderr=log, check=True)
            os.replace(tmp, stock)
    if stock and not os.access(stock, os.X_OK):
        stock = None
    return busybox, relocore, stock


def base_layer(arch, log):
    """busybox and its applets, /init, relocore, the guest script: keyed by content"""
    busybox, relocore, stock = guest_programs(arch, log)
    init, guest = os.path.join(VM, "init.sh"), os.path.join(VM, "matrix-guest.sh")
    inputs = [busybox, relocore, init, guest] + ([stock] if stock else [])
    path = os.path.join(CACHE, "matrix", f"base-{arch}-{sha_files(inputs)}.cpio.gz")
    if not os.path.exists(path):
        c = Cpio()
        for d in ("bin", "dev", "proc", "sys", "tmp", "results", "etc", "boot", "tests", "lib/modules", "mnt"):
            c.dir(d)
        c.symlink("sbin", "bin")
        c.dir("usr")
        c.symlink("usr/bin", "../bin")
        c.symlink("usr/sbin", "../bin")
        c.file("bin/busybox", open(busybox, "rb").read(), 0o755)
        if arch == HOST_ARCH:
            for a in subprocess.run([busybox, "--list"], capture_output=True, text=True).stdout.split():
                if a != "busybox":
                    c.symlink(f"bin/{a}", "busybox")
        else:
            c.symlink("bin/sh", "busybox")	# /init makes the others
        c.file("init", open(init, "rb").read(), 0o755)
        c.file("bin/relocore", open(relocore, "rb").read(), 0o755)
        if stock:
            c.file("bin/stockload", open(stock, "rb").read(), 0o755)
        c.file("tests/guest-tests.sh", open(guest, "rb").read(), 0o755)
        atomic_write(path, c.gz())
    return path, stock is not None


def kernel_layer(k, timeout, log):
    """the modules that hand results out (virtio_pci, virtio_blk), the
    kernel's config and (when it exports none) its BTF"""
    kdir, rel = k["kdir"], k["release"]
    mods = []
    if os.path.isdir(os.path.join(kdir, "lib/modules", rel)):
        need("modprobe", "kmod")
        # (s390x's virtio transport, virtio_ccw, is built in: no PCI)
        want = ["virtio_blk"] if k["arch"] == "s390x" else ["virtio_pci", "virtio_blk"]
        r = subprocess.run(["modprobe", "-d", kdir, "-S", rel, "--show-depends", "-a"] + want,
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            w = line.split()
            if len(w) >= 2 and w[0] == "insmod" and w[1] not in mods:
                mods.append(w[1])
    btf = None if k["sysfs"] else k["btf_file"]
    cfg = os.path.join(kdir, "config")
    inputs = mods + ([btf] if btf else []) + ([cfg] if os.path.exists(cfg) else [])
    # (2: the layer's layout, /boot/config-RELEASE added)
    key = hashlib.sha256(f"2|{k['name']}|{rel}|{timeout}|{sha_files(inputs) if inputs else ''}".encode()).hexdigest()[:16]
    path = os.path.join(CACHE, "matrix", f"kernel-{k['name']}-{key}.cpio.gz")
    if not os.path.exists(path):
        c = Cpio()
        order = []
        for m in mods:
            b = os.path.basename(m)
            data = open(m, "rb").read()
            for ext, dec in ((".xz", ["xz", "-dc"]), (".zst", ["zstd", "-dcq"]), (".gz", ["gzip", "-dc"])):
                if b.endswith(ext):
                    data = subprocess.run(dec + [m], capture_output=True, check=True).stdout
                    b = b[:-len(ext)]
            c.file(f"lib/modules/{b}", data)
            order.append(b)
        c.file("etc/vm-modules", "".join(f"{b}\n" for b in order).encode())
        c.file("etc/vm-kernel", f"{k['name']}\n{'sysfs' if k['sysfs'] else 'archive'}\n{rel}\n".encode())
        c.file("etc/vm-test-timeout", f"{max(timeout - 30, 20)}\n".encode())
        if os.path.exists(cfg):
            c.file("boot/config", open(cfg, "rb").read())
            # where a Debian system keeps it, and libbpf looks for it (a
            # .kconfig extern needs it there: libbpf "failed to open
            # system Kconfig" otherwise, where /proc/config.gz is not)
            c.file(f"boot/config-{rel}", open(cfg, "rb").read())
        if btf:
            c.file("boot/vmlinux.btf", open(btf, "rb").read())
        atomic_write(path, c.gz())
    return path


# options that name programs (PROG, PROG,PROG or PROG=...) and maps (MAP or MAP=N)
PROG_OPTS = {"--no-autoload", "--no-autoattach", "--optional", "--attach-if-present",
             "--attach-target", "--uprobe", "--perf-event", "--xdp", "--cgroup", "--tc"}
MAP_OPTS = {"--map-size", "--map-value-size", "--no-autocreate"}


def inventory(relocore, objs, btf):
    """each object's program and map names (relocore check, no options)"""
    r = subprocess.run([relocore, "check"] + [o["path"] for o in objs] + ["--btf", btf, "--json"],
                       capture_output=True, text=True)
    if r.returncode == 2:
        raise BadInput(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "relocore check: exit 2")
    docs = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    for o, d in zip(objs, docs):
        k = d["kernels"][0]
        o["programs"] = [p["name"] for p in k.get("programs", []) + k.get("not_loaded", [])]
        o["maps"] = [m["name"] for m in k.get("maps", [])]


def opts_for(o, opts):
    """the load options that concern object @o: those naming a program or
    map apply to the objects that have one so named (globs as run matches
    them); the others (--set, --object) to every object"""
    res = []
    for opt, val in zip(opts[::2], opts[1::2]):
        if opt in PROG_OPTS or opt in MAP_OPTS:
            names = o["programs"] if opt in PROG_OPTS else o["maps"]
            head = val.split("=", 1)[0] if "=" in val else val
            pats = head.split(",")
            if not any(fnmatch.fnmatchcase(n, p) for p in pats for n in names):
                continue
        res += [opt, val]
    return res


def objects_layer(objs, opts, duration, core):
    c = Cpio()
    for o in objs:
        c.file(f"matrix/obj/{o['id']}", open(o["path"], "rb").read())
        c.file(f"matrix/options/{o['id']}", "".join(f"{a}\n" for a in opts_for(o, opts)).encode())
        if core.get(o["id"]):
            c.file(f"matrix/core/{o['id']}", b"1\n")
    c.dir("matrix/core")
    c.file("matrix/duration", f"{duration}\n".encode())
    return c.gz()


# --- the prediction and the verdicts --------------------------------------------

def predict(relocore, objs, opts, k, log):
    """relocore check, offline on the host, each object with its options:
    {object id: check's document}"""
    docs = {}
    for o in objs:
        args = [relocore, "check", o["path"], "--btf", k["btf_file"], "--json"]
        args += ["--kernel-release", k["release"]] if k["release"] != "unknown" else []
        cfg = os.path.join(k["kdir"], "config")
        args += ["--kconfig", cfg] if os.path.exists(cfg) else []
        args += [] if k["sysfs"] else ["--no-kernel-btf"]
        args += opts_for(o, opts)
        r = subprocess.run(args, capture_output=True, text=True)
        log.write(f"$ {' '.join(args)}\n{r.stderr}")
        if r.returncode == 2:
            raise BadInput(f"{o['name']}: relocore check refused the object or options: "
                           f"{r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'exit 2'}")
        d = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
        docs[o["id"]] = d[0] if d else None
    return docs


def jlines(path):
    res = []
    try:
        for line in open(path, errors="replace"):
            try:
                res.append(json.loads(line))
            except ValueError:
                pass
    except OSError:
        pass
    return res


def tail(path, n):
    try:
        return [l.rstrip("\n") for l in open(path, errors="replace").readlines()[-n:]]
    except OSError:
        return []


def judge(o, doc, rdir):
    """the rows of object @o on one kernel: check's prediction (@doc) beside
    the guest's verdicts (@rdir/ID.run.*)"""
    base = os.path.join(rdir, o["id"])
    lines = jlines(base + ".run.json")
    verdicts = {l["program"]: l for l in lines if "verdict" in l}
    tags = {l["program"]: l.get("tag") for l in lines if "tag" in l and "program" in l}
    try:
        rc = int(open(base + ".run.rc").read())
    except (OSError, ValueError):
        rc = None
    err = tail(base + ".run.err", 12)
    kern = (doc or {}).get("kernels", [{}])[0]
    pred = {p["name"]: p for p in kern.get("programs", [])}
    names = [p["name"] for p in kern.get("programs", [])] + [p["name"] for p in kern.get("not_loaded", [])]
    sections = {p["name"]: p["section"] for p in kern.get("programs", []) + kern.get("not_loaded", [])}
    for v in verdicts:
        if v not in sections:
            names.append(v)
            sections[v] = verdicts[v].get("section")
    rows = []
    for n in names:
        v = verdicts.get(n)
        if v is None:
            # no verdict: relocore run stopped before loading (a refused
            # relocation, a bad option) or the guest gave nothing back
            msg = next((l for l in reversed(err) if l.startswith("relocore")), err[-1] if err else "no output")
            cls = "relocate" if "relocat" in msg else "run"
            v = {"verdict": "failed" if rc is not None else "no_result", "stage": "relocate" if cls == "relocate" else "run",
                 "class": cls, "errno": 0, "message": msg, "log": []}
        p = pred.get(n)
        row = {"program": n, "section": sections.get(n), "verdict": v["verdict"]}
        for key in ("stage", "class", "errno", "message", "log", "needs"):
            if key in v:
                row[key] = v[key]
        if n in tags:
            row["tag"] = tags[n]
        row["predicted"] = None if p is None else {"ok": p["ok"], "problems": p.get("problems", [])}
        good = v["verdict"] in ("attached", "loaded")
        if p is None:
            row["agree"] = v["verdict"] == "not_loaded" or None
        else:
            row["agree"] = good == bool(p["ok"])
        rows.append(row)
    res = {"object": o["id"], "run_rc": rc, "programs": rows}
    if rc is None and verdicts:
        # verdicts, but no exit status: the guest's timer stopped the run
        res["incomplete"] = True
    if any(r["verdict"] in ("failed", "no_result") for r in rows) or rc not in (0, None):
        res["stderr_tail"] = err
    sp = base + ".stock.rc"
    if os.path.exists(sp):
        sl = jlines(base + ".stock.json")
        res["stock_libbpf"] = {"rc": int(open(sp).read() or 1),
                               "loaded": [l["program"] for l in sl if "program" in l],
                               "stderr_tail": tail(base + ".stock.err", 6)}
    return res


# --- one kernel -------------------------------------------------------------------

def boot_kernel(k, img, workdir, timeout, log):
    """boot @img on kernel @k (vm/boot.sh; once more if the guest handed back
    nothing); the results directory, else raises"""
    env = dict(os.environ, RC_VM_KDIR=k["kdir"], RC_VM_ARCH=k["arch"], RC_VM_TIMEOUT=str(timeout),
               RC_VM_TOOLS="0")
    out = os.path.join(workdir, k["name"])
    for attempt in (1, 2):
        r = subprocess.run([os.path.join(VM, "boot.sh"), k["name"], out, img], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log.write(r.stdout)
        if r.returncode == 0:
            break
        if attempt == 1:
            say(f"{k['name']}: no results from the guest; booting once more")
    if r.returncode:
        why = "timed out" if "TIMEOUT" in r.stdout else "handed back no results"
        raise RuntimeError(f"the guest {why} (console: {out}/console.log)")
    k["accel"] = "kvm" if " kvm;" in r.stdout else "tcg"
    try:
        k["boot_seconds"] = round(float(open(os.path.join(out, "boot-seconds")).read()), 1)
    except (OSError, ValueError):
        pass
    # the kernel's own boot: /init's first line, on the guest's clock
    m = re.search(r"vm: up at ([0-9.]+)s", open(os.path.join(out, "console.log"), errors="replace").read())
    k["guest_up_seconds"] = float(m.group(1)) if m else None
    return os.path.join(out, "results", "matrix")


def do_kernel(k, a, objs, layers, obj_layer, workdir):
    t0 = time.time()
    log = open(os.path.join(workdir, f"{k['name']}.log"), "a")
    cell = {"name": k["name"], "source": "user" if k["kind"] == "user" else "catalog",
            "arch": k["arch"], "release": k.get("release"), "kernel_btf": k["sysfs"],
            "btf": k["btf_file"], "objects": []}
    try:
        img = os.path.join(workdir, f"{k['name']}.img")
        with open(img, "wb") as f:
            for p in (layers[k["arch"]][0], k["klayer"]):
                f.write(open(p, "rb").read())
            f.write(obj_layer)
        rdir = boot_kernel(k, img, workdir, a.timeout, log)
        os.unlink(img)
        cell["accel"] = k.get("accel")
        cell["boot_seconds"] = k.get("boot_seconds")
        cell["guest_up_seconds"] = k.get("guest_up_seconds")
        try:
            cell["uname"] = open(os.path.join(rdir, "uname")).read().strip()
        except OSError:
            pass
        for o in objs:
            cell["objects"].append(judge(o, k["docs"].get(o["id"]), rdir))
        progs = [r for ob in cell["objects"] for r in ob["programs"]]
        bad = [r for r in progs if r["verdict"] in ("failed", "no_result")]
        cell["status"] = "fail" if bad or any(ob.get("incomplete") for ob in cell["objects"]) else "ok"
    except Exception as e:	# a cell fails, the run goes on
        cell["status"] = "error"
        cell["error"] = str(e)
    cell["seconds"] = round(time.time() - t0, 1)
    log.close()
    return cell


def summarize(cell):
    if cell["status"] == "error":
        return f"ERROR: {cell['error']}"
    progs = [r for ob in cell["objects"] for r in ob["programs"]]
    att = sum(r["verdict"] == "attached" for r in progs)
    ld = sum(r["verdict"] == "loaded" for r in progs)
    fl = sum(r["verdict"] in ("failed", "no_result") for r in progs)
    pr = [r for r in progs if r["predicted"] is not None]
    ag = sum(bool(r["agree"]) for r in pr)
    s = f"{att} attached" + (f", {ld} loaded" if ld else "") + (f", {fl} FAILED" if fl else "")
    st = [ob["stock_libbpf"] for ob in cell["objects"] if "stock_libbpf" in ob]
    if st:
        s += f"; stock libbpf loaded {sum(x['rc'] == 0 for x in st)}/{len(st)} objects"
    s += f"; check agreed {ag}/{len(pr)}; {cell.get('accel', '?')} {cell.get('boot_seconds', '?')}s"
    inc = [ob["object"] for ob in cell["objects"] if ob.get("incomplete")]
    if inc:
        s += f"\n  relocore run did not finish on {' '.join(inc)} (the guest's timer stopped it: --timeout)"
    return s


# --- output ------------------------------------------------------------------------

def cell_text(r):
    if r is None:
        return ""
    v = r["verdict"]
    t = {"attached": "ok", "loaded": "load", "not_loaded": "-"}.get(v) or SHORT.get(r.get("class"), "FAIL")
    if v in ("failed", "no_result"):
        t = t.upper()
    return t + ("!" if r.get("agree") is False else "")


def grid(doc):
    """rows [(object, program)], columns kernels, cells {(obj, prog, kernel): row}"""
    rows, cells = [], {}
    for k in doc["kernels"]:
        for ob in k.get("objects", []):
            for r in ob["programs"]:
                key = (ob["object"], r["program"])
                if key not in rows:
                    rows.append(key)
                cells[key + (k["name"],)] = r
    return rows, cells


def labeler(doc):
    """a row's label: PROGRAM, OBJECT:PROGRAM with several objects (the
    object's file name; its id where two share a name)"""
    names = [o["name"] for o in doc["objects"]]
    short = {o["id"]: (o["name"] if names.count(o["name"]) == 1 else o["id"]) for o in doc["objects"]}
    return lambda key: f"{short.get(key[0], key[0])}:{key[1]}" if len(names) > 1 else key[1]


def table(doc, width=120):
    rows, cells = grid(doc)
    ks = doc["kernels"]
    lab = labeler(doc)

    def label(key, w=44):
        """at most @w columns: the object's name shortened first"""
        t = lab(key)
        if len(t) <= w or ":" not in t:
            return t[:w]
        obj, prog = t.split(":", 1)
        keep = max(w - len(prog) - 1, 12)	# the name's head and tail
        if len(obj) > keep:
            obj = obj[:keep - 6] + "~" + obj[-5:]
        room = w - len(obj) - 1
        if len(prog) > room:	# the program's too: two long names that
            tail = room // 2	# share a head stay apart by their tails
            prog = prog[:room - tail - 1] + "~" + prog[-tail:]
        return obj + ":" + prog
    lw = max([len(label(r)) for r in rows] + [7])
    lines = []
    # kernels side by side as long as the line stays within @width
    parts, cur, used = [], [], lw
    for k in ks:
        w = max(len(k["name"]), 6) + 1
        if cur and used + w > width:
            parts.append(cur)
            cur, used = [], lw
        cur.append(k)
        used += w
    parts.append(cur)
    for part in parts:
        ws = [max(len(k["name"]), 6) for k in part]
        lines.append(" " * lw + " " + " ".join(k["name"].rjust(w) for k, w in zip(part, ws)))
        for r in rows:
            cs = []
            for k, w in zip(part, ws):
                if k["status"] == "error":
                    cs.append("ERROR".rjust(w))
                else:
                    cs.append(cell_text(cells.get(r + (k["name"],))).rjust(w))
            lines.append(label(r).ljust(lw) + " " + " ".join(cs))
        lines.append("")
    lines.append("ok attached; load loaded, not attached (as asked, or it needs an option: --xdp ...); "
                 "- not loaded (as asked)")
    lines.append("UPPER failed: RELOC relocation, VERIF verifier, ATTACH, HELPER, KFUNC, MAP, NOBTF, PTYPE, LOAD, RUN;")
    lines.append("! check predicted otherwise; ERROR the kernel gave no result")
    return "\n".join(lines)


def markdown(doc):
    rows, cells = grid(doc)
    ks = doc["kernels"]
    lab = labeler(doc)
    out = ["# relocore matrix", "",
           f"{len(doc['objects'])} object(s) on {len(ks)} kernel(s): "
           f"{'PASS' if doc['summary']['pass'] else 'FAIL'}; check predicted "
           f"{doc['summary']['agree']}/{doc['summary']['predicted']} verdicts", "",
           "| program | " + " | ".join(k["name"] for k in ks) + " |",
           "|---|" + "---|" * len(ks)]
    for r in rows:
        cs = []
        for k in ks:
            if k["status"] == "error":
                cs.append("**ERROR**")
                continue
            c = cells.get(r + (k["name"],))
            t = cell_text(c)
            cs.append(f"**{t}**" if c and c["verdict"] in ("failed", "no_result") else t)
        out.append(f"| `{lab(r)}` | " + " | ".join(cs) + " |")
    out += ["", "| kernel | release | arch | result |", "|---|---|---|---|"]
    for k in ks:
        out.append(f"| {k['name']} | {k.get('release') or ''} | {k['arch']} | {summarize(k).replace(chr(10) + '  ', '; ')} |")
    fails = [(k, ob, r) for k in ks for ob in k.get("objects", []) for r in ob["programs"]
             if r["verdict"] in ("failed", "no_result")]
    if fails:
        out += ["", "## Failures", ""]
        for k, ob, r in fails:
            out.append(f"- **{k['name']}** `{lab((ob['object'], r['program']))}` ({r.get('section')}): "
                       f"{r.get('stage')} {r.get('class')} errno {r.get('errno')}: {r.get('message')}")
            for l in r.get("log") or []:
                out.append(f"  - `{l}`")
    return "\n".join(out) + "\n"


HTML_STYLE = """
body{font:14px sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 7px;text-align:center}
th.p,td.p{text-align:left;font-family:monospace}
td.ok{background:#bfe8bf}td.load{background:#d8ecd0}td.no{background:#eee;color:#777}
td.fail{background:#f3b3b3;font-weight:bold}td.err{background:#c99}
td.dis{outline:3px solid #e69b00;outline-offset:-3px}td.c{cursor:pointer}
#detail{white-space:pre-wrap;font-family:monospace;background:#f6f6f6;border:1px solid #ccc;padding:.7em;margin-top:1em;min-height:2em}
"""
HTML_SCRIPT = """
document.querySelectorAll('td.c').forEach(function(td){td.addEventListener('click',function(){
document.getElementById('detail').textContent=td.getAttribute('title');});});
"""


def html_page(doc):
    rows, cells = grid(doc)
    ks = doc["kernels"]
    lab = labeler(doc)
    s = doc["summary"]
    h = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>relocore matrix</title>",
         f"<style>{HTML_STYLE}</style></head><body>",
         "<h1>relocore matrix</h1>",
         f"<p id=\"summary\">{len(doc['objects'])} object(s), {len(ks)} kernel(s): "
         f"<b>{'PASS' if s['pass'] else 'FAIL'}</b>; relocore check predicted {s['agree']} of {s['predicted']} verdicts. "
         "Click a cell for its details.</p>",
         "<table id=\"grid\"><tr><th class=\"p\">program</th>"]
    for k in ks:
        t = f"{k['name']}: {k.get('release') or ''} {k['arch']}\n{summarize(k)}"
        h.append(f"<th title=\"{html.escape(t)}\">{html.escape(k['name'])}</th>")
    h.append("</tr>")
    for r in rows:
        h.append(f"<tr><td class=\"p\">{html.escape(lab(r))}</td>")
        for k in ks:
            if k["status"] == "error":
                h.append(f"<td class=\"c err\" title=\"{html.escape(k['name'] + ': ' + k.get('error', ''))}\">ERROR</td>")
                continue
            c = cells.get(r + (k["name"],))
            if c is None:
                h.append("<td></td>")
                continue
            cls = {"attached": "ok", "loaded": "load", "not_loaded": "no"}.get(c["verdict"], "fail")
            if c.get("agree") is False:
                cls += " dis"
            p = c.get("predicted")
            detail = [f"{lab(r)} ({c.get('section')}) on {k['name']} ({k.get('release')})",
                      f"verdict: {c['verdict']}" + (f" at {c.get('stage')}: {c.get('class')}, errno {c.get('errno')}" if c["verdict"] == "failed" else ""),
                      *([f"message: {c['message']}"] if c.get("message") else []),
                      *([f"tag: {c['tag']}"] if c.get("tag") else []),
                      "check predicted: " + ("not loaded" if p is None else "ok" if p["ok"] else
                                             "; ".join(f"{q.get('kind')}: {q.get('detail')}" for q in p["problems"])),
                      *([f"DISAGREES with the kernel"] if c.get("agree") is False else []),
                      *(["verifier:"] + c["log"] if c.get("log") else [])]
            h.append(f"<td class=\"c {cls}\" title=\"{html.escape(chr(10).join(detail))}\">{html.escape(cell_text(c))}</td>")
        h.append("</tr>")
    h.append("</table><div id=\"detail\"></div>")
    h.append("<p>ok attached; load loaded, not attached (as asked, or it needs an option: --xdp ...); - not loaded (as asked); "
             "upper case: failed, by class; an orange frame: relocore check predicted otherwise.</p>")
    h.append(f"<script>{HTML_SCRIPT}</script></body></html>")
    return "\n".join(h) + "\n"


def finish(doc, a):
    progs = [r for k in doc["kernels"] for ob in k.get("objects", []) for r in ob["programs"]]
    pr = [r for r in progs if r["predicted"] is not None]
    doc["summary"] = {
        "kernels": len(doc["kernels"]), "programs": len(progs),
        "attached": sum(r["verdict"] == "attached" for r in progs),
        "loaded": sum(r["verdict"] == "loaded" for r in progs),
        "failed": sum(r["verdict"] in ("failed", "no_result") for r in progs),
        "errors": sum(k["status"] == "error" for k in doc["kernels"]),
        "predicted": len(pr), "agree": sum(bool(r["agree"]) for r in pr),
        "pass": all(k["status"] == "ok" for k in doc["kernels"]),
    }
    print(table(doc))
    for k in doc["kernels"]:
        print(f"{k['name']}: {summarize(k)}")
    s = doc["summary"]
    print(f"matrix: {'PASS' if s['pass'] else 'FAIL'}: {s['kernels']} kernel(s), "
          f"{s['attached']} attached, {s['loaded']} loaded, {s['failed']} failed, {s['errors']} kernel error(s); "
          f"relocore check predicted {s['agree']}/{s['predicted']}")
    for path, text in ((a.json, lambda: json.dumps(doc, indent=1) + "\n"),
                       (a.markdown, lambda: markdown(doc)), (a.html, lambda: html_page(doc))):
        if path:
            atomic_write(path, text().encode())
    return 0 if s["pass"] else 1


# --- the command ------------------------------------------------------------------

USAGE = """relocore matrix OBJ|BIN... [--kernels NAME,...|all] [--kernel NAME=VMLINUZ[,modules=DIR][,config=FILE][,btf=FILE][,arch=ARCH]]...
                       [LOAD OPTIONS] [--duration S] [--timeout S] [-j N] [--shard K/N]
                       [--json FILE] [--markdown FILE] [--html FILE]
       relocore matrix --list-kernels [--json FILE]
       relocore matrix merge A.json B.json... [--json FILE] [--markdown FILE] [--html FILE]"""


def parse(argv):
    p = argparse.ArgumentParser(prog="relocore matrix", usage=USAGE, add_help=True,
                                description="Boot each kernel named in QEMU and load and attach the objects there "
                                "(relocore run --keep-going), relocore check's offline prediction beside each verdict.")
    p.add_argument("objects", nargs="*", help="BPF objects, or binaries that embed them")
    p.add_argument("--kernels", default=None, help="catalog kernels, comma-separated, or all (default all)")
    p.add_argument("--kernel", action="append", default=[], metavar="NAME=VMLINUZ[,...]",
                   help="a kernel image of your own (modules=DIR: its lib/modules/RELEASE, config=FILE, "
                   "btf=FILE when the image carries none, arch=amd64|arm64|s390x)")
    p.add_argument("--list-kernels", action="store_true", help="the catalog and what is cached")
    p.add_argument("--duration", type=float, default=1, help="seconds each object stays attached (default 1)")
    p.add_argument("--timeout", type=int, default=300, help="seconds a guest may take (default 300)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="guests at a time (default: the cores)")
    p.add_argument("--shard", default=None, help="K/N: only the K-th of N slices of the kernels")
    p.add_argument("--json", default=None, metavar="FILE")
    p.add_argument("--markdown", default=None, metavar="FILE")
    p.add_argument("--html", default=None, metavar="FILE")
    for o in LOAD_OPTS:
        p.add_argument(o, action="append", default=[], dest="lo_" + o[2:].replace("-", "_"), metavar="ARG")
    a = p.parse_args(argv)
    a.load = [x for o in LOAD_OPTS for v in getattr(a, "lo_" + o[2:].replace("-", "_")) for x in (o, v)]
    return a


def cmd_merge(argv):
    p = argparse.ArgumentParser(prog="relocore matrix merge")
    p.add_argument("inputs", nargs="+")
    p.add_argument("--json")
    p.add_argument("--markdown")
    p.add_argument("--html")
    a = p.parse_args(argv)
    doc = None
    for path in a.inputs:
        try:
            d = json.load(open(path))
        except (OSError, ValueError) as e:
            raise BadInput(f"{path}: {e}")
        if d.get("relocore_matrix") != SCHEMA:
            raise BadInput(f"{path}: not a relocore matrix document (schema {SCHEMA})")
        if doc is None:
            doc = d
            continue
        if [o["sha256"] for o in d["objects"]] != [o["sha256"] for o in doc["objects"]] or d["options"] != doc["options"]:
            raise BadInput(f"{path}: other objects or options than {a.inputs[0]}")
        names = {k["name"] for k in doc["kernels"]}
        for k in d["kernels"]:
            if k["name"] in names:
                raise BadInput(f"{path}: kernel {k['name']} is in two documents")
            doc["kernels"].append(k)
    order = {n: i for i, n in enumerate(doc.get("kernel_order", []))}
    doc["kernels"].sort(key=lambda k: order.get(k["name"], len(order)))
    doc.pop("shard", None)
    return finish(doc, a)


def main(argv):
    if argv and argv[0] == "merge":
        return cmd_merge(argv[1:])
    a = parse(argv)
    cat = catalog()
    if a.list_kernels:
        rows = [dict(k, state=catalog_state(k)) for k in cat]
        if a.json:
            atomic_write(a.json, (json.dumps(rows, indent=1) + "\n").encode())
        for k in rows:
            print(f"{k['name']:16} {k['arch']:6} {k['kind']:6} {k['btf']:8} {k['state']}")
        return 0
    if not a.objects:
        raise BadInput("no object given\n" + USAGE)
    if a.duration <= 0 or a.timeout < 30 or a.jobs < 1:
        raise BadInput("--duration must be > 0, --timeout >= 30, -j >= 1")
    relocore = relocore_bin()
    objs = []
    for i, path in enumerate(a.objects):
        if not os.path.isfile(path):
            raise BadInput(f"{path}: no such file")
        r = subprocess.run([relocore, "extract", path, "--list", "--json"], capture_output=True, text=True)
        if r.returncode:
            raise BadInput(r.stderr.strip() or f"{path}: not a BPF object")
        objs.append({"id": f"{i:02d}-{os.path.basename(path)}", "path": os.path.abspath(path),
                     "name": os.path.basename(path), "sha256": sha_files([path])})
    # the kernels
    byname = {k["name"]: k for k in cat}
    if a.kernels in (None, "all"):
        ks = [] if a.kernel and a.kernels is None else [dict(k) for k in cat]
    else:
        ks = []
        for n in a.kernels.split(","):
            if n not in byname:
                raise BadInput(f"no kernel '{n}' in the catalog (relocore matrix --list-kernels: {' '.join(byname)})")
            ks.append(dict(byname[n]))
    for spec in a.kernel:
        k = parse_user_kernel(spec)
        if any(x["name"] == k["name"] for x in ks):
            raise BadInput(f"--kernel {k['name']}: the name is taken")
        ks.append(k)
    order = [k["name"] for k in ks]
    if a.shard:
        m = re.fullmatch(r"(\d+)/(\d+)", a.shard)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            raise BadInput(f"--shard {a.shard}: K/N with 1 <= K <= N")
        kk, nn = int(m.group(1)), int(m.group(2))
        ks = [k for i, k in enumerate(ks) if i % nn == kk - 1]
    # our own kernels are built from relocore's source tree: not there for
    # an installed copy (skipped from "all", an error when named)
    for k in list(ks):
        if k["kind"] == "build" and not os.path.exists(os.path.join(ROOT, k["spec"])):
            if a.kernels not in (None, "all"):
                raise BadInput(f"kernel {k['name']} is built from relocore's source tree ({k['spec']}): "
                               "not in an installed copy")
            say(f"{k['name']}: skipped (built from relocore's source tree, which this copy has not)")
            ks.remove(k)
    if not ks:
        raise BadInput("no kernel to boot")
    need("qemu-system-x86_64" if any(k["arch"] == "amd64" for k in ks) else "true", "qemu-system-x86")
    if any(k["arch"] == "arm64" for k in ks):
        need("qemu-system-aarch64", "qemu-system-arm")
    if any(k["arch"] == "s390x" for k in ks):
        need("qemu-system-s390x", "qemu-system-misc")
    need("file", "file")
    os.makedirs(os.path.join(CACHE, "matrix"), exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="relocore-matrix.")
    accel = "kvm" if os.access("/dev/kvm", os.R_OK | os.W_OK) else "tcg (no usable /dev/kvm: about 5-10x slower)"
    say(f"{len(objs)} object(s) on {len(ks)} kernel(s), {a.jobs} guest(s) at a time, {accel}; logs in {workdir}")
    t0 = time.time()
    doc = {"relocore_matrix": SCHEMA, "objects": [{k: o[k] for k in ("id", "name", "path", "sha256")} for o in objs],
           "options": a.load, "duration": a.duration, "kernel_order": order,
           "shard": a.shard, "kernels": []}
    layers = {}
    futs = {}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs)
    core = None
    try:
        for i, k in enumerate(ks):
            say(f"[{i + 1}/{len(ks)}] {k['name']}: fetching the kernel and its BTF, predicting")
            log = open(os.path.join(workdir, f"{k['name']}.log"), "w")
            try:
                prepare_kernel(k, log)
                if "programs" not in objs[0]:
                    inventory(relocore, objs, k["btf_file"])
                    for opt, val in zip(a.load[::2], a.load[1::2]):
                        if (opt in PROG_OPTS or opt in MAP_OPTS) and not any(opts_for(o, [opt, val]) for o in objs):
                            raise BadInput(f"{opt} {val}: no object has a {'program' if opt in PROG_OPTS else 'map'} "
                                           f"'{val.split('=', 1)[0]}'")
                k["docs"] = predict(relocore, objs, a.load, k, log)
                if core is None:	# has the object CO-RE records? (stock libbpf's load beside)
                    core = {}
                    for o in objs:
                        r = subprocess.run([relocore, "explain", o["path"], "--btf", k["btf_file"], "--json"],
                                           capture_output=True, text=True)
                        core[o["id"]] = any(json.loads(l).get("relocations") for l in r.stdout.splitlines() if l.startswith("{"))
                    obj_layer = objects_layer(objs, a.load, a.duration, core)
                if k["arch"] not in layers:
                    layers[k["arch"]] = base_layer(k["arch"], log)
                k["klayer"] = kernel_layer(k, a.timeout, log)
            except BadInput:
                raise
            except Exception as e:
                log.write(f"{e}\n")
                say(f"{k['name']}: ERROR: {e}")
                doc["kernels"].append({"name": k["name"], "arch": k["arch"], "release": k.get("release"),
                                       "source": "user" if k["kind"] == "user" else "catalog",
                                       "status": "error", "error": str(e), "objects": []})
                continue
            finally:
                log.close()
            f = pool.submit(do_kernel, k, a, objs, layers, obj_layer, workdir)
            f.add_done_callback(lambda f, k=k: say(f"{k['name']}: {summarize(f.result())}"))
            futs[k["name"]] = f
        for n, f in futs.items():
            doc["kernels"].append(f.result())
    finally:
        pool.shutdown(wait=True)
    doc["kernels"].sort(key=lambda k: order.index(k["name"]))
    doc["seconds"] = round(time.time() - t0, 1)
    rc = finish(doc, a)
    boots = [k["boot_seconds"] for k in doc["kernels"] if k.get("boot_seconds")]
    print(f"time: {doc['seconds']}s in all; guests {sum(boots):.0f}s ({len(boots)} booted, "
          f"{min(boots) if boots else 0:.1f}-{max(boots) if boots else 0:.1f}s each)")
    if rc == 0:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"matrix: logs and consoles kept in {workdir}")
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"relocore matrix: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
