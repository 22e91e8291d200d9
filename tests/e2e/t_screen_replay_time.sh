#!/bin/sh
# The replay's time prompt: it offers the time of the sample shown, and a
# key typed replaces the offer instead of appending to it ("start" typed at
# once goes to the start, not "07:27:11start"); Enter alone takes it.
# "+1s" at 0.25 s intervals moves four samples, where the recorded times
# put them (a sample a few microseconds short of the time counts).  At 80
# columns the top line keeps "interval" whole; the help lists c.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
scr_scenario <<'EOF'
dev fixa 240 0
at 0 fixa w=20480 util=60
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
EOF
rec=$TMP/time.db
scr_fixture_run -b -q -w "$rec" -d 0.25 -n 24 || fail "recording exited $?: $(cat "$TMP/fx.err")"
"$WBTOP" -r "$rec" --export json >"$TMP/t.json" || fail "export failed"
# From sample 5 (as shown, counted from 1), where +1s lands by the rule.
land=$(python3 - "$TMP/t.json" <<'PY'
import json, sys
w = [json.loads(l)["wall_ns"] for l in open(sys.argv[1])]	# w[j]: sample j + 2 as shown
ns = w[3] + 10**9
i = next((i for i, t in enumerate(w) if t >= ns), len(w) - 1)
if i > 0 and (ns - w[i - 1]) * 10 < w[i] - w[i - 1]:
    i -= 1
print(i + 2)
PY
) || fail "reading the export"
n=25
scr_start 100 30 LANG=C.UTF-8 -- -r "$rec"
scr_wait "speed 1x" 10
scr_keys Space
scr_wait "PAUSED" 3
# typing replaces the offered time
scr_keys t
scr_wait_re "end\): [0-9]{2}:[0-9]{2}:[0-9]{2}" 3
scr_keys s t a r t Enter
scr_wait_re "sample 1/$n( |$)" 5
grep -q "not a time" "$TMP/pane" && { scr_show; fail "typing appended to the offered time"; }
# Enter alone takes the time offered (whole seconds) as it is
for i in 2 3 4 5; do
	scr_keys .
	scr_wait_re "sample $i/$n( |$)" 5
done
scr_keys t Enter
sleep 0.3
scr_cap >/dev/null
grep -q "not a time" "$TMP/pane" && { scr_show; fail "the offered time is not taken"; }
scr_keys t C-u x 5 Enter
scr_wait "'x5': not a time" 3
scr_keys t C-u s t a r t Enter
scr_wait_re "sample 1/$n( |$)" 5
for i in 2 3 4 5; do
	scr_keys .
	scr_wait_re "sample $i/$n( |$)" 5
done
# backspace edits the offer rather than replacing it
scr_keys t BSpace
scr_wait_re "end\): [0-9]{2}:[0-9]{2}:[0-9] ?$" 3
scr_keys Escape
# +1s: four samples at 0.25 s
scr_keys t + 1 s Enter
scr_wait_re "sample $land/$n( |$)" 5
[ "$land" = 9 ] || echo "note: the recorded times put +1s at sample $land (a loaded machine)"
scr_quit

# at 80 columns the top line keeps the interval whole beside PAUSED (the
# file name goes first), and the help lists c
scr_start 80 24 LANG=C.UTF-8 -- -r "$rec"
scr_wait "speed 1x" 10
scr_keys Space
scr_wait "PAUSED" 3
scr_cap >/dev/null
head -1 "$TMP/pane" | grep -qE "interval 0\.2[0-9]*s .*PAUSED" || { scr_show; fail "80 columns: the top line cuts the interval"; }
scr_keys h
scr_wait "confirm knob changes" 3
scr_keys x
scr_quit
echo "the time prompt's offer is replaced by typing; +1s from sample 5 went to sample $land"
