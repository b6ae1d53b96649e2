#!/bin/sh
# test/vm/guest-tests.sh - runs INSIDE the QEMU guest (busybox sh), started by
# /init.  Every example object compiled once on the host (/tests/obj) runs
# under `relocore run` with /bin/trigger producing the events it traces and
# writing the ground truth; relocore's decisions for this kernel are recorded
# with `relocore explain --json`; the negative control runs objects that
# were relocated on the host for other kernels (/tests/neg, no CO-RE left);
# the plugin-compiled objects (STOCK below) are also loaded by stock libbpf
# alone (/bin/stockload: libbpf does the CO-RE and .kconfig itself).
# Everything lands in /results; test/vm/check.py judges it on the host.
R=/results
mkdir -p $R/explain $R/run $R/neg $R/stock
read -r NAME </etc/vm-kernel
BTFMODE=$(sed -n 2p /etc/vm-kernel)
if [ "$BTFMODE" = archive ]; then
	BTF=/boot/vmlinux.btf
	BTFARG="--btf $BTF"
elif [ "$BTFMODE" = rcba ]; then
	# no kernel BTF: relocore finds this release in its default archive
	# (/usr/lib/relocore/btf.rcba) by itself; /boot/vmlinux.btf (pahole's,
	# from DWARF) is only the ground truth of the offsets
	BTF=/boot/vmlinux.btf
	BTFARG=
	relocore archive list /usr/lib/relocore/btf.rcba >$R/archive.txt 2>&1
	relocore archive extract /usr/lib/relocore/btf.rcba "$(uname -r)" -o /tmp/min.btf \
		>>$R/archive.txt 2>&1
else
	BTF=/sys/kernel/btf/vmlinux
	BTFARG=
fi
DUR=60
STOCK="taskwatch"	# compiled with the relocore plugin (llvm-pass/examples)
say() { echo "vm: $*" >/dev/console; echo "== $*"; }

ip link set lo up
echo "$NAME" >$R/kernel-name
trigger sysinfo >$R/truth-sys.json
trigger btf $BTF >$R/truth-btf.json
[ -e /sys/kernel/btf/vmlinux ] || touch $R/no-kernel-btf
# the kernel's configuration: its own /proc/config.gz, else the .config its
# package ships (/boot/config, put there by vm/initramfs.sh)
CFGRE='^CONFIG_(PREEMPT_RT|NUMA_BALANCING|DEBUG_INFO_BTF|DYNAMIC_FTRACE_WITH_DIRECT_CALLS)='
if [ -f /proc/config.gz ]; then
	zcat /proc/config.gz | grep -E "$CFGRE" >$R/config.txt
elif [ -f /boot/config ]; then
	grep -E "$CFGRE" /boot/config >$R/config.txt
fi
# the kernel's own BTF, for the host to compare with what it cut from vmlinuz
[ -e /sys/kernel/btf/vmlinux ] && sha256sum /sys/kernel/btf/vmlinux | cut -d' ' -f1 >$R/btf.sha256
uname -m >$R/machine

# trigger mode for an example (its ground-truth workload)
mode_of() {
	case "$1" in
	getpid) echo getpid ;;
	execsnoop) echo exec ;;
	schedstate) echo iowait ;;
	tcpclose) echo tcp ;;
	skbdrop) echo drop ;;
	taskwatch|taskwatch-clang19) echo taskexit ;;
	ksymaddr) echo getpid ;;	# any: sched_switch fires anyway
	*) echo none ;;
	esac
}
trigger_args() { # MODE TRUTHFILE
	case "$1" in
	iowait) echo "iowait $2 /dev/vda" ;;
	drop) echo "drop $2 5" ;;
	*) echo "$1 $2" ;;
	esac
}

