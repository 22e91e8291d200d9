#!/bin/sh
# tests/lab/guest.sh - the lab's scenario, run as the guest's first process
# (tests/lab/init hands over to it) on the host's root, read-only over 9p.
#
# Stacks on the throttled virtio disks (run.sh's DISKS): three dm-linear
# devices with XFS on the bus (the thread's dm-0..2), an LVM LV with ext4,
# dm-crypt with ext4, md RAID0 with XFS and md RAID5 with ext4, ext4 on a
# partition; a buffered dd on each in two cgroup v2 cgroups; one disk slowed for a while through
# QMP.  wbtop (JSON and a recording) runs beside the lab's own readers
# (reader.py: debugfs, io.stat; a tracefs instance read as text); the
# names of the stacks from dmsetup, lvs, mdstat and findmnt.  Everything
# lands in the results share ($1), then the guest powers off.
LOG_TAG=lab-guest
. "$(dirname "$0")/guest_lib.sh"
mkdir -p /run/lock/lvm /run/cryptsetup /run/mdadm
guest_modules virtio_blk dm_mod dm_crypt raid0 raid456 xfs ext4 xts aesni_intel algif_skcipher
echo "+memory +io" > /sys/fs/cgroup/cgroup.subtree_control || fail=1
mkdir /sys/fs/cgroup/labA /sys/fs/cgroup/labB
echo 67108864 > /proc/sys/vm/dirty_bytes
echo 16777216 > /proc/sys/vm/dirty_background_bytes

LVMCONF='activation{udev_sync=0 udev_rules=0 monitoring=0} devices{obtain_device_list_from_udev=0 use_devicesfile=0} backup{backup=0 archive=0} global{locking_dir="/run/lock/lvm"}'

# the thread: three dm-linear devices on the bus, XFS on each
i=0
for s in vda vdb vdc; do
	d=$(disk $s)
	run dmsetup create "thread$i" --table "0 $(blockdev --getsz "$d") linear $d 0"
	run mkfs.xfs -f -q "/dev/mapper/thread$i"
	mkdir -p "/mnt/thread$i"
	run mount "/dev/mapper/thread$i" "/mnt/thread$i"
	i=$((i + 1))
done
# LVM: a VG on one disk, an LV with ext4
run lvm pvcreate --config "$LVMCONF" -ff -y "$(disk vdd)"
run lvm vgcreate --config "$LVMCONF" labvg "$(disk vdd)"
run lvm lvcreate --config "$LVMCONF" -y -Zn -n lablv -L 240M labvg
run dmsetup mknodes
run mkfs.ext4 -q -F /dev/mapper/labvg-lablv
mkdir -p /mnt/lv && run mount /dev/mapper/labvg-lablv /mnt/lv
# dm-crypt (LUKS2, pbkdf2 so the key setup is quick under TCG), ext4
printf labkey > /run/key
run cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
	--key-file /run/key "$(disk vde)"
run cryptsetup open --key-file /run/key "$(disk vde)" labcrypt
run mkfs.ext4 -q -F /dev/mapper/labcrypt
mkdir -p /mnt/crypt && run mount /dev/mapper/labcrypt /mnt/crypt
# md RAID0 with XFS, RAID5 with ext4 (assume-clean: no resync traffic)
run mdadm --create /dev/md0 --run --quiet --level=0 --raid-devices=2 --name=labr0 \
	"$(disk vdf)" "$(disk vdg)"
run mdadm --create /dev/md1 --run --quiet --level=5 --raid-devices=3 --assume-clean \
	--name=labr5 "$(disk vdh)" "$(disk vdi)" "$(disk vdj)"
run mkfs.xfs -f -q /dev/md0
run mkfs.ext4 -q -F /dev/md1
mkdir -p /mnt/r0 /mnt/r5
run mount /dev/md0 /mnt/r0
run mount /dev/md1 /mnt/r5
# a partition: ext4 on vdk1 (its page cache is its disk's BDI's)
P=$(disk vdk)
# one Linux partition from sector 2048 to the end, as an MBR (no fdisk needed)
run python3 -c 'import os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
n = os.lseek(fd, 0, os.SEEK_END) // 512
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, bytes(3), 0x83, bytes(3), 2048, n - 2048)
mbr[510:512] = b"\x55\xaa"
os.pwrite(fd, bytes(mbr), 0)
os.fsync(fd)' "$P"
run blockdev --rereadpt "$P"
run mkfs.ext4 -q -F "${P}1"
mkdir -p /mnt/part && run mount "${P}1" /mnt/part
sync

