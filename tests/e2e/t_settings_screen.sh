#!/bin/sh
# The settings file ($XDG_CONFIG_HOME/wbtop/wbtoprc) is read when the screen
# starts: its interval, device filter and idle setting are in force; its
# malformed lines each get one warning naming the file and line on standard
# error ("wbtop: FILE:LINE: ..."), and the keys they would have set keep
# their defaults while the good lines still apply.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

CFG=$TMP/cfg
mkdir -p "$CFG/wbtop"
RC=$CFG/wbtop/wbtoprc
cat >"$RC" <<'EOF'
# written by hand
delay = 0.7
filter = "^fix(b|idle)$"
colour = red
show_idle = yes
dip = 500
delay
EOF

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
dev fixidle 240 32
at 0 fixa w=20480 util=60
at 0 fixb w=4096 util=20
at 0 sys dirty=204800 wb=40960 dirtied=25600 written=24576
EOF
scr_start 100 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" --

scr_wait "interval 0.7s" 10
scr_wait "fixidle" 5		# show_idle = yes
scr_wait "fixb" 5
scr_cap >/dev/null
grep -q "fixa" "$TMP/pane" && { scr_show; fail "the file's filter did not hide fixa"; }
scr_quit

grep -qxF "wbtop: $RC:4: unknown setting 'colour'; ignored" "$TMP/stderr" ||
	{ scr_show; fail "no warning for line 4"; }
grep -q "^wbtop: $RC:6: dip '500': " "$TMP/stderr" || { scr_show; fail "no warning for line 6"; }
grep -qxF "wbtop: $RC:7: expected KEY = VALUE, got 'delay'; ignored" "$TMP/stderr" ||
	{ scr_show; fail "no warning for line 7"; }
[ "$(grep -c "^wbtop: $RC:" "$TMP/stderr")" -eq 3 ] || { scr_show; fail "want exactly three warnings"; }
exit 0
