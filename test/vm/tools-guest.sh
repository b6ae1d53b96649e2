#!/bin/sh
# test/vm/tools-guest.sh - runs INSIDE the QEMU guest (busybox sh), called by
# guest-tests.sh when the image carries Debian's libbpf-tools (vm/tools.sh).
# For every tool of /tests/tools.list, both ways, in the same guest:
#   relocore   `relocore run /tools/bin/TOOL` (the object embedded in the
#              Debian binary, relocated by relocore, loaded by libbpf with no
#              CO-RE left) with the options that stand for what the tool's
#              user space decides (the list's second field); the programs
#              it loaded (name, tag) are in its --json output
#   binary     the Debian binary itself (its own static libbpf does the
#              CO-RE) with the list's arguments; it counts as loaded when it
#              has attached (bpf links or perf events open, their number
#              unchanged for four polls 0.2 s apart) or ended with status 0; the tags of the
#              programs it holds are read from /proc/PID/fdinfo
# A tool with a TRUTH mode also runs once more under relocore with
# /bin/trigger producing its events and writing the ground truth.
# Results: /results/tools/TOOL.{r,b}.{out,err,rc} TOOL.b.state TOOL.b.tags
# TOOL.t.{out,err,rc,truth.json}; test/vm/tools-check.py judges them.
R=/results/tools
mkdir -p $R
BTFARG=
[ "$(sed -n 2p /etc/vm-kernel)" = archive ] && BTFARG="--btf /boot/vmlinux.btf"
say() { echo "vm: $*" >/dev/console; echo "== $*"; }
up() { cut -d' ' -f1 /proc/uptime; }

# fd_count PID: its bpf links and perf events
fd_count() {
	ls -l /proc/"$1"/fd 2>/dev/null | grep -c 'bpf_link\|bpf-link\|perf_event'
}
# prog_tags PID: "tag" of every BPF program it holds, one a line, sorted
prog_tags() {
	for fd in /proc/"$1"/fd/*; do
		case "$(readlink "$fd" 2>/dev/null)" in
		*bpf-prog*) sed -n 's/^prog_tag:[[:space:]]*//p' "/proc/$1/fdinfo/${fd##*/}" ;;
		esac
	done | sort
}

# bin_run TOOL ARGS...: the Debian binary, judged as described above
bin_run() {
	t=$1
	shift
	/tools/bin/"$t" "$@" >$R/$t.b.out 2>$R/$t.b.err </dev/null &
	pid=$!
	state=exited last=-1 stable=0 n=0
	# up to 60 s to load and attach (TCG: the verifier is slow)
	while [ $n -lt 300 ]; do
		usleep 200000
		n=$((n + 1))
		kill -0 $pid 2>/dev/null || break
		cnt=$(fd_count $pid)
		# (not whether it sleeps: a tool that prints what the polling
		# itself does - opensnoop - keeps running)
		if [ "$cnt" -gt 0 ] && [ "$cnt" = "$last" ]; then
			stable=$((stable + 1))
		else
			stable=0
		fi
		last=$cnt
		[ $stable -ge 4 ] && { state=ready; break; }
	done
	if kill -0 $pid 2>/dev/null; then
		[ $state = ready ] || state=timeout
		prog_tags $pid >$R/$t.b.tags
		ls -l /proc/$pid/fd >$R/$t.b.fds 2>&1
		kill -INT $pid 2>/dev/null
		n=0
		while kill -0 $pid 2>/dev/null && [ $n -lt 25 ]; do usleep 200000; n=$((n + 1)); done
		kill -KILL $pid 2>/dev/null
	fi
	wait $pid
	echo $? >$R/$t.b.rc
	echo $state >$R/$t.b.state
}

# trigger_args MODE TRUTHFILE (the modes of /bin/trigger)
trigger_args() {
	case "$1" in
	iowait) echo "iowait $2 /dev/vda" ;;
	*) echo "$1 $2" ;;
	esac
}

# /etc/vm-tools-only (RC_VM_TOOLS=truth|NAME,..., vm/initramfs.sh): only
# these tools of the list
ONLY=
[ -f /etc/vm-tools-only ] && ONLY=" $(tr '\n' ' ' </etc/vm-tools-only)"
wanted() { [ -z "$ONLY" ] || case "$ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
PID_MAX=$(cat /proc/sys/kernel/pid_max)
LIBC=$(ls /lib/*-linux-gnu/libc.so.6 | head -n1)
ntools=$(grep -cv '^[[:space:]]*\(#\|$\)' /tests/tools.list)
[ -z "$ONLY" ] || ntools=$(echo $ONLY | wc -w)
say "tools: $ntools of Debian's libbpf-tools ($(cat /tools/packages | grep -o 'libbpf-tools_[^ ]*')), both ways"
i=0
grep -v '^[[:space:]]*\(#\|$\)' /tests/tools.list | while IFS='|' read -r tool ropts bargs truth _note; do
	tool=$(echo $tool)
	ropts=$(echo $ropts | sed "s|@PID_MAX@|$PID_MAX|g; s|@LIBC@|$LIBC|g")
	bargs=$(echo $bargs)
	truth=$(echo $truth)
	[ "$ropts" = - ] && ropts=
	[ "$bargs" = - ] && bargs=
	[ "$truth" = - ] && truth=
	wanted "$tool" || continue
	i=$((i + 1))
	t0=$(up)
	# shellcheck disable=SC2086
	relocore run /tools/bin/$tool --json --no-maps --duration 0.3 $BTFARG $ropts \
		>$R/$tool.r.out 2>$R/$tool.r.err </dev/null
	echo $? >$R/$tool.r.rc
	# shellcheck disable=SC2086
	bin_run $tool $bargs
	if [ -n "$truth" ] && [ "$(cat $R/$tool.r.rc)" = 0 ]; then
		# shellcheck disable=SC2046,SC2086
		relocore run /tools/bin/$tool --json --duration 30 $BTFARG $ropts -- \
			/bin/trigger $(trigger_args $truth $R/$tool.t.truth.json) \
			>$R/$tool.t.out 2>$R/$tool.t.err </dev/null
		echo $? >$R/$tool.t.rc
	fi
	say "tool $i/$ntools $tool: relocore rc $(cat $R/$tool.r.rc), binary $(cat $R/$tool.b.state) rc $(cat $R/$tool.b.rc)${truth:+, truth $truth rc $(cat $R/$tool.t.rc 2>/dev/null)} ($t0 -> $(up)s)"
done
# the load options given wrong (and right): refused before anything loads
mkdir -p $R/options
grep -v '^[[:space:]]*\(#\|$\)' /tests/tools-options.list | while IFS='|' read -r id tool opts _rest; do
	id=$(echo $id)
	tool=$(echo $tool)
	# shellcheck disable=SC2086
	relocore run /tools/bin/$tool --duration 0.3 --no-maps $BTFARG $opts \
		>$R/options/$id.out 2>$R/options/$id.err </dev/null
	echo $? >$R/options/$id.rc
done
say "tools: $(ls $R/options/*.rc | wc -l) option cases run"
say "tools finished"
