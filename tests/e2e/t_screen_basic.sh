#!/bin/sh
# The interactive monitor at 80x24 on fixture /proc data: the figures the
# scenario scripts show up where they belong, and every key of the main
# screen works (sort, filter, idle devices, delay, pause, help, detail,
# scrolling), a resize is followed, a too-small terminal gets a message,
# q restores the terminal.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
dev fixidle 240 32
dev fix10 240 48
dev fix9 240 64
at 0 fixa w=20480 util=60 flush=5
at 0 fixb w=4096 r=1024 util=20
at 0 sys dirty=204800 wb=40960 dirtied=25600 written=24576 run=2 blocked=1
EOF
scr_start 80 24 LANG=C.UTF-8 XDG_CONFIG_HOME="$TMP/cfg" -- -d 0.5

# --- the figures: vmstat line, gauge, knobs, devices sorted by writes
scr_wait "fixb" 10
sleep 1.5	# past the short first interval: whole intervals from here
scr_wait_re "fixa .* 2[01]\.[0-9][0-9] " 5
scr_cap >/dev/null
# (figures within a few percent: the fixture driver's timing wobbles on a busy machine)
grep -qE "bo 2[3-6]M" "$TMP/pane" || { scr_show; fail "80x24: bo"; }
for want in "wbtop" "interval 0.5s" "procs r 2 b 1" "Dirty 200M" "Writeback 40M" \
	    "bg 391M limit 781M" "ratio *20%" "=781M" \
	    "expire 30.00s" "writeback 5.00s" "DEVICE" "wMB/s" "system writes (bo)"; do
	grep -qF -- "$want" "$TMP/pane" || { scr_show; fail "80x24: missing '$want'"; }
done
# (dirty+writeback 240M, growing 1M/s towards 781M: 9 minutes; 24M/s written: 10 s)
grep -qE "limit in ([89]|10)m[0-9][0-9]s +drains in (9\.[5-9]|10\.[0-5]|1[01])s" "$TMP/pane" ||
	{ scr_show; fail "80x24: time to the limit or to drain"; }
[ "$(wc -L <"$TMP/pane")" -le 80 ] || { scr_show; fail "a line is wider than the terminal"; }
row_a=$(grep -n "fixa" "$TMP/pane" | head -1 | cut -d: -f1)
row_b=$(grep -n "fixb" "$TMP/pane" | head -1 | cut -d: -f1)
[ "$row_a" -lt "$row_b" ] || { scr_show; fail "not sorted by write throughput"; }
grep -q "fixidle" "$TMP/pane" && { scr_show; fail "an idle device is shown by default"; }
# fixb: read 1 MB/s, write 4 MB/s; the flush column is there (fixa flushes)
scr_line fixb | grep -qE " (0\.[89][0-9]|1\.[01][0-9]) +(3\.[6-9][0-9]|4\.[0-4][0-9]) " || { scr_show; fail "fixb's rMB/s wMB/s"; }
grep -qF "f/s" "$TMP/pane" || { scr_show; fail "no flush column although fixa flushes"; }
grep -qF "d/s" "$TMP/pane" && { scr_show; fail "a discard column without discards"; }

# --- sort: by name reversed puts fixb first; M back to writes
scr_keys N R
sleep 0.3
scr_cap >/dev/null
[ "$(grep -n fixb "$TMP/pane" | head -1 | cut -d: -f1)" -lt "$(grep -n fixa "$TMP/pane" | head -1 | cut -d: -f1)" ] ||
	{ scr_show; fail "N R: not sorted by name, reversed"; }
scr_keys M

# --- idle devices: a shows them, a again hides them
scr_keys a
scr_wait "fixidle" 3
scr_wait "+idle" 3
# by name, numbers as numbers: fix9 before fix10 (strcmp would put fix10 first)
scr_keys N
sleep 0.3
scr_cap >/dev/null
[ "$(grep -n " fix9 " "$TMP/pane" | head -1 | cut -d: -f1)" -lt "$(grep -n " fix10 " "$TMP/pane" | head -1 | cut -d: -f1)" ] ||
	{ scr_show; fail "N: fix10 sorted before fix9"; }
