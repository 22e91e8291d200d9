#!/bin/sh
# A real device on the screen: a loop device with an ext4 filesystem made
# by the test appears in the fixture diskstats under its own name and
# major:minor, so the table shows its readable name (mount point and
# filesystem, looked up live) and its page its identity and BDI limits.
# Its max_ratio is then changed from the page's knob panel (e), read back,
# shown, and undone.  Only the test's own loop device is touched.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
need_tool losetup mount
need_tool mkfs.ext4 e2fsprogs
make_loop_fs 32 "$TMP/mnt" || skip "no loop device available"
name=${LOOPDEV#/dev/}
majmin=$(cat "/sys/class/block/$name/dev")
bdi=/sys/class/bdi/$majmin
[ -w "$bdi/max_ratio" ] || skip "no writable BDI for $name"
orig=$(cat "$bdi/max_ratio")
on_exit "echo $orig >$bdi/max_ratio 2>/dev/null"

scr_scenario <<EOF
dev $name ${majmin%:*} ${majmin#*:}
at 0 $name w=4096 util=10
at 0 sys dirty=10240 wb=1024 dirtied=4096 written=4096
EOF
scr_start 160 40 -- -d 0.5

# --- the readable name: "loopN /mount/point ext4"
scr_wait "$name $TMP/mnt ext4" 10

# --- its page: identity and BDI limits
scr_keys Enter
scr_wait "kernel $name" 3
scr_wait "mounted $TMP/mnt" 3
scr_wait "fs ext4" 3
scr_wait "max_ratio $orig%" 3

# --- its BDI knobs: max_ratio to 50, shown, then undone
scr_keys e
scr_wait "BDI limits of $majmin" 3
scr_wait_re ">bdi:$name:min_ratio" 3
scr_keys Down Enter C-u 5 0
scr_wait_re "-> bdi:$name:max_ratio" 3
scr_keys Enter
scr_wait "bdi:$name:max_ratio $orig -> 50: ok" 3
[ "$(cat "$bdi/max_ratio")" = 50 ] || fail "max_ratio not written: $(cat "$bdi/max_ratio")"
scr_wait_re ">bdi:$name:max_ratio +50%" 3
# a BDI limit's ratio and bytes are two views of one value: no "in force" star
scr_cap >/dev/null
grep -E "bdi:$name:(min|max)_(ratio|bytes)" "$TMP/pane" | grep -qF '*' &&
	{ scr_show; fail "the BDI panel stars a view of a limit as in force"; }
# the page shows the new limit (identity refreshed after the write)
scr_keys Escape
scr_wait "max_ratio 50%" 3
scr_wait_mark "*" 3
scr_keys u
# (undo restores through max_ratio_fine where the kernel has it: exact)
scr_wait_re "bdi:$name:max_ratio[_a-z]* [0-9]+ -> [0-9]+: ok" 3
[ "$(cat "$bdi/max_ratio")" = "$orig" ] || fail "undo did not restore max_ratio: $(cat "$bdi/max_ratio")"
scr_wait "max_ratio $orig%" 3
scr_keys Escape
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"
