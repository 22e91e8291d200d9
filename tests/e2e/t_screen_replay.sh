#!/bin/sh
# The screen records (-w) and replays (-r): a session on fixture data is
# recorded from the screen, then the same screen shows the recording with
# the same figures, and knobs are read-only on a replay.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=4096 r=1024 util=20
at 0 sys dirty=204800 wb=40960 dirtied=25600 written=24576
EOF

# --- record from the screen
scr_start 80 24 -- -d 0.5 -w "$TMP/rec.db"
scr_wait "REC" 10
scr_wait "fixb" 5
sleep 3
scr_quit
[ -s "$TMP/rec.db" ] || fail "no recording written"

# --- replay it on the screen (fast: one sample per 0.05 s)
scr_start 80 24 -- -r "$TMP/rec.db" -d 0.05
scr_wait "end of the recording" 10
scr_cap >/dev/null
# (at 80 columns the path gives way to the file's name; the position stays)
head -1 "$TMP/pane" | grep -qF "replay rec.db" || { scr_show; fail "the top line does not name the recording"; }
head -1 "$TMP/pane" | grep -qE "sample ([0-9]+)/\1 " || { scr_show; fail "the top line does not say it is at the last sample"; }
# (loose: on a loaded machine the driver's timing wobbles a little)
grep -qE "^ fixa .* (1[6-9]|2[0-4])\.[0-9][0-9] " "$TMP/pane" || { scr_show; fail "replay: fixa's write rate"; }
grep -qE "bo 2[0-9]M" "$TMP/pane" || { scr_show; fail "replay: bo"; }
grep -qF "Dirty 200M" "$TMP/pane" || { scr_show; fail "replay: the gauge"; }
grep -qF " up " "$TMP/pane" && { scr_show; fail "replay: an uptime (of this machine) is shown"; }
# knobs can't be changed on a replay
scr_keys e
scr_wait "read-only: replaying a recording" 3
scr_keys Escape
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }

# --- a file that is not a recording: one line naming it, no screen
echo "not a recording" >"$TMP/bad.db"
scr_start 80 24 -- -r "$TMP/bad.db"
scr_ended "-r bad.db" 1
[ "$(wc -l <"$TMP/stderr")" -eq 1 ] && grep -q "^wbtop: $TMP/bad.db: " "$TMP/stderr" ||
	{ cat "$TMP/stderr"; fail "-r bad.db: want one line naming the file"; }
echo "ok"
