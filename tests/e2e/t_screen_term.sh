#!/bin/sh
# Terminals and ways out: vt100 in the C locale with NO_COLOR (ASCII
# glyphs, no colour codes, marks still visible), screen with --no-color,
# an unknown TERM and no terminal at all (one clear line, no curses mess),
# a bad --devices regex, and SIGTERM and Ctrl-C restoring the terminal.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 sys dirty=204800 wb=40960 dirtied=28672 written=28672
at 6 fixa w=6144
EOF

esc=$(printf '\033')
# --- vt100, C locale, NO_COLOR: plain ASCII, no colours, '!' and '^' marks
scr_start 80 24 TERM=vt100 LANG=C LC_ALL=C NO_COLOR=1 -- -d 0.5
scr_wait "fixb" 10
scr_wait "!fixa" 12
scr_wait_re "\^" 3
$SCR_TMUX capture-pane -p -e >"$TMP/pane.e"
scr_cap >/dev/null
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$TMP/pane" && { scr_show; fail "vt100/C: non-ASCII bytes on the screen"; }
grep -qE "$esc\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7])(;[0-9;]*)?m" "$TMP/pane.e" && { cat -v "$TMP/pane.e"; fail "NO_COLOR: colour codes sent"; }
grep -qE "^dirty \[#+=*\.*\|?\.*\]" "$TMP/pane" || { scr_show; fail "vt100: the ASCII gauge"; }
grep -qF "!DIP" "$TMP/pane" || { scr_show; fail "vt100: no !DIP"; }
grep -qE '^ +[0-9.]+[KMG]/s +[#.]' "$TMP/pane" || { scr_show; fail "vt100: the ASCII graph"; }
# the selected row is still marked without colour (reverse video)
grep -qE "$esc\[[0-9;]*7[0-9;]*m" "$TMP/pane.e" || { cat -v "$TMP/pane.e"; fail "vt100: no reverse video for the selection"; }
scr_quit

# --- screen with --no-color: UTF-8 glyphs, still no colour
scr_start 80 24 TERM=screen LANG=C.UTF-8 -- -d 0.5 --no-color
scr_wait "fixb" 10
$SCR_TMUX capture-pane -p -e >"$TMP/pane.e"
grep -qE "$esc\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7])(;[0-9;]*)?m" "$TMP/pane.e" && { cat -v "$TMP/pane.e"; fail "--no-color: colour codes sent"; }
scr_cap | grep -qF "█" || { scr_show; fail "screen/UTF-8: no block glyphs"; }

# --- SIGTERM: exit 0, terminal restored
pid=$(scr_pid)
[ -n "$pid" ] || fail "no wbtop pid"
kill -TERM "$pid"
scr_ended "SIGTERM"
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "SIGTERM: wbtop wrote to stderr"; }

# --- Ctrl-C: the same
scr_start 80 24 -- -d 0.5
scr_wait "fixb" 10
scr_keys C-c
scr_ended "Ctrl-C"
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "Ctrl-C: wbtop wrote to stderr"; }

# --- an unknown terminal type: one line, exit 1, no curses output
scr_start 80 24 TERM=nosuchterm -- -d 0.5
scr_ended "TERM=nosuchterm" 1
[ "$(wc -l <"$TMP/stderr")" -eq 1 ] && grep -q "^wbtop: cannot use terminal type 'nosuchterm'" "$TMP/stderr" ||
	{ cat "$TMP/stderr"; fail "TERM=nosuchterm: want one line naming the terminal type"; }

# --- a bad --devices regex: one line naming it, exit 2
scr_start 80 24 -- --devices '('
scr_ended "--devices '('" 2
[ "$(wc -l <"$TMP/stderr")" -eq 1 ] && grep -q "^wbtop: --devices '(': " "$TMP/stderr" ||
	{ cat "$TMP/stderr"; fail "--devices '(': want one line naming the regex"; }
scr_stop

# --- not a terminal: one line, exit 1, nothing on stdout
"$WBTOP" </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || fail "no terminal: exit $rc, want 1"
[ -s "$TMP/out" ] && { cat -v "$TMP/out"; fail "no terminal: wrote to stdout"; }
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^wbtop: .*terminal.*-b" "$TMP/err" ||
	{ cat "$TMP/err"; fail "no terminal: want one line pointing at -b"; }
echo "ok"
