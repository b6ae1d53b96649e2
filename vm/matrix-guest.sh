# vm/matrix-guest.sh - /tests/guest-tests.sh of a `relocore matrix` guest
# (busybox sh; /init, vm/init.sh, runs it and hands /results out).
#
# For each object in /matrix/obj (the user's, as given), in name order:
#   relocore run OBJ --keep-going --json --duration D [--btf ...] OPTIONS
# (OPTIONS: /matrix/options/NAME, one argument a line: the load options
# the user gave `relocore matrix` that concern this object), its stdout, stderr and exit status in
# /results/matrix/NAME.run.{json,err,rc}; and where /bin/stockload is
# there and the object has CO-RE records, stock libbpf's own load of the
# unrelocated object (--load-only) in NAME.stock.{json,err,rc}.
R=/results/matrix
mkdir -p $R
say() { echo "vm: $*" >/dev/console 2>/dev/null || echo "vm: $*"; }
D=$(cat /matrix/duration 2>/dev/null || echo 1)
# the kernel exports no BTF: relocore gets it from the image
SB=
[ -s /boot/vmlinux.btf ] && [ ! -e /sys/kernel/btf/vmlinux ] && SB="--btf /boot/vmlinux.btf"
# what XDP, tc and cgroup programs are commonly attached to
ip link set lo up 2>/dev/null
mkdir -p /sys/fs/cgroup
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
n=0
for obj in /matrix/obj/*; do
	[ -f "$obj" ] || continue
	b=${obj##*/}
	t0=$(cut -d' ' -f1 /proc/uptime)
	set -- $SB
	while IFS= read -r a; do set -- "$@" "$a"; done <"/matrix/options/$b"
	relocore run "$obj" --keep-going --json --duration "$D" "$@" >$R/$b.run.json 2>$R/$b.run.err </dev/null
	echo $? >$R/$b.run.rc
	if [ -x /bin/stockload ] && [ -s /matrix/core/$b ]; then
		stockload "$obj" --load-only $SB >$R/$b.stock.json 2>$R/$b.stock.err </dev/null
		echo $? >$R/$b.stock.rc
	fi
	say "matrix: $b: relocore run rc $(cat $R/$b.run.rc) ($t0 -> $(cut -d' ' -f1 /proc/uptime)s)"
	n=$((n + 1))
done
uname -r >$R/uname
say "matrix: $n object(s) run"
