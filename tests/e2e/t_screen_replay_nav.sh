#!/bin/sh
# Moving through a recording on the screen.  A batch session on fixture
# data with a dip (a device drops to 30% for a moment) and a knob change
# (vm.dirty_background_ratio 10 -> 5) is recorded; the screen then steps
# one sample back and forth, jumps to a time, to the start and the end,
# to the next and previous dip and knob change (landing where the
# recording's own export puts them), changes the speed and plays to the
# end; --begin/--end limit it; and a recording still being written is
# followed as it grows, until its writer closes it.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario_dip
scr_driver_start
rec=$TMP/nav.db
# the knob change, while it records
( sleep 6.5; echo 5 >"$FX/vm/dirty_background_ratio" ) &
knobber=$!
scr_fixture_run -b -q -w "$rec" -d 0.2 -n 40 || fail "recording exited $?: $(cat "$TMP/fx.err")"
[ -s "$TMP/fx.err" ] && fail "recording wrote to stderr: $(cat "$TMP/fx.err")"
wait $knobber

# Where the marks are, as the recording's own export says (line i, from
# 1, is the interval ending at sample i, counted from 0: shown as i + 1).
"$WBTOP" -r "$rec" --export json >"$TMP/nav.json" || fail "export failed"
python3 - "$TMP/nav.json" >"$TMP/marks" <<'PY' || fail "reading the export"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
dips = [i + 2 for i, o in enumerate(rows) if o["dip"] or any(d["dip"] for d in o["devices"])]
fixa = [i + 2 for i, o in enumerate(rows) if any(d["dip"] and d["name"] == "fixa" for d in o["devices"])]
knob = [i + 2 for i, o in enumerate(rows) if i > 0 and (o["knobs"] != rows[i - 1]["knobs"] or o["events"])]
exact = lambda ns: "%d.%09d" % divmod(ns, 10**9)
# the times of samples 10 and 31 (as shown: indices 9 and 30)
print(len(rows) + 1, dips[0] if dips else -1, knob[0] if knob else -1,
      exact(rows[8]["wall_ns"]), exact(rows[29]["wall_ns"]))
# where offsets from sample 10 land: the first sample at or after the time, from the times
# recorded (a loaded machine samples later than every 0.2 s), or the one before it when
# that is short of the time by less than a tenth of the interval
def at_or_after(ns):
    w = [o["wall_ns"] for o in rows]
    i = next((i for i, t in enumerate(w) if t >= ns), None)
    if i is None:
        return len(rows) + 1
    if i > 0 and (ns - w[i - 1]) * 10 < w[i] - w[i - 1]:
        i -= 1
    return i + 2
plus = at_or_after(rows[8]["wall_ns"] + 1100000000)
print(plus, at_or_after(rows[plus - 2]["wall_ns"] - 2100000000), fixa[0] if fixa else -1)
PY
{ read -r nsamples dip knob t10s t31s; read -r pos_plus pos_minus fixa_dip; } <"$TMP/marks"
[ "$nsamples" -eq 41 ] || fail "the recording holds $nsamples samples, want 41"
[ "$dip" -gt 15 ] || fail "no dip recorded where the scenario has one (first at $dip)"
[ "$knob" -gt 20 ] || fail "no knob change recorded (first at $knob)"
echo "recorded: $nsamples samples, first dip at sample $dip, knob change at $knob"

# The position on the top line, "sample I/N" (I counted from 1).
want_pos() {
	scr_wait_re "sample $1/$nsamples( |$)" "${2:-5}"
}

# --- open it paused: it opens on the first interval (sample 2)
scr_start 100 30 LANG=C.UTF-8 -- -r "$rec"
scr_wait "speed 1x" 10
scr_keys Space
scr_wait "PAUSED" 3
scr_keys t C-u start Enter
want_pos 1
grep -qF "replay nav.db" "$TMP/pane" || grep -qF "replay $rec" "$TMP/pane" || { scr_show; fail "the recording is not named"; }

# --- step: . and Right forward, , and Left back; not past the first
scr_keys .
want_pos 2
scr_keys Right Right
want_pos 4
scr_keys , Left
want_pos 2
scr_keys , ,
want_pos 1
scr_wait "at the first sample" 3
# a step shows that interval's rates, not a rate across the jump
scr_keys .
want_pos 2
scr_wait_re "^ fixa .* (1[89]|2[0-2])\.[0-9][0-9] " 3

# --- t: the end, the start, a time, an offset; nonsense is refused
# ("end" letter by letter: tmux would take the word for the End key)
scr_keys t C-u e n d Enter
want_pos 41
scr_keys t C-u start Enter
want_pos 1
scr_keys t C-u "$t10s" Enter
want_pos 10
# (offsets between two samples, about 0.2 s apart: where they land, from the recorded times)
scr_keys t C-u +1.1s Enter
want_pos "$pos_plus"
scr_keys t C-u -2.1s Enter
want_pos "$pos_minus"
scr_keys t C-u soon Enter
scr_wait "'soon': not a time" 3
want_pos "$pos_minus"

