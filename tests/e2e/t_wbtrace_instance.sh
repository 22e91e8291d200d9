#!/bin/sh
# The writeback trace source's tracefs instance: removed when the probe ends
# by SIGINT, SIGTERM, SIGHUP or its count; left by kill -9 and removed by
# the next start (its pid is gone), while an instance of a live wbtop-named
# process and instances of other names stay; without root, one line saying
# why and exit 1.
. "$E2E_LIB"
need_root "creates tracefs instances"
need_kernfs "$0"
need_probe
inst_dir=/sys/kernel/tracing/instances

# Start a probe; sets P to its pid and I to its instance.  Each start has
# its own output file: the child truncates a shared one only when it runs.
starts=0
start_probe() {
	starts=$((starts + 1))
	out="$TMP/p$starts.out"
	"$WBPROBE" -d 0.2 "$@" > "$out" 2> "$TMP/p.err" &
	P=$!
	for i in $(seq 1200); do grep -q '^instance ' "$out" && break; sleep 0.05; done
	I=$(sed -n 's/^instance //p' "$out")
	[ -n "$I" ] || fail "the probe did not start in 15 s: $(cat "$TMP/p.err")"
	on_exit "kill -9 $P 2>/dev/null; rmdir $inst_dir/$I 2>/dev/null"
	[ -d "$inst_dir/$I" ] || fail "no instance $I while the probe runs"
}

for sig in INT TERM HUP; do
	start_probe
	kill -$sig $P
	wait $P || fail "the probe exited $? on SIG$sig"
	[ -d "$inst_dir/$I" ] && fail "instance $I left behind after SIG$sig"
done
start_probe -n 2
wait $P || fail "the probe exited $? after its count"
[ -d "$inst_dir/$I" ] && fail "instance $I left behind after a normal end"
echo "removed on SIGINT, SIGTERM, SIGHUP and a normal end"

# kill -9 leaves it; the next start removes it, not the others.
start_probe
kill -9 $P
wait $P 2>/dev/null
stale=$I
[ -d "$inst_dir/$stale" ] || fail "kill -9 should have left $stale (the test is wrong)"
mkdir "$inst_dir/wbtop-notapid" "$inst_dir/wbtest-other-$$" || fail "cannot make instances"
on_exit "rmdir $inst_dir/wbtop-notapid $inst_dir/wbtest-other-$$ 2>/dev/null"
sleep 30 &
live=$!
on_exit "kill $live 2>/dev/null"
# a live process named wbtop keeps its instance: this sleep is not one, so
# its pid's instance counts as stale too
mkdir "$inst_dir/wbtop-$live" || fail "cannot make an instance"
on_exit "rmdir $inst_dir/wbtop-$live 2>/dev/null"
start_probe -n 1
wait $P || fail "the second probe exited $?"
[ -d "$inst_dir/$stale" ] && fail "stale $stale not removed by the next start"
[ -d "$inst_dir/wbtop-$live" ] && fail "wbtop-$live (pid of another program) not removed"
[ -d "$inst_dir/wbtop-notapid" ] && [ -d "$inst_dir/wbtest-other-$$" ] || fail "removed an instance that is not wbtop's"
[ -d "$inst_dir/$I" ] && fail "instance $I left behind"
echo "kill -9: $stale removed by the next start; others kept"

# Not root: one line of reason, exit 1, nothing made.
before=$(ls "$inst_dir" | sort)
setpriv --reuid=nobody --regid=nogroup --clear-groups "$WBPROBE" -n 1 > "$TMP/nr.out" 2> "$TMP/nr.err"
rc=$?
[ $rc -eq 1 ] || fail "as nobody the probe exited $rc (want 1): $(cat "$TMP/nr.err")"
[ "$(wc -l < "$TMP/nr.err")" -eq 1 ] || fail "want one line of reason, got: $(cat "$TMP/nr.err")"
grep -q 'not root' "$TMP/nr.err" || fail "the reason does not say not root: $(cat "$TMP/nr.err")"
[ "$(ls "$inst_dir" | sort)" = "$before" ] || fail "an instance was made without root"
echo "as nobody: $(cat "$TMP/nr.err")"
exit 0