# relocore run killed (SIGKILL) at delays across its run - relocating,
# loading, attaching, collecting: nothing of it may stay loaded, attached
# or pinned (bpfls: progs, links, maps, pins), and the next run (getpid's,
# below, checked against ground truth) must work.  kill/N.before is what
# the kernel held just before kill N, kill/N.out what relocore printed
# ("attached" once attached), kill/N.after what it held once the kill was
# done (a prog's id goes with its last reference: up to 2 s allowed);
# test/vm/check.py judges them.  Stops after two kills that landed while
# attached.
KOBJ=/tests/obj/getpid.bpf.o
if [ -x /bin/bpfls ] && [ -f $KOBJ ]; then
	mkdir -p $R/kill
	bpfls | sort >$R/kill/baseline.txt
	t0=$(cut -d' ' -f1 /proc/uptime)
	i=0 att=0
	for d in 0 0.01 0.03 0.06 0.1 0.15 0.2 0.3 0.45 0.7 1 1.5 2.5 4; do
		relocore run $KOBJ --json --duration 30 $BTFARG >$R/kill/$i.out 2>$R/kill/$i.err &
		p=$!
		sleep $d
		bpfls | sort >$R/kill/$i.before
		kill -9 $p
		wait $p 2>/dev/null
		echo "$d $?" >$R/kill/$i.delay
		n=0
		while [ $n -lt 20 ] && ! bpfls | sort | cmp -s - $R/kill/baseline.txt; do
			sleep 0.1
			n=$((n + 1))
		done
		bpfls | sort >$R/kill/$i.after
		grep -q '"attached"' $R/kill/$i.out && att=$((att + 1))
		i=$((i + 1))
		[ $att -ge 2 ] && break
	done
	say "kills: relocore run killed $i times ($att while attached) ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
fi

