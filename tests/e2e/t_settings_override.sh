#!/bin/sh
# Command-line options win over the settings file: with a file asking for
# a 0.7 s interval and only fixb, "-d 0.5 --devices ^fixa$" shows fixa
# every 0.5 s, and a good file gives no warning.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

CFG=$TMP/cfg
mkdir -p "$CFG/wbtop"
printf 'delay = 0.7\nfilter = "^fixb$"\n' >"$CFG/wbtop/wbtoprc"

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=4096 util=20
EOF
scr_start 100 30 LANG=C.UTF-8 XDG_CONFIG_HOME="$CFG" -- -d 0.5 --devices '^fixa$'
scr_wait "interval 0.5s" 10
scr_wait "fixa" 5
scr_cap >/dev/null
grep -q "fixb" "$TMP/pane" && { scr_show; fail "--devices did not override the file's filter"; }
scr_quit
[ -s "$TMP/stderr" ] && fail "warnings for a good file: $(cat "$TMP/stderr")"
exit 0
