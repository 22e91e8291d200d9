#!/bin/sh
# Make the golden recordings (tests/golden/data/a.wbrec, b.wbrec) once, on
# fixture /proc data (tests/e2e/screen_lib.sh): A, two devices with two dips
# of fixa to 30% and vm.dirty_background_ratio 10 -> 5 in the middle; B, the
# same devices steady.  Kept in git: they are the input of every golden
# output (tests/golden/run.sh), so they are made again only on purpose.
#   E2E_LIB=$PWD/tests/e2e/lib.sh WBTOP=$PWD/wbtop sh tests/golden/record.sh
. "$E2E_LIB"
. "$(dirname "$E2E_LIB")/screen_lib.sh"
out=$(cd "$(dirname "$0")/data" && pwd)
scr_setup
scr_scenario <<'SCN'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 2.5 fixa w=6144
at 3.5 fixa w=20480
at 5 fixa w=6144
at 6 fixa w=20480
SCN
scr_driver_start
( sleep 4.2; echo 5 >"$FX/vm/dirty_background_ratio" ) &
rm -f "$out/a.wbrec" "$out/b.wbrec"
scr_fixture_run -b -q -d 0.5 -n 16 -w "$out/a.wbrec" || fail "recording A: $(cat "$TMP/fx.err")"
wait
scr_fixture_run -b -q -d 0.5 -n 12 -w "$out/b.wbrec" || fail "recording B: $(cat "$TMP/fx.err")"
ls -l "$out"
