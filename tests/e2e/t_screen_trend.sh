#!/bin/sh
# The gauge's forecasts ("grows ..., limit in ...  drains in ...") against
# periodic writeback: data is dirtied at a steady 10M/s and written in
# bursts (20M/s for 2.5 s, then nothing for 2.5 s).  The forecasts are
# averaged over the last 30 s and say so ("(30s avg)", at the end; less early on), so
# they do not flip between "drains in" and "nothing being written" from
# one interval to the next.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
# bursts: written 20M/s in [5k, 5k+2.5), nothing in [5k+2.5, 5k+5)
python3 - "$TMP/scn" <<'PY'
import sys
out = ["dev fixa 240 0"]
for k in range(0, 12):
    t = 5 * k
    out.append("at %g fixa w=20480 util=60" % t)
    out.append("at %g sys dirty=204800 wb=40960 dirtied=10240 written=20480" % t)
    out.append("at %g fixa w=0 util=0" % (t + 2.5))
    out.append("at %g sys dirty=204800 wb=40960 dirtied=10240 written=0" % (t + 2.5))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
scr_scenario <"$TMP/scn"
scr_start 80 24 LANG=C.UTF-8 -- -d 0.5 -a
scr_wait "fixa" 10
sleep 1
i=0
while [ $i -lt 12 ]; do
	scr_cap >/dev/null
	line=$(grep -E "^ +bg [0-9.]+[KMG] limit" "$TMP/pane")
	echo "$line" | grep -qE "\([0-9]+s avg\)" || { scr_show; fail "the forecast does not say its window"; }
	echo "$line" | grep -qF "drains in" || { scr_show; fail "the forecast flipped: $line"; }
	echo "$line" | grep -qF "nothing being written" && { scr_show; fail "the forecast flipped: $line"; }
	i=$((i + 1))
	sleep 0.5
done
scr_quit
echo "6 s of bursty writeback, every capture: $line"