scr_keys M
scr_keys a
sleep 0.3
scr_cap | grep -q fixidle && { scr_show; fail "a did not hide idle devices again"; }

# --- filter: a regex keeps fixb only; an empty filter shows all again
scr_keys f C-u 'b$' Enter
scr_wait "filter: b\$" 3
scr_cap >/dev/null
grep -q "fixa" "$TMP/pane" && { scr_show; fail "the filter left fixa"; }
grep -q "fixb" "$TMP/pane" || { scr_show; fail "the filter hid fixb"; }
scr_keys f C-u '(' Enter
scr_wait "filter '(':" 3
scr_keys f C-u Enter
scr_wait "fixa" 3

# --- delay: the prompt, a bad value refused, a good one taken
scr_keys d C-u abc Enter
scr_wait "interval 'abc': give seconds" 3
scr_keys d C-u 2 Enter
scr_wait "interval 2s" 3
scr_keys d C-u 0.5 Enter
scr_wait "interval 0.5s" 3

# --- pause stops the clock on the top line; space again resumes
scr_keys Space
scr_wait "PAUSED" 3
t1=$(scr_cap | head -1 | cut -c7-14)
sleep 1.2
t2=$(scr_cap | head -1 | cut -c7-14)
[ "$t1" = "$t2" ] || { scr_show; fail "paused, but the time moved ($t1 -> $t2)"; }
scr_keys Space
sleep 1.2
scr_cap | grep -q PAUSED && { scr_show; fail "space did not resume"; }

# --- help lists the keys; any key leaves it
scr_keys h
scr_wait "keys" 3
scr_wait "filter devices by name or regex" 3
# the sort keys' line comes from the figure registry, worded as it always was
scr_wait "  M N T P       sort by write MB/s (the default), name, await, util" 3
scr_keys x
scr_wait "DEVICE" 3

# --- detail: Enter on the selected row (fixa), Esc back; Down selects fixb
scr_keys Home Enter
scr_wait "kernel fixa" 3
scr_wait "240:0" 3
scr_wait "last interval" 3
scr_keys Escape
scr_wait "DEVICE 1/2" 3
scr_keys Down
scr_wait "DEVICE 2/2" 3
scr_keys Enter
scr_wait "kernel fixb" 3
scr_keys Escape

# --- resize: wider shows more columns; too small gets a message; back again
$SCR_TMUX resize-window -x 110 -y 30
scr_wait "w_await" 5
$SCR_TMUX resize-window -x 50 -y 12
scr_wait "wbtop needs 64x16, this terminal is 50x12" 5
# narrower than the message: a shorter wording, the sizes whole
$SCR_TMUX resize-window -x 30 -y 12
scr_wait "needs 64x16, is 30x12" 5
$SCR_TMUX resize-window -x 10 -y 3
scr_wait "64x16>10x3" 5
# the smallest size that works: everything still there, the help scrolls
$SCR_TMUX resize-window -x 64 -y 16
scr_wait "DEVICE" 5
scr_cap >/dev/null
for want in "procs" "dirty [" "knobs" "fixa" "system writes"; do
	grep -qF -- "$want" "$TMP/pane" || { scr_show; fail "64x16: no '$want'"; }
done
scr_keys h
scr_wait "more below" 3
scr_keys NPage
scr_wait "marks" 3
scr_keys x
scr_wait "DEVICE" 3
$SCR_TMUX resize-window -x 80 -y 24
scr_wait "DEVICE" 5
scr_cap >/dev/null
grep -q "w_await" "$TMP/pane" && { scr_show; fail "80 columns after a resize still show w_await"; }

# --- W saves the view for the next start
scr_keys P a W
scr_wait "settings saved to $TMP/cfg/wbtop/wbtoprc" 3
for want in "delay = 0.5" "sort = \"util\"" "show_idle = yes"; do
	grep -q "^$want" "$TMP/cfg/wbtop/wbtoprc" || { cat "$TMP/cfg/wbtop/wbtoprc"; fail "W: no '$want' saved"; }
done

scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"
