#!/bin/sh
# The settings file belongs to the screen: batch mode (-b, every --format)
# does not read it, so a script or a metrics timer gives the same output
# whatever someone saved on the screen.  Even an unreadable or malformed
# file gives no warning there.
. "$E2E_LIB"
CFG=$TMP/cfg
mkdir -p "$CFG/wbtop"
printf 'delay = 0.2\nfilter = "^no-such-device$"\nbogus\n' >"$CFG/wbtop/wbtoprc"

XDG_CONFIG_HOME=$CFG "$WBTOP" -b --format json -n 1 >"$TMP/out" 2>"$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
stderr_clean "$TMP/err" || fail "batch mode read the settings file: $(cat "$TMP/err")"
python3 - "$TMP/out" <<'EOF' || fail "batch mode used the settings file"
import json, sys
o = json.loads(open(sys.argv[1]).readline())
if not 0.8 <= o["dt_s"] <= 1.5:
    sys.exit(f"interval {o['dt_s']} s: the file's delay was applied (default is 1 s)")
if not o["devices"]:
    sys.exit("no devices: the file's filter was applied")
EOF
exit 0
