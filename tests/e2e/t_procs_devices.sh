#!/bin/sh
# -P's dev: the device each task writes to, from the files it has open for
# writing.  Two loop filesystems; a buffered writer on the first, an
# O_DIRECT writer on the second, and one task writing a file on each.  Each
# row of a writer names its device(s) (the one writing two files both); the
# rows add up to the totals, no share above 100.  wbtop starts once all
# three are writing, and they run until it has printed six tables.
. "$E2E_LIB"
. "$(dirname "$E2E_LIB")/procs_lib.sh"
need_root "makes loop filesystems"
make_loop_fs 512 "$TMP/a" || fail "could not make a loop filesystem"
la=$(basename "$LOOPDEV")
make_loop_fs 512 "$TMP/b" || fail "could not make a loop filesystem"
lb=$(basename "$LOOPDEV")
start_writer "$TMP/a/buffered"
wa=$WRITER_PID
start_writer -d "$TMP/b/direct"
wd=$WRITER_PID
start_writer "$TMP/a/two" "$TMP/b/two"
w2=$WRITER_PID
procs_wait_written "$TMP/a/buffered" "$TMP/b/direct" "$TMP/a/two" "$TMP/b/two"
"$WBTOP" -b -P -d 1 -n 1000 > "$TMP/out" 2> "$TMP/err" &
wb=$!
on_exit "kill $wb 2>/dev/null; wait $wb 2>/dev/null"
procs_wait_tables "$TMP/out" 6 $wb
for p in $wa $wd $w2; do kill -0 $p 2>/dev/null || fail "writer $p died"; done
kill -INT $wb
wait $wb
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "wbtop exited $rc: $(cat "$TMP/err")"
stderr_clean "$TMP/err" || fail "wbtop wrote to stderr: $(cat "$TMP/err")"

procs_rows "$TMP/out" > "$TMP/rows"
# fields: table pid state wkB/s share kind dev command...; from the second
# table on (the first has no rates) each writer wrote in every interval, and
# has its row there unless the table left rows out for lack of room (12: a
# busy machine's other writers may outrank it; seen with the kernel lab
# running beside: 19 tasks writing, 9 not shown)
awk '/^procs [0-9]+ tasks:/ { t++; if (t >= 2 && / more not shown/) print t }' "$TMP/out" > "$TMP/full"
check_dev() {	# pid want name
	awk -v pid=$1 '$1 >= 2 && $2 == pid' "$TMP/rows" > "$TMP/w"
	n=$(wc -l < "$TMP/w")
	left=$(awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$TMP/w" "$TMP/full" | wc -l)
	[ "$n" -ge 2 ] && [ $((n + left)) -ge 4 ] ||
		{ cat "$TMP/out"; fail "$3 (pid $1) in $n tables only ($left more left it out for room)"; }
	bad=$(awk -v want="$2" '$4 == "-" || $4 + 0 <= 0 || $7 != want' "$TMP/w")
	[ -z "$bad" ] || { cat "$TMP/out"; fail "$3: dev is not $2 or nothing written: $bad"; }
	echo "$3: $n rows on $2"
}
check_dev $wa "$la" "buffered writer"
check_dev $wd "$lb" "direct writer"
# the one writing two files: both, in the order of its descriptors
check_dev $w2 "$la,$lb" "writer of two files"
procs_check_sums "$TMP/out"
exit 0
