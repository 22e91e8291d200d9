#!/bin/sh
# The dip corpus scored again (issue 29): every committed recording of tests/dips/corpus (the
# lab's runs on Debian's 6.1 and 6.12, the host's loop-device runs) judged by the wbtop under
# test from its first sample, and its marks scored against the labels (tests/dips/lab_score.py).
# The table must be the one doc/dips.md gives (tests/dips/expected-score.txt: a change of the
# rule changes it, on purpose only), and the held-out part must meet the targets the table
# says it meets.
# e2e: beside (fixed files, no timing)
. "$E2E_LIB"
root=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
corpus=$root/tests/dips/corpus
[ -d "$corpus" ] || fail "no corpus at $corpus"
python3 "$root/tests/dips/lab_score.py" "$WBTOP_PLAIN" "$corpus" --split "$root/tests/dips/split.txt" \
	>"$TMP/score" 2>"$TMP/err"
rc=$?
[ $rc -le 1 ] || fail "lab_score.py exited $rc: $(cat "$TMP/err")"
cat "$TMP/score"
want=$root/tests/dips/expected-score.txt
diff -u "$want" "$TMP/score" >"$TMP/diff" ||
	fail "the corpus scores differently from $want (re-run: sh tests/e2e/run.sh t_dips_corpus): $(cat "$TMP/diff")"
# the scenarios of every part are there: a recording that stopped being read would leave
# the table shorter and the totals better
for part in thread40_d1 thread10_d1 inject_d1 thread40_d5 thread10_d5 inject_d5; do
	n=$(grep -c "/$part " "$TMP/score")
	[ "$n" -ge 4 ] || fail "$part: scored $n times, not on 2 kernels at 2 bus speeds"
done
# the committed labels are the labeller's: labelled again from what they keep (each interval's
# true rate, injection, whether the writers ran) and the recordings, nothing changes
cp -R "$corpus" "$TMP/relabel" || fail "cannot copy $corpus"
python3 "$root/tests/dips/lab_labels.py" --relabel "$WBTOP_PLAIN" "$TMP/relabel" >"$TMP/relabel.out" 2>&1 ||
	fail "lab_labels.py --relabel failed: $(cat "$TMP/relabel.out")"
diff -r "$corpus" "$TMP/relabel" >"$TMP/relabel.diff" ||
	fail "the committed labels are not the labeller's: $(head -c 2000 "$TMP/relabel.diff")"
exit 0
