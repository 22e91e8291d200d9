#!/bin/sh
# Saving the history (w): a dip seen on the live screen is kept after the
# fact.  The screen watches fixture data in which a device dips; w offers
# a file named after the time, saves the samples in memory to the path
# typed, and says how many; the file replays in batch mode (-r -b) with
# the figures and the dip mark the screen showed, and on the screen.  An
# existing file is never overwritten, and a directory that does not exist
# gets one clear message; the screen goes on.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario_dip
scr_start 100 30 LANG=C.UTF-8 -- -d 0.2
scr_wait "fixb" 10
# the dip comes at 5 s: a mark before it (a fixture driver starved on a loaded
# machine freezes its counters for a moment) is not the one to wait for
sleep 4
scr_wait "!fixa" 15	# the dip, live
sleep 1.5

# --- w: the prompt offers ./wbtop-YYYYmmdd-HHMMSS.db
scr_keys w
scr_wait "save the history to:" 3
scr_cap >/dev/null
tail -1 "$TMP/pane" | grep -qE "save the history to: \./wbtop-[0-9]{8}-[0-9]{6}\.db" ||
	{ scr_show; fail "w: no default file name offered"; }
scr_keys C-u "$TMP/saved.db" Enter
scr_wait_re "saved [0-9]+ samples \([0-9:]+ to [0-9:]+\) to $TMP/saved.db" 5
n=$(tail -1 "$TMP/pane" | sed -n 's/.*saved \([0-9]*\) samples.*/\1/p')
[ "$n" -ge 30 ] || { scr_show; fail "saved only $n samples of some 8 s at 0.2 s"; }
[ -s "$TMP/saved.db" ] || fail "no file at $TMP/saved.db"

# --- never over an existing file; a bad directory says so; the screen goes on
scr_keys w C-u "$TMP/saved.db" Enter
scr_wait "history not saved: $TMP/saved.db" 3
scr_keys w C-u "$TMP/no/such/dir/x.db" Enter
scr_wait "history not saved: $TMP/no/such/dir/x.db" 3
scr_keys w C-u Enter
scr_wait "history not saved: no file name given" 3
scr_wait "fixb" 3
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }

# --- the saved file is a recording: batch replay prints its intervals
"$WBTOP" -r "$TMP/saved.db" -b >"$TMP/replay.txt" 2>"$TMP/replay.err" ||
	fail "-r saved.db -b exited $?: $(cat "$TMP/replay.err")"
[ -s "$TMP/replay.err" ] && fail "-r saved.db -b wrote to stderr: $(cat "$TMP/replay.err")"
intervals=$(grep -c "^time " "$TMP/replay.txt")
[ "$intervals" -eq $((n - 1)) ] || { head -20 "$TMP/replay.txt"; fail "replay: $intervals intervals, want $((n - 1))"; }
# fixa at about 20 MB/s, as the fixture writes it
grep -qE "^fixa +[0-9.]+ +[0-9.]+ +[0-9.]+ +(19|20|21)[0-9]{3}\.[0-9]" "$TMP/replay.txt" ||
	{ head -20 "$TMP/replay.txt"; fail "replay: fixa's write rate"; }
# the dip the screen showed is in the file
grep -qE "^fixa .*<<<<<" "$TMP/replay.txt" || { grep fixa "$TMP/replay.txt"; fail "the saved history lost the dip"; }

# --- and it opens on the screen
scr_start 100 30 LANG=C.UTF-8 -- -r "$TMP/saved.db"
scr_wait_re "sample [0-9]+/$n( |$)" 10
scr_keys Space ]
scr_wait "!fixa" 5
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"
