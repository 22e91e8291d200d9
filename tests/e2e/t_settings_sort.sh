#!/bin/sh
# The settings file's sort and layout are applied when the screen starts
# (sort = "await" opens sorted by await; a layout with procs opens the
# process pane); a sort or layout the screen does not know gets a warning
# naming the file, on standard error and on the status line; W saves the
# layout shown.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

CFG=$TMP/cfg
mkdir -p "$CFG/wbtop"
RC=$CFG/wbtop/wbtoprc
# fixfast writes more; its many fast reads (0.5 ms each, writes 2 ms in
# the fixture) make its await the smaller one
scr_scenario <<'EOF'
dev fixfast 240 0
dev fixslow 240 16
at 0 fixfast w=40960 r=409600 util=60
at 0 fixslow w=2048 util=90
at 0 sys dirty=204800 wb=40960 dirtied=25600 written=24576
EOF
# The order of the two rows: "fast slow" or "slow fast".
order() { grep -o 'fix[a-z]*' "$TMP/pane" | tr '\n' ' ' | sed 's/fix//g; s/ $//'; }

printf 'sort = "wMB/s"\n' >"$RC"
scr_start 100 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" -- -d 0.3
scr_wait "fixslow" 10
sleep 0.7; scr_cap >/dev/null
[ "$(order)" = "fast slow" ] || { scr_show; fail "sort = wMB/s: want fixfast first, got $(order)"; }
scr_quit

printf 'sort = "await"\n' >"$RC"
scr_start 100 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" -- -d 0.3
scr_wait "fixslow" 10
sleep 0.7; scr_cap >/dev/null
[ "$(order)" = "slow fast" ] || { scr_show; fail "sort = await not applied: got $(order)"; }
# W saves the sort shown and the layout
scr_keys W
scr_wait "settings saved" 3
scr_quit
grep -qx 'sort = "await"' "$RC" || { cat "$RC"; fail "W did not keep sort = await"; }
grep -qx 'layout = "sys devices graph"' "$RC" || { cat "$RC"; fail "W wrote no layout line"; }

# a layout with procs: the process pane is open from the start; W keeps it
printf 'layout = "sys devices procs"\n' >"$RC"
scr_start 100 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" -- -d 0.3
scr_wait "PID" 10
scr_keys W
scr_wait "settings saved" 3
scr_quit
grep -qx 'layout = "sys devices procs"' "$RC" || { cat "$RC"; fail "W did not keep the procs layout"; }

# unknown values: one warning each on stderr, the first on the status line
printf 'sort = "nonsense"\nlayout = "weird"\n' >"$RC"
scr_start 140 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" -- -d 0.3
scr_wait "sort 'nonsense': not a column of the device table; ignored" 10
scr_quit
grep -qxF "wbtop: $RC: sort 'nonsense': not a column of the device table; ignored" "$TMP/stderr" ||
	{ scr_show; fail "no warning for sort = nonsense"; }
grep -qF "wbtop: $RC: layout 'weird': unknown pane 'weird'" "$TMP/stderr" ||
	{ scr_show; fail "no warning for layout = weird"; }
echo "sort and layout from the settings file applied, W saves both, unknown ones warned about"