# --- ] to the dip: the top line says so, the graph shows what led to it
scr_keys ]
want_pos "$dip"
scr_wait "!DIP" 3
# fixa is marked there, or (at 0.2 s a pacing tick is half the level, and the first, partial
# interval of its drop is within one: the system line, judged as a whole, dips first) a
# sample or two on; stepped back after
[ "$fixa_dip" -ge "$dip" ] && [ "$fixa_dip" -le $((dip + 2)) ] ||
	fail "fixa's first dip at $fixa_dip, the first dip at $dip"
i=$dip
while [ $i -lt "$fixa_dip" ]; do scr_keys .; i=$((i + 1)); done
want_pos "$fixa_dip"
scr_cap >/dev/null
grep -q "^!fixa" "$TMP/pane" || { scr_show; fail "the dipping device is not marked at the dip"; }
while [ $i -gt "$dip" ]; do scr_keys ,; i=$((i - 1)); done
want_pos "$dip"
# the history before the jump target was filled in: a graph, not one column
grep -qE "last ([2-9]|[1-9][0-9])\.[0-9]s|last [0-9]+s" "$TMP/pane" || { scr_show; fail "the graph shows no history before the dip"; }
scr_keys [
scr_wait "no dip before this sample" 3
want_pos "$dip"

# --- } to the knob change: the knob row shows the new value
scr_keys t C-u start Enter
want_pos 1
scr_wait "background: ratio *10%" 3
scr_keys }
want_pos "$knob"
scr_wait "background: ratio *5%" 3
scr_keys {
scr_wait "no knob change before this sample" 3
scr_keys ,
scr_wait "background: ratio *10%" 3

# --- speed, then play to the end
scr_keys + +
scr_wait "speed 4x" 3
scr_keys -
scr_wait "speed 2x" 3
scr_keys Space
scr_wait "end of the recording" 15
want_pos 41
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }

# --- --begin/--end: only the samples between (10th to 31st: 22 of them)
# (it plays at once, 22 samples in some 4 s: any position, then paused at the start, which a
# loaded machine cannot run past, then the end)
scr_start 100 30 LANG=C.UTF-8 -- -r "$rec" --begin "$t10s" --end "$t31s"
scr_wait_re "sample [0-9]+/22( |$)" 10
scr_keys Space
scr_wait "PAUSED" 3
scr_keys t C-u start Enter
scr_wait_re "sample 1/22( |$)" 5
scr_keys t C-u e n d Enter
scr_wait_re "sample 22/22( |$)" 5
scr_quit

# Record FILE with a writer of COUNT samples in the background ($writer),
# replay it on the screen and catch up with its end: FOLLOWING.
follow_growing() {
	scr_fixture_run -b -q -w "$1" -d 0.2 -n "$2" &
	writer=$!
	on_exit "kill $writer 2>/dev/null"
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
	sleep 1
	scr_start 120 30 LANG=C.UTF-8 -- -r "$1"
	scr_wait "speed 1x" 10
	# (at 1x a replay started later stays as far behind: catch up first)
	scr_keys t C-u e n d Enter
	scr_wait "FOLLOWING" 10
}

# --- a recording still being written: followed, then ended by its writer
# (the writer runs until the screen has caught up, then is told to stop: a
# writer of a fixed length could end before a slow screen reaches FOLLOWING)
follow_growing "$TMP/grow.db" 1000
scr_cap >/dev/null
n1=$(head -1 "$TMP/pane" | sed -n 's/.*sample [0-9]*\/\([0-9]*\).*/\1/p')
sleep 1.5
scr_cap >/dev/null
n2=$(head -1 "$TMP/pane" | sed -n 's/.*sample [0-9]*\/\([0-9]*\).*/\1/p')
[ -n "$n1" ] && [ -n "$n2" ] && [ "$n2" -gt "$n1" ] || { scr_show; fail "a growing recording: the count did not grow ($n1 -> $n2)"; }
pkill -TERM -f -- "-w $TMP/grow.db" || fail "could not stop the writer"
wait $writer || fail "the writer failed: $(cat "$TMP/fx.err")"
scr_wait "end of the recording" 10
# every sample the writer took: the export has a header and one line an interval
n=$("$WBTOP" -r "$TMP/grow.db" --export csv | wc -l)
scr_wait_re "sample $n/$n( |$)" 3
scr_quit

# --- a recording whose writer was killed: still followed (a writer may only
# be slow), but after 10 s and three intervals without a sample the header
# says how long nothing has come
follow_growing "$TMP/dead.db" 1000
pkill -KILL -f -- "-w $TMP/dead.db" || fail "could not kill the writer"
scr_cap >/dev/null
grep -q "nothing new for" "$TMP/pane" && { scr_show; fail "a live writer was called idle"; }
scr_wait_re "FOLLOWING, nothing new for 1[0-9]s" 20
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"