# the names, as the tools of each stack say them
{
	echo "## dmsetup"; dmsetup info -c --noheadings -o name,major,minor --separator ' '
	echo "## lvs"; lvm lvs --config "$LVMCONF" --noheadings -o vg_name,lv_name,lv_kernel_major,lv_kernel_minor 2>/dev/null
	echo "## mdstat"; cat /proc/mdstat
	for m in /sys/block/md*; do echo "md ${m##*/} $(cat "$m/dev") $(mdadm --detail --export "/dev/${m##*/}" | sed -n 's/^MD_NAME=//p')"; done
	echo "## findmnt"; findmnt -rn -o MAJ:MIN,TARGET,FSTYPE,SOURCE
	echo "## sysfs"
	for b in /sys/block/*; do
		n=${b##*/}
		echo "dev $n $(cat "$b/dev") dm=$(cat "$b/dm/name" 2>/dev/null) holders=$(ls "$b/holders" | tr '\n' ,) slaves=$(ls "$b/slaves" | tr '\n' ,)"
		for p in "$b/$n"*; do
			[ -f "$p/partition" ] && echo "dev ${p##*/} $(cat "$p/dev") disk=$n"
		done
	done
} > "$OUT/names.txt" 2>&1
for e in balance_dirty_pages bdi_dirty_ratelimit; do
	cp "/sys/kernel/tracing/events/writeback/$e/format" "$OUT/format.$e"
