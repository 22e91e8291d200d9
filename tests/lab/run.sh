#!/bin/sh
# tests/lab/run.sh - make check-kernels: boot Debian 12's kernels under qemu
# and check wbtop's figures on each against independent readings.
#
# Each kernel (tools/deps.sh lab fetches them) boots once under qemu (TCG,
# 2 CPUs, 1 GiB) from a small initramfs made here, with the host's root
# read-only over 9p and a results share.  The guest (guest.sh) builds
# dm-linear, LVM, dm-crypt and md RAID0/RAID5 stacks on throttled virtio
# disks, runs writers in cgroup v2 cgroups, wbtop and its own readers;
# qmp.py records each disk's true writes from the host; check.py compares.
#
#   sh tests/lab/run.sh            as root, after sh tools/deps.sh lab
#   LAB_KERNELS=6.12 sh tests/lab/run.sh    only the kernels matching
#   WBTOP=path  LAB_RESULTS=dir (default build/lab)
#   LAB_SCRIPT=corpus_guest.sh LAB_CHECK=none   the dip corpus instead (make dips-lab)
# Exit 0 when every check passed on every kernel.
set -u
LAB=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$LAB/../.." && pwd)
WBTOP=${WBTOP:-$TOP/wbtop}
RESULTS=${LAB_RESULTS:-$TOP/build/lab}
SCRIPT=${LAB_SCRIPT:-guest.sh}
CHECK=${LAB_CHECK:-check.py}

if [ "$(id -u)" != 0 ]; then
	echo "lab: needs root (qemu's 9p share of / and the kernels' cache)" >&2
	exit 1
fi
for t in qemu-system-x86_64 busybox python3 modprobe xz strace blockdev; do
	command -v $t >/dev/null 2>&1 || { echo "lab: no $t: run sh tools/deps.sh lab" >&2; exit 1; }
done
[ -x "$WBTOP" ] || { echo "lab: no wbtop at $WBTOP (make wbtop)" >&2; exit 1; }
set -- $(sh "$TOP/tools/deps.sh" lab-kernels)
CACHE=$1
shift
KERNELS="$*"

TMP=$(mktemp -d /var/tmp/wbtop-lab.XXXXXX) || exit 1
QEMU_PID= POLL_PID=
cleanup() {
	[ -n "$QEMU_PID" ] && kill "$QEMU_PID" 2>/dev/null
	[ -n "$POLL_PID" ] && kill "$POLL_PID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The initramfs: busybox, init and the modules that mount 9p, in the order
# modprobe would load them, uncompressed (busybox insmod takes plain .ko).
make_initrd() { # kernel-dir version out
	d=$TMP/initrd
	rm -rf "$d"
	mkdir -p "$d/bin" "$d/mod" "$d/proc" "$d/sys" "$d/dev"
	cp /bin/busybox "$d/bin/busybox"
	cp "$LAB/init" "$d/init"
	chmod 755 "$d/init"
	: > "$d/modules.list"
	for m in virtio_pci virtio_blk 9pnet_virtio 9p; do
		modprobe -d "$1" -S "$2" --show-depends "$m"
	done |
		awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r m; do
		b=$(basename "$m")
		case $b in
		*.xz) xz -dc "$m" > "$d/mod/${b%.xz}"; b=${b%.xz} ;;
		*) cp "$m" "$d/mod/$b" ;;
		esac
		echo "$b" >> "$d/modules.list"
	done
	(cd "$d" && find . | busybox cpio -o -H newc 2>/dev/null) > "$3"
}

# Disks: name size-MiB per-disk write limit (bytes/s) and whether it sits on
# the shared bus (the thread's three dm devices behind one PCI-X bus).
# The three on the bus write LAB_DISK_BPS each at most, LAB_BUS_BPS together (the dip corpus,
# make dips-lab, runs them faster than the kernel checks do).
DISK_BPS=${LAB_DISK_BPS:-8388608}
BUS_BPS=${LAB_BUS_BPS:-16777216}
DISKS="vda:320:$DISK_BPS:bus vdb:320:$DISK_BPS:bus vdc:320:$DISK_BPS:bus
vdd:320:6291456:- vde:320:6291456:- vdf:320:4194304:- vdg:320:4194304:-
vdh:200:4194304:- vdi:200:4194304:- vdj:200:4194304:- vdk:200:4194304:-"

