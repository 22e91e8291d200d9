#!/bin/sh
# The labelled live corpus of the dip detector (make dips-eval).
#
# Three filesystems on loop devices, ext4, XFS and ext4 (the two of the
# regressions wbtop is for), direct I/O to their backing files (so that a
# device's write rate follows its writer), one writer each:
# pv -L RATE into a FIFO, dd oflag=direct from it.  While wbtop records
# (-b -q -w, -d 1), drops of known depth and length are injected
# into the running writers (pv -R PID -L RATE; SIGSTOP for a full stop) and
# written down with their wall-clock times.  tests/dips/score.py then
# compares wbtop's marks with them: per scenario the drops found and missed
# and the false marks per 100 steady device-intervals.
#
# Usage: sh tests/dips/corpus.sh [WBTOP]   (as root; DIPS_ONLY=name runs one
# scenario; DIPS_KEEP=DIR keeps the recordings and their exports there, for
# tests/dips/rejudge.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
WBTOP=${1:-$root/wbtop}
[ "$(id -u)" = 0 ] || { echo "SKIP: dips-eval needs root (loop devices, filesystems)"; exit 77; }
for c in pv losetup mkfs.ext4 mkfs.xfs python3; do
	command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }
done
[ -x "$WBTOP" ] || { echo "dips-eval: $WBTOP: not built" >&2; exit 2; }

# on_exit and save_dirty_knobs (the dirty limits put back at exit, whatever
# the exit)
E2E_LIB=$root/tests/e2e/lib.sh
. "$E2E_LIB"
WORK=$(mktemp -d /var/tmp/wbtop-i16-dips.XXXXXX)
OUT=${DIPS_KEEP:-$WORK/out}
mkdir -p "$OUT"
trap 'eval "$CLEANUPS"; rm -rf "$WORK" "$TMP"' EXIT
save_dirty_knobs

now() { date +%s.%N; }
# Sleep until T seconds after the wall-clock time T0 (fractions allowed).
sleep_until() {
	d=$(awk -v t0="$1" -v t="$2" -v n="$(now)" 'BEGIN { d = t0 + t - n; print (d > 0 ? d : 0) }')
	sleep "$d"
}

# The three filesystems, made once and shared by the scenarios, their loop
# files in memory (a tmpfs of the corpus' own): the disk under /var/tmp has
# dips of its own, the same in every loop device at once, which no label
# says, and the corpus is about the drops it injects.
mkdir -p "$WORK/img" && mount -t tmpfs -o size=5200m wbtop-dips "$WORK/img" ||
	{ echo "dips-eval: could not mount a tmpfs for the loop files" >&2; exit 1; }
on_exit "umount -l $WORK/img 2>/dev/null"
DEVS=""
for i in 1 2 3; do
	img=$WORK/img/d$i.img mnt=$WORK/m$i
	truncate -s 1600M "$img" || exit 1
	dev=$(losetup -f --show --direct-io=on "$img") || { echo "dips-eval: losetup failed" >&2; exit 1; }
	on_exit "losetup -d $dev 2>/dev/null"
	if [ $i = 2 ]; then
		mkfs.xfs -q -f "$dev" >/dev/null 2>&1 || { echo "dips-eval: mkfs.xfs $dev failed" >&2; exit 1; }
	else
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 ||
			{ echo "dips-eval: mkfs.ext4 $dev failed" >&2; exit 1; }
	fi
	mkdir -p "$mnt"
	mount "$dev" "$mnt" || { echo "dips-eval: mount $dev failed" >&2; exit 1; }
	on_exit "umount -l $mnt 2>/dev/null"
	DEVS="$DEVS $(basename "$dev")"
done
set -- $DEVS
DEV1=$1 DEV2=$2 DEV3=$3
devname() { eval "echo \$DEV$1"; }