done
ls /sys/class/bdi/*/ > "$OUT/bdi-knobs.txt" 2>&1

# the lab's own readers: a tracefs instance read as text, debugfs and io.stat
T=/sys/kernel/tracing/instances/labtrace
mkdir "$T"
echo mono > "$T/trace_clock"
echo 8192 > "$T/buffer_size_kb"
echo 1 > "$T/events/writeback/balance_dirty_pages/enable"
echo 1 > "$T/events/writeback/bdi_dirty_ratelimit/enable"
# flusher passes: each cgroup's pages written, and when its passes ran
echo 1 > "$T/events/writeback/writeback_start/enable"
echo 1 > "$T/events/writeback/writeback_written/enable"
cat "$T/trace_pipe" > /tmp/trace.txt &
TRACE_PID=$!
python3 "$LAB/reader.py" "$OUT" /tmp/reader.jsonl /tmp/reader.stop &
READER_PID=$!
sleep 3

# The exporter (wbtop --listen) beside it, from before the writers to after them: its
# counters since its start are checked against the lab's trace (check.py, check_exporter).
ip link set lo up 2>/dev/null || busybox ifconfig lo 127.0.0.1 up
"$WBTOP" --listen 127.0.0.1:9850 -d 1 --listen-top 20 2> "$OUT/exporter.err" &
EXP_PID=$!
scrape() { curl -s -f -o "$1" http://127.0.0.1:9850/metrics; }
i=0
until scrape /tmp/exporter.0 || [ $i -gt 150 ]; do i=$((i + 1)); sleep 0.2; done

N=${LAB_INTERVALS:-24}
"$WBTOP" -b -d 1 --format json -n "$N" -o /tmp/wbtop.json -w /tmp/wbtop.db 2> "$OUT/wbtop.err" &
WBTOP_PID=$!
# From wbtop's first interval on (its start, blkid probing every device, is
# slow enough under ptrace), strace records what the kernel answered to each
# of its reads, at the instant it read: check.py's gauges are checked
# against the debugfs text wbtop itself got.  The writers start once it is
# attached.
until [ -s /tmp/wbtop.json ] || ! kill -0 $WBTOP_PID 2>/dev/null; do sleep 0.2; done
# Only these paths are printed (formatting every read, the trace's binary
# pages among them, stretched wbtop's 1 s intervals to 7 s under TCG): each
# debugfs wb_stats (its text), the bdi directories (the listing and opens of
# a sample's debugfs reads: wbtop drained its trace just before; it lists the
# directory every sample, reads a device's files only when it may have
# moved) and the last knob file wbtop reads before draining.
set --
for b in /sys/kernel/debug/bdi/*:*; do
	set -- "$@" -P "$b"
	[ -e "$b/wb_stats" ] && set -- "$@" -P "$b/wb_stats"
done
strace -f -p $WBTOP_PID -ttt -y -s 4096 -e trace=openat,read,getdents64 -e signal=none \
	-P /sys/kernel/debug/bdi -P /proc/sys/vm/dirtytime_expire_seconds "$@" \
	-o /tmp/wbtop.strace 2> "$OUT/strace.err" &
STRACE_PID=$!
until grep -q '^TracerPid:[[:space:]]*[1-9]' /proc/$WBTOP_PID/status 2>/dev/null ||
	! kill -0 $WBTOP_PID 2>/dev/null; do sleep 0.1; done
sleep 1
writer() { # cgroup dir MiB seconds
	sh -c 'echo $$ > /sys/fs/cgroup/'"$1"'/cgroup.procs; exec timeout '"$4"' dd if=/dev/zero of='"$2"'/f bs=1M count='"$3"' status=none' &
	WRITERS="$WRITERS $!"
}
WRITERS=
# the thread: one writer a dm device on the shared bus, dm-1's disk slowed a while
writer labA /mnt/thread0 280 10
writer labA /mnt/thread1 280 10
writer labB /mnt/thread2 280 10
sleep 3
echo "vdb 2097152 4" > "$OUT/slow.1.tmp" && mv "$OUT/slow.1.tmp" "$OUT/slow.1"
wait $WRITERS
WRITERS=
# the other stacks
writer labB /mnt/lv 220 9
writer labA /mnt/crypt 250 9
writer labB /mnt/r0 500 9
writer labA /mnt/r5 350 9
writer labB /mnt/part 150 9
wait $WRITERS
wait "$WBTOP_PID" || { log "wbtop failed: $(cat "$OUT/wbtop.err")"; fail=1; }
# two more of the exporter's samples: a row that came in takes its counts a sample later
sleep 2.5
scrape "$OUT/exporter.txt" || log "the exporter did not answer: $(cat "$OUT/exporter.err")"
kill -TERM "$EXP_PID"
wait "$EXP_PID" || { log "wbtop --listen failed: $(cat "$OUT/exporter.err")"; fail=1; }
wait "$STRACE_PID"
touch /tmp/reader.stop
wait "$READER_PID"
sleep 0.5
kill "$TRACE_PID"
wait
cat /sys/fs/cgroup/labA/io.stat /sys/fs/cgroup/labB/io.stat > "$OUT/io.stat.end"
# The process pane (check.py): a buffered writer on a dm-linear XFS, an
# O_DIRECT one on the LV in labB.  Each is named by its device in the rows
# where it writes; the O_DIRECT one's rows, times each interval's dt (from
# the recording), add up to what labB's io.stat counts on the LV over its
# life: it starts after wbtop's first table and is killed two tables before
# wbtop ends (its last interval from the exit record, an X row).  Room
# first: the LV is nearly full.
rm -f /mnt/thread1/f /mnt/lv/f
sync
"$WBTOP" -b -P -d 1 -n 8 -w /tmp/procs.db > "$OUT/procs.txt" 2> "$OUT/procs.err" &
P_PID=$!
ptables() { grep -c '^procs' "$OUT/procs.txt" 2>/dev/null; }
until [ "$(ptables)" -ge 1 ] || ! kill -0 $P_PID 2>/dev/null; do sleep 0.2; done
cat /sys/fs/cgroup/labB/io.stat > "$OUT/procs.io.0"
: > "$OUT/procs.pids"
dd if=/dev/zero of=/mnt/thread1/p bs=1M count=150 status=none &
echo "$! /mnt/thread1 -" >> "$OUT/procs.pids"
WRITERS=$!
sh -c 'echo $$ > /sys/fs/cgroup/labB/cgroup.procs; exec dd if=/dev/zero of=/mnt/lv/p bs=1M count=150 oflag=direct status=none' &
echo "$! /mnt/lv labB" >> "$OUT/procs.pids"
WRITERS="$WRITERS $!"
until [ "$(ptables)" -ge 6 ] || ! kill -0 $P_PID 2>/dev/null; do sleep 0.2; done
kill $WRITERS 2>/dev/null
wait $WRITERS
WRITERS=
cat /sys/fs/cgroup/labB/io.stat > "$OUT/procs.io.1"
wait $P_PID || { log "wbtop -P failed: $(cat "$OUT/procs.err")"; fail=1; }
cp /tmp/procs.db "$OUT/procs.db"
# a BDI knob of 6.2+ (strict_limit, at its default 0): absent on 6.1, said so
"$WBTOP" --set bdi:thread0:strict_limit=0 > "$OUT/knobset.txt" 2>&1
echo "rc=$?" >> "$OUT/knobset.txt"
cp /tmp/wbtop.json /tmp/reader.jsonl /tmp/trace.txt /tmp/wbtop.db /tmp/wbtop.strace "$OUT/"
log "scenario done, fail=$fail"
finish
