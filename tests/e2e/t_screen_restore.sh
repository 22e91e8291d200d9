#!/bin/sh
# --restore-on-exit: a knob changed from the screen (dirty_bytes set, which
# zeroes dirty_ratio) is put back when wbtop quits, by writing the member
# that was in force at start (dirty_ratio 20), on fixture copies of
# /proc/sys/vm/dirty_* (the host's knobs are never touched).
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
scr_scenario <<'EOF2'
dev fixa 240 0
at 0 fixa w=20480 util=60
at 0 sys dirty=204800 wb=40960 dirtied=20480 written=20480 thresh=auto bg=auto
EOF2
knob() { cat "$FX/vm/$1"; }

scr_start 80 24 -- -d 0.5 --restore-on-exit
scr_wait "fixa" 10
scr_keys e
scr_wait "writeback knobs" 3
# dirty_bytes is two rows below dirty_ratio in the panel
scr_keys Down Down
scr_wait_re ">vm.dirty_bytes" 3
scr_keys Enter C-u 6 4 M Enter
scr_wait "vm.dirty_bytes 0 -> 67108864 (64.0M): ok" 3
[ "$(knob dirty_bytes)" = 67108864 ] || fail "dirty_bytes not written: $(knob dirty_bytes)"
# A fixture file is not the kernel: do what the kernel does to the partner.
echo 0 >"$FX/vm/dirty_ratio"
scr_keys Escape
scr_wait "DEVICE" 3
scr_keys q
i=0
while [ ! -e "$TMP/rc" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$TMP/rc")" = 0 ] || fail "wbtop exited $(cat "$TMP/rc"): $(cat "$TMP/stderr")"
[ "$(knob dirty_ratio)" = 20 ] || fail "dirty_ratio not restored: $(knob dirty_ratio)"
echo "dirty_bytes 64M set on the screen; on quitting dirty_ratio 20 was restored"
