#!/bin/sh
# The process pane and the device page count the writers of each device:
# two loop filesystems, a buffered writer on the first and one writing a
# file on each.  The pane names their devices (dev); the first device's page
# (Enter) says 2 writers, the second's 1; with processes not sampled it
# says how to get the count.  The writers run while the test looks.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
. "$(dirname "$0")/procs_lib.sh"
need_root "makes loop filesystems"
scr_setup_live
make_loop_fs 512 "$TMP/a" || fail "could not make a loop filesystem"
la=$(basename "$LOOPDEV")
make_loop_fs 512 "$TMP/b" || fail "could not make a loop filesystem"
lb=$(basename "$LOOPDEV")
start_writer "$TMP/a/one"
w1=$WRITER_PID
start_writer "$TMP/a/two" "$TMP/b/two"
w2=$WRITER_PID
procs_wait_written "$TMP/a/one" "$TMP/a/two" "$TMP/b/two"

scr_start_live 160 45 LANG=C.UTF-8 -- -d 0.5
scr_wait "DEVICE" 10
# processes not sampled: the page says how to count
scr_keys f C-u "^$la\$" Enter
scr_wait_re "^ $la " 5
scr_keys Enter
scr_wait "writers - (p: sample processes)" 5
scr_keys Escape
scr_wait "DEVICE" 5
scr_keys p
scr_wait "processes (p: close)" 3
scr_wait_re "^ *$w2 [A-Z] .* $la,$lb " 10
scr_wait_re "^ *$w1 [A-Z] .* $la " 10
scr_keys Enter
scr_wait_re "writers 2( |\$)" 10
scr_keys Escape
scr_keys f C-u "^$lb\$" Enter
scr_wait_re "^ $lb " 5
scr_keys Enter
scr_wait_re "writers 1( |\$)" 10
scr_keys Escape
scr_wait "DEVICE" 5
scr_quit
stderr_clean "$TMP/stderr" || { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "$la: 2 writers, $lb: 1"
exit 0