rc=0
ran=0
for k in $KERNELS; do
	# LAB_KERNELS=6.1 is 6.1.x alone, not 6.12 as well
	[ -z "${LAB_KERNELS:-}" ] || case $k in *-"$LAB_KERNELS"[.+-]*) ;; *) continue ;; esac
	kdir=$CACHE/$k
	if [ ! -d "$kdir/boot" ]; then
		echo "lab: $k is not in $CACHE: run sh tools/deps.sh lab" >&2
		exit 1
	fi
	ver=$(ls "$kdir/lib/modules")
	out=$RESULTS/$ver
	make_initrd "$kdir" "$ver" "$TMP/initrd.img" || exit 1
	# A guest whose kernel panics before the scenario has started wbtop (an Oops
	# in TCG's emulation while modules load, seen once in a dozen boots) is
	# booted once more, and says so; a panic after it is the lab's failure.
	for attempt in 1 2; do
	rm -rf "$out"
	mkdir -p "$out"
	cat > "$out/env" <<-ENV
	WBTOP=$WBTOP
	KDIR=$kdir
	KVER=$ver
	LAB=$LAB
	CORPUS_SCENARIOS='${CORPUS_SCENARIOS:-}'
	CORPUS_SECTORS_KB='${CORPUS_SECTORS_KB:-}'
	CORPUS_SEED='${CORPUS_SEED:-}'
	BUS_BPS=$BUS_BPS
	ENV
	set -- -object "throttle-group,id=bus,x-bps-write=$BUS_BPS"
	for spec in $DISKS; do
		IFS=: read -r name size bps bus <<-S
		$spec
		S
		rm -f "$TMP/$name.raw"
		truncate -s "${size}M" "$TMP/$name.raw"
		top=t_$name
		set -- "$@" -object "throttle-group,id=g_$name,x-bps-write=$bps" \
			-blockdev "driver=file,node-name=f_$name,filename=$TMP/$name.raw" \
			-blockdev "driver=raw,node-name=r_$name,file=f_$name" \
			-blockdev "driver=throttle,node-name=t_$name,throttle-group=g_$name,file=r_$name"
		if [ "$bus" = bus ]; then
			set -- "$@" -blockdev "driver=throttle,node-name=b_$name,throttle-group=bus,file=t_$name"
			top=b_$name
		fi
		set -- "$@" -device "virtio-blk-pci,id=$name,drive=$top,serial=$name"
	done
	echo "lab: $ver: booting (results in $out)"
	start=$(date +%s)
	timeout ${LAB_TIMEOUT:-600} qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m 1024 \
		-nographic -nic none -no-reboot -serial "file:$out/console.log" -monitor none \
		-kernel "$kdir/boot/vmlinuz-$ver" -initrd "$TMP/initrd.img" \
		-append "console=ttyS0 panic=-1 quiet tsc=unstable lab.script=$LAB/$SCRIPT lab.out=$out" \
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
		-virtfs "local,path=$out,mount_tag=results,security_model=none,multidevs=remap" \
		-qmp "unix:$TMP/qmp.sock,server=on,wait=off" \
		"$@" > "$out/qemu.log" 2>&1 &
	QEMU_PID=$!
	python3 "$LAB/qmp.py" "$TMP/qmp.sock" "$out" 2> "$out/qmp.log" &
	POLL_PID=$!
	wait "$QEMU_PID"
	QEMU_PID=
	wait "$POLL_PID"
	POLL_PID=
	rm -f "$TMP"/*.raw
	echo "lab: $ver: guest done in $(( $(date +%s) - start )) s"
	if [ ! -f "$out/done" ] && [ "$attempt" = 1 ] && grep -q "Kernel panic" "$out/console.log" &&
	   ! grep -q "lab-guest: scenario\|lab-corpus: scenario" "$out/console.log" &&
	   [ ! -e "$out/wbtop.err" ]; then
		echo "lab: $ver: the guest's kernel panicked before the scenario started; booting it again:" >&2
		grep -m 3 "Oops\|Kernel panic\|RIP:" "$out/console.log" >&2
		continue
	fi
	break
	done
	ran=$((ran + 1))
	if [ ! -f "$out/done" ]; then
		echo "lab: $ver: the scenario did not finish; the console's end:" >&2
		tail -n 30 "$out/console.log" >&2
		rc=1
		continue
	fi
	[ "$CHECK" = none ] || python3 "$LAB/$CHECK" "$out" || rc=1
done
[ "$ran" -gt 0 ] || { echo "lab: no kernel matches LAB_KERNELS=${LAB_KERNELS:-}" >&2; exit 1; }
exit $rc
