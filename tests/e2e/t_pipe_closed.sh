#!/bin/sh
# Every mode ends quietly with status 0 when its reader goes away (| head):
# batch text, json and openmetrics, --export csv and json, --compare,
# --annotate and --sysctl-conf alike -- not killed by SIGPIPE (141), no
# message.  The reader here is gone before wbtop writes its first byte.
. "$E2E_LIB"
rec=$TMP/p.db
"$WBTOP" -b -q -d 0.05 -n 20 -w "$rec" || fail "recording failed"
i=0
while [ $i -lt 200 ]; do
	echo "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----"
	echo " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"
	echo " 1  0      0 100000  10000 500000    0    0     0  5000  100  200  5  5 90  0  0"
	i=$((i + 1))
done >"$TMP/vmstat.log"
# wbtop ARGS... with standard output a pipe whose reader has exited
closed() {
	rm -f "$TMP/rc"
	{ sleep 0.3; "$WBTOP" "$@" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | true
	while [ ! -e "$TMP/rc" ]; do sleep 0.05; done
	rc=$(cat "$TMP/rc")
	[ "$rc" = 0 ] || fail "wbtop $*: exit $rc with the reader gone, want 0 ($(cat "$TMP/err"))"
	stderr_clean "$TMP/err" || fail "wbtop $*: wrote to stderr: $(cat "$TMP/err")"
	return 0
}
closed -b -d 0.05 -n 3
closed -b -d 0.05 -n 3 --format json
closed -b -d 0.05 -n 3 --format openmetrics
closed -r "$rec" -b
closed -r "$rec" --export csv
closed -r "$rec" --export json
closed --compare "$rec" "$rec"
closed --annotate "$TMP/vmstat.log"
closed --annotate - <"$TMP/vmstat.log"
closed --sysctl-conf
closed --help
echo "batch, export, compare, annotate and sysctl-conf all end with 0 when the reader is gone"
