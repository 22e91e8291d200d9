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
cat >"$TMP/knob.sh" <<EOS
( sleep 1.3; mount --bind $unreadable /proc/sys/vm/dirty_expire_centisecs ) &
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
( sleep 1.7; mount --bind $unreadable /proc/diskstats ) &
"$WBTOP" -b -q -d 0.5 -n 20 -w "$TMP/r.db" 2>"$TMP/ds.err"
echo \$? >"$TMP/ds.rc"
wait
EOS
unshare -m --propagation private sh "$TMP/ds.sh"
[ "$(cat "$TMP/ds.rc")" = 1 ] || fail "unreadable diskstats: exit $(cat "$TMP/ds.rc"), want 1"
[ "$(wc -l <"$TMP/ds.err")" -eq 1 ] && grep -q '^wbtop: /proc/diskstats: ' "$TMP/ds.err" ||
	fail "unreadable diskstats: the message is not one line naming the file: $(cat "$TMP/ds.err")"
"$WBTOP" -r "$TMP/r.db" -b -a >"$TMP/replay" 2>"$TMP/replay.err" ||
	fail "the recording does not replay: $(cat "$TMP/replay.err")"
n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]' "$TMP/replay")
[ "$n" -ge 2 ] || { cat "$TMP/replay"; fail "the recording kept $n intervals, want the 2 or more before the fault"; }
echo "recorded $n intervals before /proc/diskstats became unreadable"
exit 0