# start_writer W KIB BS [FLAGS]: writer W held at KIB KiB/s in requests of BS
# bytes (dd units: 1M); rewrites a 1000-block file so that it never fills.
# Direct I/O unless FLAGS is given ("" for a buffered writer, whose pages the
# flusher writes back: the dirty limits then stand between it and its device).
# Sets PV_W (pv's pid) and SINK_W.
start_writer() {
	w=$1 fifo=$WORK/fifo$1
	rm -f "$fifo"
	mkfifo "$fifo" || exit 1
	pv -q -L "${2}k" /dev/zero >"$fifo" 2>/dev/null &
	eval "PV_$w=\$!"
	# the loop holds the FIFO open across dd runs; it ends when pv does
	sh -c "while dd of=$WORK/m$w/f bs=$3 count=1000 iflag=fullblock ${4-oflag=direct} conv=notrunc 2>/dev/null; do :; done" \
		<"$fifo" >/dev/null 2>&1 &
	eval "SINK_$w=\$!"
	eval "BASE_$w=$2"
	WRITERS="$WRITERS $w"
	label device "$w" 0 0 0
}
stop_writers() {
	for w in $WRITERS; do
		eval "kill -CONT \$PV_$w; kill -TERM \$PV_$w \$SINK_$w" 2>/dev/null
	done
	for w in $WRITERS; do eval "wait \$PV_$w \$SINK_$w" 2>/dev/null; done
	WRITERS=""
}
on_exit stop_writers
WRITERS=""

# setrate PID RATE: a running pv's new rate.  pv -R now and then times out
# on a loaded machine ("message not received"); setting a rate twice is
# harmless, so it is tried again.
setrate() {
	for _try in 1 2 3 4 5; do
		pv -R "$1" -L "$2" 2>/dev/null && return 0
	done
	echo "dips-eval: $SCEN: pv -R $1 -L $2 failed" >&2
}

# label KIND W DEPTH_PCT T_START T_END [MORE]: one line of the scenario's labels.
label() { _k=$1 _w=$2; shift 2; echo "$_k $(devname "$_w") $*" >>"$LABELS"; }

# drop W DEPTH SECONDS: writer W DEPTH percent below its base rate for
# SECONDS, from now (100: stopped); labelled with its wall-clock times.
drop() {
	w=$1 depth=$2 len=$3
	eval "pv=\$PV_$w base=\$BASE_$w"
	t0=$(now)
	if [ "$depth" = 100 ]; then
		kill -STOP "$pv"
	else
		setrate "$pv" "$((base * (100 - depth) / 100))k"
	fi
	sleep "$len"
	if [ "$depth" = 100 ]; then kill -CONT "$pv"; else setrate "$pv" "${base}k"; fi
	label drop "$w" "$depth" "$t0" "$(now)"
}

# run_wbtop N: wbtop records N 1-s intervals of the machine in the
# background (-b -q -w: what a headless recording does, its marks and their
# causes judged live); sets T0 (its start) and WB (its pid).  The recording
# is exported as JSON when the scenario ends (finish), and stays in OUT:
# tests/dips/rejudge.sh judges it again, with another rule or --dip, in
# seconds instead of a new run.
run_wbtop() {
	T0=$(now)
	rm -f "$OUT/$SCEN.db"
	"$WBTOP" -b -q -d 1 -n "$1" -w "$OUT/$SCEN.db" >"$OUT/$SCEN.out" 2>"$OUT/$SCEN.err" &
	WB=$!
}
# a scenario that fails half-way leaves no wbtop recording behind it
on_exit '[ -z "${WB:-}" ] || kill "$WB" 2>/dev/null'
finish() {
	wait "$WB" || echo "dips-eval: $SCEN: wbtop exited $?: $(head -c 300 "$OUT/$SCEN.err")" >&2
	WB=
	stop_writers
	"$WBTOP" -r "$OUT/$SCEN.db" --export json >"$OUT/$SCEN.json" 2>>"$OUT/$SCEN.err" ||
		echo "dips-eval: $SCEN: the export failed: $(tail -c 300 "$OUT/$SCEN.err")" >&2
	sleep 1
}
begin() {
	SCEN=$1
	LABELS=$OUT/$SCEN.labels
	# only a scenario that runs starts its labels again: DIPS_ONLY runs one by
	# one into the same DIPS_KEEP keep the others'
	case "$SCEN" in *${DIPS_ONLY:-}*) : >"$LABELS"; return 0 ;; esac
	return 1
}

