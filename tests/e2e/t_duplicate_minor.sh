#!/bin/sh
# One major:minor listed twice in a sample (a read torn by a rewrite, or a
# long /proc/diskstats whose device list changed between two read() calls),
# then once again.  Both lines used to get one identity, which the second
# device's vanishing released while the first still used it: freed two
# samples later, then read (found by t_long_run's churn under valgrind).
# The parser now keeps one line per major:minor.
. "$E2E_LIB"
need_root "it bind-mounts a fixture /proc/diskstats in a private mount namespace"

fx="$TMP/diskstats"
printf '   7       3 loop3 1 0 8 0 1 0 16 0 0 1 2\n' >"$fx"
cat >"$TMP/run.sh" <<EOS
mount --bind "$fx" /proc/diskstats || exit 90
(
	sleep 0.75
	printf '   7       3 loop3 2 0 8 0 2 0 16 0 0 1 2\n   7       3 zz3 2 0 8 0 2 0 16 0 0 1 2\n' >"$fx"
	for k in 3 4 5 6 7 8; do
		sleep 1
		printf '   7       3 loop3 %d 0 8 0 %d 0 16 0 0 1 2\n' \$k \$k >"$fx"
	done
) &
"$WBTOP" -b -a -d 1 -n 7 >"$TMP/out" 2>"$TMP/err"
echo \$? >"$TMP/rc"
wait
EOS
unshare -m --propagation private sh "$TMP/run.sh"
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] || { head -30 "$TMP/err"; fail "exit $rc"; }
[ -s "$TMP/err" ] && { head -30 "$TMP/err"; fail "wbtop wrote to stderr"; }
n=$(grep -c '^loop3 ' "$TMP/out")
[ "$n" -ge 5 ] || { cat "$TMP/out"; fail "loop3 shown in $n intervals, want 5 or more"; }
grep -q '^zz3 ' "$TMP/out" && { cat "$TMP/out"; fail "the duplicate line was shown as a device"; }
echo "ok: loop3 in $n intervals, the duplicate dropped"
