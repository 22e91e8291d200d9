#!/bin/sh
# Live proof of the dip detector: three loop-device filesystems, one writer
# each held at 24 MB/s; the second writer is paused (SIGSTOP on its process
# group) for five seconds.  wbtop -b -d 1 marks the paused intervals for
# that device (one interval of slack at each edge) and nothing in the
# steady stretches; without -a the paused device's idle rows stay listed
# (it is dipping, and was busy within the baseline window), and each
# paused interval's cause is "writers stopped".
. "$E2E_LIB"
need_root "makes loop devices and filesystems"
command -v pv >/dev/null || skip "pv not installed"
N=26		# intervals printed
STOP_AT=11	# the pause starts half-way through interval 11 ...
STOP_FOR=5	# ... and lasts 5 s: intervals 12-15 entirely, 11 and 16 partly
for i in 1 2 3; do
	make_loop_fs 1024 "$TMP/m$i" || fail "could not make loop filesystem $i"
	# direct I/O to the backing file, so the disk under the loop files sees
	# the same steady stream rather than page-cache flush bursts
	losetup --direct-io=on "$LOOPDEV" 2>/dev/null
	eval "dev$i=$(basename "$LOOPDEV")"
done
# Each writer in a process group of its own (setsid), so SIGSTOP on the
# group holds both pv and dd.  Not in $(...): the writer would hold its pipe.
for i in 1 2 3; do
	setsid sh -c "pv -q -L 24m /dev/zero | dd of=$TMP/m$i/f bs=1M iflag=fullblock oflag=direct" \
		</dev/null >/dev/null 2>&1 &
	eval "w$i=\$!"
done
on_exit "kill -CONT -$w1 -$w2 -$w3 2>/dev/null; kill -TERM -$w1 -$w2 -$w3 2>/dev/null; sleep 0.5"
sleep 2		# let the writers settle before the baseline
"$WBTOP" -b -d 1 -n $N --devices "^($dev1|$dev2|$dev3)\$" >"$TMP/out" 2>"$TMP/err" &
wb=$!
# wbtop keeps absolute deadlines: interval k ends k seconds after it started
sleep "$STOP_AT".5
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
first=$STOP_AT; last=$((STOP_AT + STOP_FOR))	# the partly paused intervals
# One interval in which every writer dips at once is the disk under all three
# loop files slowing (they share it), which is a dip; allowed once, reported.
bad=0 shared=0
: >"$TMP/why"
while read -r k devs; do
	case " $devs " in *" $dev1 "*) all1=1 ;; *) all1=0 ;; esac
	case " $devs " in *" $dev3 "*) all3=1 ;; *) all3=0 ;; esac
	if [ $all1 = 1 ] && [ $all3 = 1 ] && [ $shared = 0 ]; then
		shared=$k	# both steady writers at once: the shared disk
		devs=$(echo "$devs" | tr ' ' '\n' | grep -vx -e "$dev1" -e "$dev3" | tr '\n' ' ')
	fi
	if [ "$k" -gt "$first" ] && [ "$k" -lt "$last" ]; then
		case " $devs " in *" $dev2 "*) ;; *) [ "$k" = "$shared" ] ||
			{ echo "interval $k: $dev2 was paused but not marked" >>"$TMP/why"; bad=1; } ;; esac
		case " $devs " in *" $dev1 "*|*" $dev3 "*) echo "interval $k: a running writer marked:$devs" >>"$TMP/why"; bad=1 ;; esac
	elif [ "$k" -lt $((first - 1)) ] || [ "$k" -gt $((last + 1)) ]; then
		[ -z "$(echo $devs)" ] || { echo "interval $k (steady): marked $devs" >>"$TMP/why"; bad=1; }
	fi
done <"$TMP/marks"
[ "$(wc -l <"$TMP/marks")" -eq $N ] || { echo "$(wc -l <"$TMP/marks") intervals, not $N" >>"$TMP/why"; bad=1; }
[ "$shared" = 0 ] || echo "interval $shared: every writer dipped at once (the disk they share)"
if [ $bad -ne 0 ]; then
	awk '$1 == "device" { for (i = 1; i <= NF; i++) if ($i == "wkB/s") c = i }
	     $1 == "time" { k++ } c && NF > c && $1 ~ /^loop/ && $2 ~ /^[0-9.]+$/ { print k, $1, $c, $NF }' "$TMP/out" | head -90
	cat "$TMP/marks" "$TMP/why"
	fail "marks do not match the pause: $(tr '\n' ';' <"$TMP/why")"
fi
# Each paused interval's mark gives its cause: the writer stopped submitting (or, when
# something else on the machine changed a knob in or just before it, the knob change).
causes=$(awk -v d2="$dev2" -v a="$first" -v b="$last" '
	$1 == "time" { k++ }
	$1 == "#" && $3 == "knob" { knob = k + 1 }
	$1 == "#" && $2 == "dip" && $3 == d2 ":" && k > a && k < b {
		n++
		if ($0 ~ /: writers stopped$/ || ($0 ~ /: knob change$/ && knob && k - knob <= 1)) ok++
	}
	END { printf "%d %d\n", ok, n }' "$TMP/out")
set -- $causes
[ "$2" -ge $((last - first - 1)) ] && [ "$1" -eq "$2" ] ||
	{ grep "^# dip" "$TMP/out"; fail "causes of the paused intervals: $1 of $2 'writers stopped'"; }
echo "paused intervals $((first + 1))-$((last - 1)) marked for $dev2, cause 'writers stopped'; no marks in the steady stretches"