# 1. Sparse drops of 10-100 %, 2-4 s each, one writer at a time, 8 s or more
# apart; three writers at 32 MiB/s in 1 MiB requests.
if begin sparse; then
	for w in 1 2 3; do start_writer $w 32768 1M; done
	sleep 4
	run_wbtop 96
	t=12
	# writer, depth in percent, length in seconds
	for ev in "1 10 3" "2 15 3" "3 20 3" "1 30 2" "2 50 2" "3 100 3" \
		  "2 10 4" "3 15 3" "1 20 3" "2 30 2" "3 50 2" "1 100 3" \
		  "3 15 3" "1 15 3" "2 20 2"; do
		set -- $ev
		sleep_until "$T0" $t
		drop "$1" "$2" "$3"
		t=$((t + $3 + 2))
	done
	finish
fi

# 2. An erratic writer: 40 MiB/s with drops of 20-45 % for 2-3 s, 3-6 s apart
# (a pseudo-random schedule: DIPS_SEED, 16 unless set), next to two steady writers.
if begin erratic; then
	for w in 1 2 3; do start_writer $w 40960 1M; done
	sleep 4
	run_wbtop 70
	awk 'BEGIN { srand('"${DIPS_SEED:-16}"'); t = 8; while (t < 62) {
		depth = 20 + int(rand() * 26); len = 2 + int(rand() * 2)
		printf "%d %d %d\n", t, depth, len
		t += len + 3 + int(rand() * 4) } }' >"$WORK/erratic.plan"
	while read -r t depth len; do
		sleep_until "$T0" "$t"
		drop 1 "$depth" "$len"
	done <"$WORK/erratic.plan"
	finish
fi

# 3. Counting noise: steady writers of 10 MiB/s in 512 KiB requests and of
# 30 MiB/s in 1 MiB; nothing must be marked.
if begin counting; then
	start_writer 1 10240 512K
	start_writer 2 10240 512K
	start_writer 3 30720 1M
	sleep 4
	run_wbtop 50
	finish
fi

# 4. A burst that ends: a steady 30 MiB/s writer; another device writes at
# 200 MiB/s for 6 s, then nothing.  Neither the steady device, nor the
# bursting one, nor the system line is to be marked after it.
if begin burst; then
	start_writer 1 30720 1M
	start_writer 2 204800 1M
	kill -STOP "$PV_2"
	sleep 4
	run_wbtop 45
	sleep_until "$T0" 14
	t0=$(now)
	kill -CONT "$PV_2"
	sleep 6
	kill -STOP "$PV_2"
	label burst 2 0 "$t0" "$(now)"
	finish
fi

# 5. Three writers trading bandwidth: 30 MiB/s each; now and then one falls
# by 60 % (to 12 MiB/s) for 3 s while another takes up what it lost (48 MiB/s).  The
# one that fell is a dip; the one that rose, and its return, are not.
if begin trading; then
	for w in 1 2 3; do start_writer $w 30720 1M; done
	sleep 4
	run_wbtop 70
	t=12
	for ev in "1 2" "2 3" "3 1" "1 3" "2 1" "3 2"; do
		set -- $ev
		sleep_until "$T0" $t
		eval "rpv=\$PV_$2"
		rt0=$(now)
		setrate "$rpv" 49152k
		drop "$1" 60 3
		setrate "$rpv" 30720k
		label rise "$2" 0 "$rt0" "$(now)"
		t=$((t + 9))
	done
	finish
fi

VM=/proc/sys/vm
# dirty_limits BG_MIB HARD_MIB: the dirty limits in bytes (the hard one first:
# the kernel halves a background limit that is not below it).
dirty_limits() {
	echo $(($2 << 20)) >$VM/dirty_bytes && echo $(($1 << 20)) >$VM/dirty_background_bytes ||
		{ echo "dips-eval: $SCEN: could not set the dirty limits" >&2; exit 1; }
}
# The writer's dd (the child of its loop), for its kernel stack.
writer_dd() { eval "cat /proc/\$SINK_$1/task/\$SINK_$1/children" 2>/dev/null | cut -d' ' -f1; }
# blkio_limit W BPS: the root blkio cgroup's write limit of writer W's
# device, in bytes a second (0 removes it).  The flusher writes from the root
# cgroup (cgroup v1 writeback is not cgroup-aware), so it is held to it.
BLKIO=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
blkio_limit() {
	echo "$(cat /sys/block/$(devname "$1")/dev) $2" >$BLKIO
}

