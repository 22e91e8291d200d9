#!/bin/sh
# Live proof of the dip detector: three loop-device filesystems (ext4, and
# XFS for the writer that is paused), one writer
# each held at 24 MB/s; the second writer is paused (SIGSTOP on its process
# group) for five seconds.  wbtop -b -d 1 marks the paused intervals for
# that device (one interval of slack at each edge) and nothing in the
# steady stretches; without -a the paused device's idle rows stay listed
# (it is dipping, and was busy within the baseline window), and each
# paused interval's cause is "writers stopped".
. "$E2E_LIB"
need_root "makes loop devices and filesystems"
need_xfs
need_tool pv pv
N=26		# intervals printed
STOP_AT=11	# the pause starts 11.5 s after wbtop, half-way through interval 12 ...
STOP_FOR=5	# ... and lasts 5 s: intervals 13-16 entirely, 12 and 17 partly
# The loop files in memory (a tmpfs of the test's own): a machine's disk,
# shared by all three loop files, has dips of its own (seen on a virtual disk:
# every writer slowing at once, several times a run), and the test is about
# the one pause it makes.
mkdir -p "$TMP/img" && mount -t tmpfs -o size=3200m wbtop-test "$TMP/img" ||
	fail "could not mount a tmpfs for the loop files"
on_exit "umount -l $TMP/img 2>/dev/null"
for i in 1 2 3; do
	fs=ext4
	[ $i = 2 ] && fs=xfs
	make_loop_fs 1024 "$TMP/m$i" "$TMP/img" $fs || fail "could not make $fs loop filesystem $i"
	# direct I/O to the backing file, so the loop device passes the same
	# steady stream on rather than page-cache flush bursts
	losetup --direct-io=on "$LOOPDEV" 2>/dev/null
	eval "dev$i=$(basename "$LOOPDEV")"
done
# Each writer in a process group of its own (setsid), so SIGSTOP on the
# group holds both pv and dd.  Not in $(...): the writer would hold its pipe.
for i in 1 2 3; do
	setsid sh -c "$RT pv -q -L 24m /dev/zero | $RT dd of=$TMP/m$i/f bs=1M iflag=fullblock oflag=direct" \
		</dev/null >/dev/null 2>&1 &
	eval "w$i=\$!"
