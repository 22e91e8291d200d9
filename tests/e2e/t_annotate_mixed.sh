#!/bin/sh
# --annotate on logs as the thread attached them (tests/e2e/data: excerpts of
# the thread's hand-marked vmstat and iostat traces in a mail, one with both
# sections plain among the mail's text, one with both quoted "> "): exit 0,
# every line back, and each section marked exactly as when it is annotated
# alone and unquoted.  tools/score-mixed scores them against the hand marks.
# e2e: beside (fixed files, no timing)
. "$E2E_LIB"
data=$(cd "$(dirname "$E2E_LIB")/data" && pwd)
root=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
strip() { sed -E 's/[ \t]*<{3,}[ \t]*$//' "$@"; }
# the line numbers wbtop marked in FILE's annotation
marked() { "$WBTOP" --annotate "$1" 2>/dev/null | grep -n '<<<<<$' | cut -d: -f1 | tr '\n' ' '; }
for f in thread-attached thread-quoted; do
	strip "$data/$f.txt" > "$TMP/$f"
	"$WBTOP" --annotate "$TMP/$f" > "$TMP/$f.out" 2> "$TMP/$f.err" ||
		fail "$f: exit $?: $(cat "$TMP/$f.err")"
	[ "$(strip "$TMP/$f.out")" = "$(cat "$TMP/$f")" ] || fail "$f: the lines did not come back as they were"
	grep -q "passed through unmarked" "$TMP/$f.err" || fail "$f: no note of the text passed through: $(cat "$TMP/$f.err")"
	[ -n "$(marked "$TMP/$f")" ] || fail "$f: nothing marked"
done
# quoted: the same marks, on the same lines, as the unquoted text
sed -E 's/^>[> \t]*//' "$TMP/thread-quoted" > "$TMP/unquoted"
[ "$(marked "$TMP/thread-quoted")" = "$(marked "$TMP/unquoted")" ] ||
	fail "quoted lines marked at $(marked "$TMP/thread-quoted"), unquoted at $(marked "$TMP/unquoted")"
# attached: each section alone (from its command line to the blank line after it)
# marks the same lines as in the mail
for tool in vmstat iostat; do
	start=$(grep -n "^\$ $tool" "$TMP/thread-attached" | cut -d: -f1)
	[ -n "$start" ] || fail "no $tool section in thread-attached"
	awk -v s="$start" 'NR >= s { if (NR > s && NF == 0) exit; print }' "$TMP/thread-attached" > "$TMP/$tool.alone"
	want=$(marked "$TMP/$tool.alone" | awk -v s="$start" '{ for (i = 1; i <= NF; i++) printf "%d ", $i + s - 1 }')
	got=$(marked "$TMP/thread-attached" | awk -v s="$start" -v n="$(wc -l < "$TMP/$tool.alone")" \
		'{ for (i = 1; i <= NF; i++) if ($i >= s && $i < s + n) printf "%d ", $i }')
	[ "$want" = "$got" ] || fail "$tool section: alone marks lines $want, in the mail $got"
done
python3 "$root/tools/score-mixed" "$WBTOP" "$data/thread-attached.txt" "$data/thread-quoted.txt" > "$TMP/score" ||
	fail "score-mixed: $(cat "$TMP/score")"
cat "$TMP/score"
exit 0