# the ground truth of ksymaddr's typeless ksyms: the kernel's own kallsyms
grep -E ' (bpf_prog_active|relocore_no_such_symbol)$' /proc/kallsyms >$R/run/kallsyms.txt
for obj in /tests/obj/*.bpf.o; do
	ex=$(basename "$obj" .bpf.o)
	mode=$(mode_of "$ex")
	t0=$(cut -d' ' -f1 /proc/uptime)
	relocore explain "$obj" $BTFARG --json >$R/explain/$ex.json 2>$R/explain/$ex.err
	echo $? >$R/explain/$ex.rc
	# -v: libbpf's own log (stderr) must show no CO-RE work.
	# shellcheck disable=SC2046
	relocore run "$obj" -v --json --duration $DUR $BTFARG -- \
		/bin/trigger $(trigger_args "$mode" $R/run/$ex.truth.json) \
		>$R/run/$ex.out 2>$R/run/$ex.err
	rc=$?
	echo $rc >$R/run/$ex.rc
	if grep -q 'kernel refused' $R/run/$ex.err; then
		# the whole verifier log (relocore run shows a tail only)
		relocore reloc "$obj" --btf $BTF -o /tmp/$ex.reloc.o >/dev/null 2>&1 &&
			vlog /tmp/$ex.reloc.o >$R/run/$ex.verifier.log 2>&1
	fi
	say "$ex: relocore run rc $rc, $(grep -c '"event"' $R/run/$ex.out) events ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
done

# stock_run OBJ DIR STEM [STOCKLOAD ARGS...]: stockload OBJ under the
# trigger of its example; DIR/STEM.{out,err,rc,truth.json}; echoes the rc
stock_run() {
	obj=$1 dir=$2 stem=$3
	shift 3
	# shellcheck disable=SC2046
	stockload "$obj" -v --duration $DUR "$@" -- \
		/bin/trigger $(trigger_args "$(mode_of "${stem%%.*}")" $dir/$stem.truth.json) \
		>$dir/$stem.out 2>$dir/$stem.err
	echo $? | tee $dir/$stem.rc
}

# stock libbpf: the same plugin-compiled object, opened WITHOUT relocore
for ex in $STOCK; do
	obj=/tests/obj/$ex.bpf.o
	[ -f "$obj" ] || continue
	t0=$(cut -d' ' -f1 /proc/uptime)
	# libbpf, given the archive's minimized BTF as btf_custom_path
	STOCKBTF=$BTFARG
	[ "$BTFMODE" = rcba ] && STOCKBTF="--btf /tmp/min.btf"
	# shellcheck disable=SC2086
	rc=$(stock_run "$obj" $R/stock $ex $STOCKBTF)
	say "$ex: stock libbpf rc $rc, $(grep -c '"event"' $R/stock/$ex.out) events ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
done

# baked: relocated and .kconfig-baked on the host for this kernel (relocore
# reloc --kernel-release/--kconfig); stock libbpf loads them with no BTF
mkdir -p $R/baked
for obj in /tests/baked/*.o; do
	[ -f "$obj" ] || continue
	b=$(basename "$obj" .o)		# taskwatch.baked, taskwatch.baked-wrong-5.10.0
	rc=$(stock_run "$obj" $R/baked "$b")
	say "baked $b: stock libbpf rc $rc, $(grep -c '"event"' $R/baked/$b.out) events"
done

# negative control: relocated on the host for another kernel, run here as is
for obj in /tests/neg/*.o; do
	b=$(basename "$obj" .o)		# getpid.for-cloud-6.12
	ex=${b%%.for-*}
	for_k=${b#*.for-}
	[ "$for_k" = "$NAME" ] && continue
	mode=$(mode_of "$ex")
	# shellcheck disable=SC2046
	relocore run "$obj" -v --json --duration $DUR $BTFARG -- \
		/bin/trigger $(trigger_args "$mode" $R/neg/$b.truth.json) \
		>$R/neg/$b.out 2>$R/neg/$b.err
	rc=$?
	echo $rc >$R/neg/$b.rc
	grep -q 'kernel refused' $R/neg/$b.err && vlog "$obj" >$R/neg/$b.verifier.log 2>&1
	say "negative $b: rc $rc, $(grep -c '"event"' $R/neg/$b.out) events"
done
# bench/vm.sh: relocore's open+relocate+load vs libbpf's CO-RE load
nb=$(cat /etc/vm-bench 2>/dev/null || echo 0)
if [ "$nb" -gt 0 ] && [ -z "$BTFARG" ]; then
	say "loadbench: $nb rounds per object"
	loadbench "$nb" /tests/obj/*.bpf.o >$R/bench.txt 2>$R/bench.err
	say "loadbench rc $?"
fi
# the reader's idiom corpus (test/reader; the clang-19 objects, on the
# kernels vm/initramfs.sh gives them to): loaded, not attached, by stock
# libbpf (its own CO-RE) and by relocore run; check.py compares the two
if [ -d /tests/idioms ]; then
	mkdir -p $R/idioms
	t0=$(cut -d' ' -f1 /proc/uptime)
	for obj in /tests/idioms/*.o; do
		b=$(basename "$obj" .o)
		stockload "$obj" --load-only >$R/idioms/$b.stock.out 2>$R/idioms/$b.stock.err
		echo $? >$R/idioms/$b.stock.rc
		relocore run "$obj" --json --no-autoattach '*' --duration 0 --no-maps \
			>$R/idioms/$b.run.out 2>$R/idioms/$b.run.err
		echo $? >$R/idioms/$b.run.rc
	done
	say "idioms: $(ls /tests/idioms | wc -l) objects loaded both ways ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
fi
# program types beyond tracing (test/vm/progtypes; the kernels of
# RC_VM_PROGTYPES): XDP and tc ingress on lo, cgroup_skb egress on the root
# cgroup, counting 3 pings over lo, a task iterator read through, a syscall
# program run once; relocore check's prediction beside each run
if [ -d /tests/progtypes ]; then
	P=/tests/progtypes
	mkdir -p $R/progtypes
	mkdir -p /sys/fs/cgroup
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup 2>$R/progtypes/cgroup2.err
	t0=$(cut -d' ' -f1 /proc/uptime)
	for obj in $P/*.bpf.o; do
		b=$(basename "$obj" .bpf.o)
		d=0 c=
		case "$b" in
		xdpcount) set -- --xdp count_xdp=lo; d=10 c=ping ;;
		cgcount) set -- --cgroup count_egress=/sys/fs/cgroup; d=10 c=ping ;;
		tccount) set -- --tc count_tc=lo:ingress; d=10 c=ping ;;
		*) set -- ;;
		esac
		relocore check "$obj" --btf $BTF --json "$@" >$R/progtypes/$b.check.json 2>$R/progtypes/$b.check.err
		echo $? >$R/progtypes/$b.check.rc
		[ -z "$c" ] || set -- "$@" -- ping -c 3 127.0.0.1
		relocore run "$obj" --json --duration $d $BTFARG "$@" \
			>$R/progtypes/$b.out 2>$R/progtypes/$b.err
		echo $? >$R/progtypes/$b.rc
	done
	say "progtypes: $(ls $P | wc -l) objects run ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
fi
# Debian's libbpf-tools, both ways (vm/tools.sh's layer)
[ -f /tests/tools-guest.sh ] && sh /tests/tools-guest.sh >$R/tools.log 2>&1
say "guest tests finished"
