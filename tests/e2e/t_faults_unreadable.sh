#!/bin/sh
# /proc files that become unreadable while wbtop runs (issue 7: "a clear
# message, no crash, no loss of what was already recorded").  In a private
# mount namespace, /proc/1/mem is bind-mounted over the file mid-run: it
# cannot be opened for reading, not even by root.
. "$E2E_LIB"
need_root "it bind-mounts over /proc files in a private mount namespace"

unreadable=/proc/1/mem
unshare -m --propagation private sh -c "mount --bind $unreadable /proc/uptime && ! cat /proc/uptime" \
	>/dev/null 2>&1 || skip "$unreadable is readable here: no unreadable file to mount"

# A knob that becomes unreadable: the run goes on to its end; the knob is
# unknown (null), not -1 or its last value.
# The mounts wait for what wbtop has printed, not for a time: a slow start
# (a loaded machine, the sanitizers) must not move the fault before the first
# intervals.  wait_lines FILE N PATTERN: up to 60 s for N lines matching it.
cat >"$TMP/wait_lines" <<'EOS'
i=0
while [ "$(grep -c "$3" "$1" 2>/dev/null)" -lt "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
EOS
cat >"$TMP/knob.sh" <<EOS
( sh "$TMP/wait_lines" "$TMP/knob.jsonl" 1 '^{'; mount --bind $unreadable /proc/sys/vm/dirty_expire_centisecs ) &
"$WBTOP" -b --format json -d 0.5 -n 6 >"$TMP/knob.jsonl" 2>"$TMP/knob.err"
echo \$? >"$TMP/knob.rc"
wait
EOS
unshare -m --propagation private sh "$TMP/knob.sh"
[ "$(cat "$TMP/knob.rc")" = 0 ] || fail "unreadable knob: exit $(cat "$TMP/knob.rc"): $(cat "$TMP/knob.err")"
stderr_clean "$TMP/knob.err" || fail "unreadable knob: wbtop complained: $(cat "$TMP/knob.err")"
python3 - "$TMP/knob.jsonl" <<'EOS' || fail "unreadable knob: wrong JSON"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
vals = [r["knobs"]["vm.dirty_expire_centisecs"] for r in rows]
print("vm.dirty_expire_centisecs per interval:", vals)
assert len(rows) == 6, "%d intervals, want 6" % len(rows)
assert isinstance(vals[0], int) and vals[0] >= 0, "the first interval should read it"
assert vals[-1] is None, "unreadable at the end, yet %r" % vals[-1]
assert all(v is None or v >= 0 for v in vals), "-1 leaked out"
EOS

# /proc/diskstats becoming unreadable while recording: one line naming it,
# exit 1, and the recording keeps every sample taken before.
cat >"$TMP/ds.sh" <<EOS
( sh "$TMP/wait_lines" "$TMP/ds.out" 2 '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]'; mount --bind $unreadable /proc/diskstats ) &
"$WBTOP" -b -a -d 0.5 -n 40 -w "$TMP/r.db" >"$TMP/ds.out" 2>"$TMP/ds.err"
echo \$? >"$TMP/ds.rc"
wait
EOS
unshare -m --propagation private sh "$TMP/ds.sh"
[ "$(cat "$TMP/ds.rc")" = 1 ] || fail "unreadable diskstats: exit $(cat "$TMP/ds.rc"), want 1"
# (the note a printing recorder gives when the file is on a watched device aside)
grep -v "^wbtop: note: recording .* is on .*, a device wbtop watches" "$TMP/ds.err" >"$TMP/ds.err2"
[ "$(wc -l <"$TMP/ds.err2")" -eq 1 ] && grep -q '^wbtop: /proc/diskstats: ' "$TMP/ds.err2" ||
	fail "unreadable diskstats: the message is not one line naming the file: $(cat "$TMP/ds.err2")"
"$WBTOP" -r "$TMP/r.db" -b -a >"$TMP/replay" 2>"$TMP/replay.err" ||
	fail "the recording does not replay: $(cat "$TMP/replay.err")"
n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]' "$TMP/replay")
printed=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]' "$TMP/ds.out")
[ "$n" -ge 2 ] && [ "$n" -ge "$printed" ] ||
	{ cat "$TMP/replay"; fail "the recording kept $n intervals, want the $printed (2 or more) printed before the fault"; }
echo "printed $printed and recorded $n intervals before /proc/diskstats became unreadable"
exit 0
