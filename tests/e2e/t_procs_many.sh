#!/bin/sh
# -P with thousands of processes, some exiting between (and during)
# samples: every sample counts them all, and nothing crashes.
. "$E2E_LIB"
n=3000
pids=""
i=0
while [ $i -lt $n ]; do
	sleep 60 &
	pids="$pids $!"
	i=$((i + 1))
done
on_exit "kill $pids 2>/dev/null"
# Churn: short-lived processes coming and going the whole time; the
# 0.3 s sleepers make sure some are seen in one sample and gone by the next
# (the /bin/true ones are often too quick to be seen at all).
( while :; do /bin/true; done ) &
churn=$!
( while :; do sleep 0.3; done ) &
churn2=$!
on_exit "kill $churn $churn2 2>/dev/null"
"$WBTOP" -b -P -d 0.5 -n 4 > "$TMP/out" 2> "$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
[ -s "$TMP/err" ] && fail "wbtop wrote to stderr: $(cat "$TMP/err")"
tables=$(grep -c '^procs [0-9]* tasks:' "$TMP/out")
[ "$tables" -eq 4 ] || { cat "$TMP/out"; fail "expected 4 process tables, got $tables"; }
least=$(awk '/^procs [0-9]+ tasks:/ { if (min == "" || $2 < min) min = $2 } END { print min }' "$TMP/out")
echo "fewest tasks in a sample: $least"
[ "$least" -ge $n ] || fail "a sample counted $least tasks, fewer than the $n running"
grep -q '^procs .* [1-9][0-9]* exited' "$TMP/out" || { head -3 "$TMP/out"; fail "no exited processes counted"; }
exit 0
