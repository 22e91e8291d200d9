#!/bin/sh
# --set in a session, on fixture files bind-mounted over /proc/sys/vm/*
# (the host's knobs are never touched): refused with exit 2 next to what
# reads the past (-r, --export, --compare, --annotate), written before the
# first sample with live -b, and every write wbtop makes -- --set and
# --restore-on-exit alike -- an event with its reason, in the batch output
# and in the recording, so the replay ends with the knobs as they were left.
# A change made by someone else is worded as one.
. "$E2E_LIB"
need_root "bind mounts over /proc/sys/vm"
unshare -m true 2>/dev/null || skip "unshare -m not permitted here"

FX=$TMP/vm
mkdir -p "$FX"
echo 20 >"$FX/dirty_ratio"; echo 10 >"$FX/dirty_background_ratio"
echo 0 >"$FX/dirty_bytes"; echo 0 >"$FX/dirty_background_bytes"
echo 3000 >"$FX/dirty_expire_centisecs"; echo 500 >"$FX/dirty_writeback_centisecs"
echo 43200 >"$FX/dirtytime_expire_seconds"
fx() { cat "$FX/$1"; }
cat >"$TMP/ns.sh" <<NS
for f in "$FX"/*; do mount --bind "\$f" "/proc/sys/vm/\${f##*/}" || exit 90; done
eval "\$1"
NS
ns() { unshare -m sh "$TMP/ns.sh" "$1" >"$TMP/out" 2>"$TMP/err"; RC=$?; }
show() { echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"; }
expect_rc() { [ "$RC" = "$1" ] || { show; fail "$2: exit $RC, want $1"; }; }
expect_out() { grep -qF -- "$1" "$TMP/out" || { show; fail "$2: stdout lacks: $1"; }; }
expect_err() { grep -qF -- "$1" "$TMP/err" || { show; fail "$2: stderr lacks: $1"; }; }

# A recording to replay: two samples, knobs untouched.
ns '"$WBTOP" -b -q -d 0.2 -n 2 -w "'"$TMP/plain.db"'"'
expect_rc 0 "recording"
printf 'procs\n r  b\n 1  0\n 1  0\n' >"$TMP/vmstat.log"

# --- whatever reads the past never writes the host
for args in "-b -n 1 -r $TMP/plain.db" "-r $TMP/plain.db" "-r $TMP/plain.db --export csv" \
	    "--compare $TMP/plain.db $TMP/plain.db" "--annotate $TMP/vmstat.log"; do
	ns '"$WBTOP" '"$args"' --set vm.dirty_ratio=7'
	expect_rc 2 "--set with $args"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { show; fail "--set with $args: want one error line"; }
	expect_err "contradict" "--set with $args"
	[ "$(fx dirty_ratio)" = 20 ] || fail "--set with $args wrote the knob: $(fx dirty_ratio)"
done

# --- live -b: written before the first sample, printed and recorded as an
# event with its reason; --restore-on-exit puts it back, also as an event.
ns '"$WBTOP" -b -d 0.2 -n 2 --set vm.dirty_ratio=7 --restore-on-exit -w "'"$TMP/set.db"'"'
expect_rc 0 "-b --set --restore-on-exit"
expect_out "knob vm.dirty_ratio 20 -> 7: ok, --set" "-b --set"
expect_out "knob vm.dirty_ratio 7 -> 20: ok, --restore-on-exit" "-b --restore-on-exit"
[ "$(grep -c ' knob ' "$TMP/out")" -eq 2 ] || { show; fail "want exactly two knob events"; }
[ "$(fx dirty_ratio)" = 20 ] || fail "--restore-on-exit left dirty_ratio at $(fx dirty_ratio)"
# the first block already samples the knob asked for
ns '"$WBTOP" -r "'"$TMP/set.db"'" --export json'
expect_rc 0 "export"
head -1 "$TMP/out" | grep -q "\"vm.dirty_ratio\":7" || { show; fail "first sample not taken with dirty_ratio 7"; }
tail -1 "$TMP/out" | grep -q "\"vm.dirty_ratio\":20" || { show; fail "the recording does not end restored"; }
head -1 "$TMP/out" | grep -q '"note":"--set"' || { show; fail "export: the first interval lacks the --set event"; }
grep -q '"note":"--restore-on-exit"' "$TMP/out" || { show; fail "export lacks the restore event"; }

# --- the batch replay prints wbtop's writes as they were made, reasons kept
ns '"$WBTOP" -r "'"$TMP/set.db"'" -b'
expect_rc 0 "batch replay"
expect_out "knob vm.dirty_ratio 20 -> 7: ok, --set" "replay"
expect_out "knob vm.dirty_ratio 7 -> 20: ok, --restore-on-exit" "replay"
grep -q 'seen changed\|outside wbtop' "$TMP/out" && { show; fail "replay words wbtop's own write as seen"; }

# --- a change by someone else is worded as one
cat >"$TMP/other.sh" <<'OTHER'
( sleep 0.5; echo 9 >/proc/sys/vm/dirty_background_ratio ) &
"$WBTOP" -b -d 0.3 -n 4
OTHER
ns '. "'"$TMP/other.sh"'"'
expect_rc 0 "outside change"
expect_out "knob vm.dirty_background_ratio 10 -> 9: changed outside wbtop" "outside change"
# and in JSON, marked as observed rather than as a write of wbtop's
cat >"$TMP/other.sh" <<'OTHER'
( sleep 0.5; echo 8 >/proc/sys/vm/dirty_background_ratio ) &
"$WBTOP" -b -d 0.3 -n 4 --format json
OTHER
ns '. "'"$TMP/other.sh"'"'
expect_rc 0 "outside change, json"
grep -q '"knob":"vm.dirty_background_ratio","old":9,"new":8,[^}]*"observed":true' "$TMP/out" ||
	{ show; fail "json: the outside change is not marked observed"; }
echo 10 >"$FX/dirty_background_ratio"

# --- a size with a fraction of its unit
ns '"$WBTOP" --set vm.dirty_bytes=1.5G'
expect_rc 0 "--set 1.5G"
expect_out "vm.dirty_bytes 0 -> 1610612736 (1.5G): ok" "--set 1.5G"
echo 20 >"$FX/dirty_ratio"; echo 0 >"$FX/dirty_bytes"

# --- --set alone still changes and exits, as before
ns '"$WBTOP" --set vm.dirty_ratio=11'
expect_rc 0 "--set alone"
expect_out "vm.dirty_ratio 20 -> 11: ok" "--set alone"
[ "$(fx dirty_ratio)" = 11 ] || fail "--set alone did not write"
echo "refused with -r/--export/--compare/--annotate; -b --set writes before the first sample; set and restore recorded with reasons"
