#!/bin/sh
# The process pane (p) on this machine: a dd writing with O_DIRECT to a
# loop-device filesystem shows up as a writer with its rate and share of
# the device traffic; the summary counts throttled tasks while processes
# are sampled; p closes the pane (the graph comes back) and -P opens it
# from the start.  Then, under dirty limits set low (4 MiB, background
# 1 MiB), a buffered dd is seen held in balance_dirty_pages: marked in the
# pane and counted on the summary line.  The dirty knobs are restored.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
need_root "makes a loop filesystem and sets vm.dirty_bytes"
scr_setup_live
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 2048 "$TMP/mnt" || fail "could not make a loop filesystem"
loop=$(basename "$LOOPDEV")

# --- an O_DIRECT writer (4 KiB writes: some 40 MB/s, for a minute or so)
dd if=/dev/zero of="$TMP/mnt/direct" bs=4k count=500000 oflag=direct 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null"
scr_start_live 120 40 LANG=C.UTF-8 -- -d 0.5
scr_wait "DEVICE" 10
scr_cap >/dev/null
grep -q "^procs r [0-9]* b [0-9]* thr" "$TMP/pane" && { scr_show; fail "a throttled count before processes are sampled"; }
scr_keys p
scr_wait "processes (p: close)" 3
# dd's row: pid, state, a write rate, its share of bo, ..., the command
row="^ *$ddpid [A-Z] +[0-9.]+[KMG] +[0-9.]+ .* dd( [^ ].*)? *\$"
scr_wait_re "$row" 10
scr_cap >/dev/null
grep -qE "^procs r [0-9]+ b [0-9]+ thr [0-9]+ " "$TMP/pane" || { scr_show; fail "no throttled count on the summary line"; }
grep -qE "^ tasks [0-9]+  writing [0-9]+ at [0-9.]+[KMG]/s  bo [0-9.]+[KMG]/s  throttled [0-9]+ \((wchan, best effort|trace)\)" "$TMP/pane" ||
	{ scr_show; fail "the pane's totals"; }
grep -qE "PID S write/s share%  cpu% thr wait" "$TMP/pane" || { scr_show; fail "the pane's header"; }
share=$(grep -E "$row" "$TMP/pane" | awk '{ print $4 }')
awk -v s="$share" 'BEGIN { exit !(s > 0) }' || { scr_show; fail "dd's share of the device traffic: $share%"; }
echo "dd: $(grep -E "$row" "$TMP/pane")"
# kswapd is always listed among the kernel's threads
grep -qE " kswapd[0-9]+ *\$" "$TMP/pane" || { scr_show; fail "kswapd not in the pane"; }

# --- p closes it: the graph again, no throttled count
scr_keys p
scr_wait "system writes (bo)" 3
scr_cap >/dev/null
grep -q "processes (p: close)" "$TMP/pane" && { scr_show; fail "p did not close the pane"; }
grep -q "^procs r [0-9]* b [0-9]* thr" "$TMP/pane" && { scr_show; fail "a throttled count with the pane closed"; }
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
kill $ddpid 2>/dev/null
wait $ddpid 2>/dev/null
rm -f "$TMP/mnt/direct"

# --- -P: open from the start; a buffered writer held by the dirty limits
echo $((4 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"
echo $((1024 * 1024)) > $vm/dirty_background_bytes || fail "could not set vm.dirty_background_bytes"
dd if=/dev/zero of="$TMP/mnt/big" bs=1M count=1800 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null"
scr_start_live 120 40 LANG=C.UTF-8 -- -P -d 0.5
scr_wait "processes (p: close)" 5
# best effort: seen in balance_dirty_pages at the instant of a sample; the frame that shows it
# is the one checked (a capture after it may be a sample where dd was not paused)
scr_wait_re "^ *$ddpid D .* yes +dirty-limit .* dd( [^ ].*)? *\$" 20
grep -qE "^procs r [0-9]+ b [0-9]+ thr [1-9]" "$TMP/pane" || { scr_show; fail "the summary does not count the throttled dd"; }
grep -qE "throttled [1-9][0-9]* \((wchan, best effort|trace)\)" "$TMP/pane" || { scr_show; fail "the pane's totals do not count it"; }
# the loop device's flush worker, attributed to it
grep -qE " $loop +flusher " "$TMP/pane" || echo "(no flush worker of $loop in this frame: they take turns)"
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
kill $ddpid 2>/dev/null
restore_dirty_knobs
echo "ok"
