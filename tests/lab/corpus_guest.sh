#!/bin/sh
# tests/lab/corpus_guest.sh - the dip detector's lab corpus (make dips-lab), run as the lab
# guest's first process in place of guest.sh (tests/lab/run.sh, LAB_SCRIPT).
#
# The thread's set-up: three dm-linear devices with XFS on disks sharing one throttled bus
# (run.sh's vda-vdc), buffered dd writers in a cgroup v2 cgroup. Scenarios: the thread's
# experiment at vm.dirty_ratio 40 and 10, and steady writers with one disk slowed through QMP
# (slow.N files, qmp.py) at known times, depths and lengths; each at 1 s and 5 s intervals,
# recorded by wbtop (-b -q -w). qmp.py polls every disk's true writes meanwhile; clock
# handshakes (sync.N/ack.N) place them on the guest's clock. tests/dips/lab_labels.py labels.
LOG_TAG=lab-corpus
. "$(dirname "$0")/guest_lib.sh"
guest_modules virtio_blk dm_mod xfs
echo "+memory +io" > /sys/fs/cgroup/cgroup.subtree_control || fail=1
mkdir /sys/fs/cgroup/labA

# Requests of 64 KiB at most (CORPUS_SECTORS_KB), set before the dm devices take their limits
# from the disks. The thread's disks wrote small requests (its iostat: some 31000 a second on
# each dm device, 8 KiB each); at the kernel's default a disk here writes 4-5 requests of
# 1.2 MiB a second, and a request late by the interval's edge is a quarter of the interval:
# counting noise no rule can tell from a dip. At 64 KiB an interval of 1 s holds some 80 at
# the kernel checks' bus (16 MiB/s) and some 250 at make dips-lab's (48 MiB/s).
for s in vda vdb vdc; do
	d=$(disk $s)
	echo "${CORPUS_SECTORS_KB:-64}" > "/sys/block/${d##*/}/queue/max_sectors_kb" || fail=1
	log "$s: max_sectors_kb $(cat "/sys/block/${d##*/}/queue/max_sectors_kb")"
done
i=0
for s in vda vdb vdc; do
	d=$(disk $s)
	run dmsetup create "thread$i" --table "0 $(blockdev --getsz "$d") linear $d 0"
	run mkfs.xfs -f -q "/dev/mapper/thread$i"
	mkdir -p "/mnt/thread$i"
	run mount "/dev/mapper/thread$i" "/mnt/thread$i"
	i=$((i + 1))
done
# which dm device is on which disk, for the labels
for i in 0 1 2; do
	echo "thread$i $(cat /sys/block/dm-$i/dm/name 2>/dev/null) dm-$i $(ls /sys/block/dm-$i/slaves)"
done > "$OUT/corpus-devices.txt"
for s in vda vdb vdc; do echo "disk $(disk $s) $s"; done >> "$OUT/corpus-devices.txt"

# sync_clock N: one handshake with the host (qmp.py): the guest's time now in sync.N, the
# host's in ack.N, both written down with when the guest saw the ack.
SYNC=0
sync_clock() {
	n=$SYNC
	SYNC=$((SYNC + 1))
	date +%s%N > "$OUT/sync.$n.tmp" && mv "$OUT/sync.$n.tmp" "$OUT/sync.$n"
	k=0
	while [ ! -e "$OUT/ack.$n" ] && [ $k -lt 500 ]; do sleep 0.02; k=$((k + 1)); done
	[ -e "$OUT/ack.$n" ] && echo "$n $(date +%s%N) $(cat "$OUT/ack.$n")" >> "$OUT/acks.txt"
}

WRITERS=
# writer DIR SECONDS: a buffered dd in labA rewriting 200 MiB in DIR for SECONDS
writer() {
	sh -c 'echo $$ > /sys/fs/cgroup/labA/cgroup.procs; end=$(($(date +%s) + '"$2"'))
	while [ $(date +%s) -lt $end ]; do
		timeout $((end - $(date +%s) + 1)) dd if=/dev/zero of='"$1"'/f bs=1M count=200 conv=notrunc status=none
	done' &
	WRITERS="$WRITERS $!"
}
# slow DISK DEPTH_PCT SECONDS: the disk held to DEPTH percent below its share of the bus
# (BUS_BPS / 3, from run.sh) for SECONDS; 95 is a near-stop (0 would mean no limit to QMP)
SLOW=0
slow() {
	bps=$((BUS_BPS / 3 * (100 - $2) / 100))
	echo "$1 $bps $3" > "$OUT/slow.$SLOW.tmp" && mv "$OUT/slow.$SLOW.tmp" "$OUT/slow.$SLOW"
	echo "$SLOW $1 $2 $3 $(date +%s%N)" >> "$OUT/slows.txt"
	SLOW=$((SLOW + 1))
}

# scenario NAME INTERVAL SECONDS: wbtop records SECONDS of the machine at INTERVAL s; the
# writers start after two intervals (the caller's, with WORK); the scenario ends with them
# and a flush.
scenario() {
	name=$1 dt=$2 secs=$3
	log "scenario $name"
	for i in 0 1 2; do rm -f /mnt/thread$i/f; done
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sync_clock
	"$WBTOP" -b -q -d "$dt" -n $((secs / dt)) -w "/tmp/$name.db" > /dev/null 2> "$OUT/$name.err" &
	wb=$!
	sleep $((2 * dt))
	echo "$name start $(date +%s%N)" >> "$OUT/scenarios.txt"
}
scenario_end() {
	wait $WRITERS
	echo "$name writers_end $(date +%s%N)" >> "$OUT/scenarios.txt"
	WRITERS=
	wait $wb || { log "wbtop failed in $name: $(cat "$OUT/$name.err")"; fail=1; }
	echo "$name end $(date +%s%N)" >> "$OUT/scenarios.txt"
	sync_clock
	cp "/tmp/$name.db" "$OUT/$name.db"
	sync
}

# the thread's experiment: one writer a device, the dirty ratio as in the thread
thread() { # NAME RATIO INTERVAL SECONDS
	echo "$2" > /proc/sys/vm/dirty_ratio
	echo 10 > /proc/sys/vm/dirty_background_ratio
	scenario "$1" "$3" "$4"
	for i in 0 1 2; do writer /mnt/thread$i $(($4 - 4 * $3)); done
	scenario_end
}
# steady writers at dirty_ratio 10, one disk at a time slowed: each depth at each length
inject() { # NAME INTERVAL SECONDS GAP
	iname=$1 idt=$2 isecs=$3 igap=$4
	iend=$(($(date +%s) + isecs))
	echo 10 > /proc/sys/vm/dirty_ratio
	echo 5 > /proc/sys/vm/dirty_background_ratio
	scenario "$iname" "$idt" "$isecs"
	for i in 0 1 2; do writer /mnt/thread$i $((isecs - 3 * idt)); done
	sleep $((3 * idt))
	n=0
	# each depth at each length, in this order, or shuffled by CORPUS_SEED (a corpus recorded
	# later is not the same schedule again)
	evs="25:2 60:1 40:3 95:2 25:5 40:1 60:3 95:1 40:5 25:1 60:5 95:3 25:3 40:2 60:2 95:5"
	[ -z "${CORPUS_SEED:-}" ] || evs=$(echo "$evs" | tr ' ' '\n' |
		awk -v seed="$CORPUS_SEED" 'BEGIN { srand(seed) } { print rand(), $0 }' | sort -n | cut -d' ' -f2)
	for ev in $evs; do
		set -- $(echo "$ev" | tr : ' ')
		[ "$(date +%s)" -lt "$((iend - 3 * idt - $2 - igap))" ] || break
		case $n in 0) d=vda ;; 1) d=vdb ;; *) d=vdc ;; esac
		n=$(((n + 1) % 3))
		slow $d "$1" "$2"
		sleep $(($2 + igap))
	done
	scenario_end
}

sync_clock
for s in ${CORPUS_SCENARIOS:-thread40_d1 thread10_d1 inject_d1 thread40_d5 thread10_d5 inject_d5}; do
	case $s in
	thread40_d1) thread $s 40 1 60 ;;
	thread10_d1) thread $s 10 1 60 ;;
	inject_d1) inject $s 1 150 6 ;;
	thread40_d5) thread $s 40 5 150 ;;
	thread10_d5) thread $s 10 5 150 ;;
	inject_d5) inject $s 5 200 7 ;;
	esac
done
log "corpus done, fail=$fail"
finish