done
on_exit "kill -CONT -$w1 -$w2 -$w3 2>/dev/null; kill -TERM -$w1 -$w2 -$w3 2>/dev/null; sleep 0.5"
sleep 2		# let the writers settle before the baseline
$RT "$WBTOP" -b -d 1 -n $N --devices "^($dev1|$dev2|$dev3)\$" >"$TMP/out" 2>"$TMP/err" &
wb=$!
# wbtop keeps absolute deadlines: interval k ends k seconds after its first
# sample; its first block is printed as interval 1 ends, so the pause is timed
# from that block, not from a guess of how long a loaded machine takes to start it
wait_output "$TMP/out" '^[0-9:]{8} ' $wb
sleep "$((STOP_AT - 1))".5
kill -STOP -"$w2" || fail "could not stop writer 2"
sleep "$STOP_FOR"
kill -CONT -"$w2"
wait $wb || fail "wbtop exited $?: $(cat "$TMP/err")"
# The paused device is listed in every interval, its idle ones included.
# (the device table only: a writeback table may follow it, with the same names)
listed=$(awk -v d2="$dev2" '$1 == "device" { t = 1; next } $1 == "writeback" || $1 == "#" || NF == 0 { t = 0 }
	t && $1 == d2' "$TMP/out" | wc -l)
[ "$listed" -eq $N ] || { grep -E "^(time|$dev2) " "$TMP/out" | awk '{print $1, $6}' | head -80
	fail "$dev2 listed in $listed of $N intervals"; }
# Per interval, which devices are marked.
awk -v d1="$dev1" -v d2="$dev2" -v d3="$dev3" '
	$1 == "time" { k++ }
	/<<<<<$/ && ($1 == d1 || $1 == d2 || $1 == d3) { m[k] = m[k] " " $1 }
	END { for (i = 1; i <= k; i++) printf "%d%s\n", i, m[i] }' "$TMP/out" >"$TMP/marks"
first=$((STOP_AT + 1)); last=$((STOP_AT + STOP_FOR + 1))	# the partly paused intervals
# Each device's write rate per interval (the device table's wkB/s), and its
# median over the steady intervals: a mark outside the pause is a false one
# unless the device really slowed (below 95% of that median) -- the machine
# has dips of its own, which the detector is right to mark.
awk -v a="$first" -v b="$last" '
	$1 == "device" { t = 1; for (i = 1; i <= NF; i++) if ($i == "wkB/s") c = i; next }
	$1 == "time" { k++ }
	$1 == "writeback" || $1 == "#" || NF == 0 { t = 0 }
	t && c && $1 ~ /^loop/ { print k, $1, $c; if (k < a - 1 || k > b + 1) print $1, $c > "/dev/stderr" }' \
	"$TMP/out" >"$TMP/rates" 2>"$TMP/steady"
median() { awk -v d="$1" '$1 == d { print $2 }' "$TMP/steady" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }'; }
med1=$(median "$dev1") med2=$(median "$dev2") med3=$(median "$dev3")
slowed() {	# slowed K DEV: DEV's rate in interval K is below 95% of its median
	awk -v k="$1" -v d="$2" -v m1="$med1" -v m2="$med2" -v m3="$med3" -v d1="$dev1" -v d2="$dev2" -v d3="$dev3" '
		$1 == k && $2 == d { m = d == d1 ? m1 : d == d2 ? m2 : m3; s = $3 < 0.95 * m }
		END { exit !s }' "$TMP/rates"
}
bad=0 real=""
: >"$TMP/why"
while read -r k devs; do
	unjust=""
	for d in $devs; do
		# the paused writer, in and at the edges of its pause
		{ [ "$k" -ge "$first" ] && [ "$k" -le "$last" ] && [ "$d" = "$dev2" ]; } && continue
		if slowed "$k" "$d"; then real="$real $k:$d"; else unjust="$unjust $d"; fi
	done
	if [ "$k" -gt "$first" ] && [ "$k" -lt "$last" ]; then
		case " $devs " in *" $dev2 "*) ;; *)
			echo "interval $k: $dev2 was paused but not marked" >>"$TMP/why"; bad=1 ;; esac
		[ -z "$unjust" ] || { echo "interval $k: a running writer marked, not slowed:$unjust" >>"$TMP/why"; bad=1; }
	elif [ "$k" -lt $((first - 1)) ] || [ "$k" -gt $((last + 1)) ]; then
		[ -z "$unjust" ] || { echo "interval $k (steady): marked, not slowed:$unjust" >>"$TMP/why"; bad=1; }
	fi
done <"$TMP/marks"
[ "$(wc -l <"$TMP/marks")" -eq $N ] || { echo "$(wc -l <"$TMP/marks") intervals, not $N" >>"$TMP/why"; bad=1; }
[ -z "$real" ] || echo "marked where the machine slowed a running writer (below 95% of its median):$real"
if [ $bad -ne 0 ]; then
	echo "medians: $dev1 $med1 $dev2 $med2 $dev3 $med3"; cat "$TMP/rates" "$TMP/marks" "$TMP/why"
	fail "marks do not match the pause: $(tr '\n' ';' <"$TMP/why")"
fi
# Each paused interval's mark gives its cause: the writer stopped submitting (or, when
# something else on the machine changed a knob in or just before it, the knob change).
causes=$(awk -v d2="$dev2" -v a="$first" -v b="$last" '
	$1 == "time" { k++ }
	$1 == "#" && $3 == "knob" { knob = k + 1 }
	$1 == "#" && $2 == "dip" && $3 == d2 ":" && k > a && k < b {
		n++
		if ($0 ~ /: writers stopped(,|$)/ || ($0 ~ /: knob change(,|$)/ && knob && k - knob <= 1)) ok++
	}
	END { printf "%d %d\n", ok, n }' "$TMP/out")
set -- $causes
[ "$2" -ge $((last - first - 1)) ] && [ "$1" -eq "$2" ] ||
	{ cat "$TMP/rates" "$TMP/marks"; grep -E "^(time|# )" "$TMP/out"; fail "causes of the paused intervals: $1 of $2 'writers stopped'"; }
echo "paused intervals $((first + 1))-$((last - 1)) marked for $dev2, cause 'writers stopped'; no mark where a rate held (within 5% of its median)"
