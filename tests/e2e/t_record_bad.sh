#!/bin/sh
# Files that are not (whole, readable) wbtop recordings get one clear line
# naming the file and a non-zero exit: never a crash, never output.
. "$E2E_LIB"
expect_err() { # file, pattern; replay -b, export and compare must all refuse
	for args in "-r $1 -b" "-r $1 --export csv" "--compare $1 $1"; do
		# shellcheck disable=SC2086
		"$WBTOP" $args >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ $rc -ne 0 ] && [ $rc -lt 90 ] || fail "$args: exit status $rc"
		[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$args: not one line: $(cat "$TMP/err")"
		grep -q "^wbtop: $1: $2" "$TMP/err" || fail "$args: $(cat "$TMP/err")"
		[ -s "$TMP/out" ] && [ "$args" != "-r $1 --export csv" ] && fail "$args printed output"
	done
	return 0
}
"$WBTOP" -b -q -w "$TMP/good.wbrec" -d 0.05 -n 30 || fail "recording failed"
expect_err "$TMP/none.wbrec" "No such file"
: >"$TMP/empty.wbrec"
expect_err "$TMP/empty.wbrec" "empty file, not a wbtop recording"
echo "time r b swpd" >"$TMP/text.wbrec"
expect_err "$TMP/text.wbrec" "not a wbtop recording"
size=$(wc -c <"$TMP/good.wbrec")
head -c $((size / 2)) "$TMP/good.wbrec" >"$TMP/half.wbrec"
expect_err "$TMP/half.wbrec" "truncated"
cp "$TMP/good.wbrec" "$TMP/newer.wbrec"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version=7"); c.commit()' "$TMP/newer.wbrec"
expect_err "$TMP/newer.wbrec" "recorded by a newer wbtop"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t(x)"); c.commit()' "$TMP/other.db"
expect_err "$TMP/other.db" "not a wbtop recording"
# damage inside: garbage over the second half of the pages
cp "$TMP/good.wbrec" "$TMP/bad.wbrec"
dd if=/dev/urandom of="$TMP/bad.wbrec" bs=4096 seek=3 count=$((size / 4096 - 3)) conv=notrunc 2>/dev/null
"$WBTOP" -r "$TMP/bad.wbrec" -b >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 90 ] || fail "damaged file: exit status $rc"
grep -q "^wbtop: $TMP/bad.wbrec: " "$TMP/err" || fail "damaged file: $(cat "$TMP/err")"
exit 0