# throttle W DEPTH SECONDS: writer W's device held DEPTH percent below the
# (buffered) writer's rate for SECONDS: dirty data climbs to the limit and
# the kernel throttles the writer in balance_dirty_pages.  Labelled
# "throttle DEV DEPTH T_START T_END T_THROTTLED", the last the first time the
# writer's kernel stack (or wchan) was seen in balance_dirty_pages (- if never): before
# it the writer was not throttled yet, whatever its device did.
throttle() {
	w=$1 depth=$2 len=$3
	eval "base=\$BASE_$w"
	dd_pid=$(writer_dd "$w")
	t0=$(now) tc=-
	blkio_limit "$w" $((base * 1024 * (100 - depth) / 100)) ||
		{ echo "dips-eval: $SCEN: no blkio write limit" >&2; exit 1; }
	while :; do
		tn=$(now)
		[ "$(awk -v t="$tn" -v t0="$t0" -v l="$len" 'BEGIN { print (t >= t0 + l) }')" = 1 ] && break
		# the dd of the moment (it is started again after 1000 blocks)
		[ -r "/proc/$dd_pid/stack" ] || dd_pid=$(writer_dd "$w")
		[ "$tc" = - ] && grep -qs balance_dirty_pages "/proc/$dd_pid/stack" "/proc/$dd_pid/wchan" &&
			tc=$tn
		sleep 0.05
	done
	blkio_limit "$w" 0
	label throttle "$w" "$depth" "$t0" "$(now)" "$tc"
}

# knob W SECONDS BG_MIB HARD_MIB: the dirty limits changed from outside
# wbtop (as by sysctl) for SECONDS, then back to what the scenario had.
# Labelled "knob DEV 100 T_START T_END": raised far above what the
# buffered writer dirties, they stop background writeback of writer W's
# device: it writes nothing while the writer goes on filling the cache.
knob() {
	t0=$(now)
	dirty_limits "$3" "$4"
	sleep "$2"
	t1=$(now)
	dirty_limits "$KNOB_BG" "$KNOB_HARD"
	label knob "$1" 100 "$t0" "$t1"
}

# 6. Throttled: a buffered writer at 32 MiB/s under small dirty limits (1 MiB
# background, so that its device is written as steadily as it writes; 48 MiB
# hard), next to two direct-I/O writers; now and then its device is held
# 50-75 % below it (a blkio write limit) for 3-4 s.  Dirty data reaches the
# limit within a second or two (23.5 MiB from the background limit to where
# throttling starts, filled at 16-24 MiB/s) and the writer is throttled at
# its device's rate.  The dip's cause, once it is, is "throttled".
if begin throttled && { [ -w "$BLKIO" ] ||
	{ echo "dips-eval: throttled: skipped: no $BLKIO (cgroup v1 blkio)" >&2; false; }; }; then
	on_exit 'for d in $DEVS; do echo "$(cat /sys/block/$d/dev) 0" >$BLKIO; done 2>/dev/null'
	dirty_limits 1 48
	start_writer 1 32768 1M ""
	start_writer 2 32768 1M
	start_writer 3 32768 1M
	sleep 6
	run_wbtop 70
	t=12
	for ev in "75 4" "50 3" "75 3" "60 4"; do
		set -- $ev
		sleep_until "$T0" $t
		throttle 1 "$1" "$2"
		t=$((t + $2 + 10))
	done
	finish
	restore_dirty_knobs
fi

# 7. A knob change: a buffered writer at 32 MiB/s whose device writes it
# back as it comes (dirty_background_bytes 1 MiB, dirty_bytes 64 MiB), next
# to two direct-I/O writers; now and then both limits are raised to 1 and
# 2 GiB for 4 s: background writeback stops and the device writes nothing
# until they are put back.  Its cause is "knob change".
if begin knob; then
	KNOB_BG=1 KNOB_HARD=64
	dirty_limits $KNOB_BG $KNOB_HARD
	start_writer 1 32768 1M ""
	start_writer 2 32768 1M
	start_writer 3 32768 1M
	sleep 6
	run_wbtop 60
	for t in 12 28 44; do
		sleep_until "$T0" $t
		knob 1 4 1024 2048
	done
	finish
	restore_dirty_knobs
fi

python3 "$here/score.py" "$OUT"
