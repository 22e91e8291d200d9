#!/bin/sh
# The checker the OpenMetrics tests rely on (om_check.py) is not vacuous:
# it accepts a minimal valid exposition and rejects each kind of mistake a
# writer could make, with a message saying which.
# e2e: beside (the checker on fixed text)
. "$E2E_LIB"
CHECK="python3 $(dirname "$E2E_LIB")/om_check.py"

good='# HELP a_bytes A gauge.
# TYPE a_bytes gauge
# UNIT a_bytes bytes
a_bytes{device="sda",m="q\"b\\\\s\nn"} 1.5e3
# HELP b_ops A counter.
# TYPE b_ops counter
b_ops_total 7
# EOF'
printf '%s\n' "$good" >"$TMP/good"
$CHECK "$TMP/good" || fail "rejects a valid exposition"
[ "$($CHECK --get a_bytes device=sda "$TMP/good")" = 1500 ] || fail "--get"
$CHECK --count 2 "$TMP/good" 2>/dev/null && fail "--count 2 accepted one exposition"

# expect_bad NAME MESSAGE-PART TEXT: TEXT (a newline added) must be refused
expect_bad() {
	printf '%s\n' "$3" >"$TMP/bad"
	$CHECK "$TMP/bad" 2>"$TMP/err" && fail "$1: accepted"
	grep -q -- "$2" "$TMP/err" || fail "$1: message lacks '$2': $(cat "$TMP/err")"
}
H='# HELP x X.
# TYPE x gauge'
expect_bad "no EOF" "no # EOF" "$H
x 1"
expect_bad "blank line" "blank line" "$H

x 1
# EOF"
expect_bad "interleaved" "interleaved" "$H
x 1
# HELP y Y.
# TYPE y gauge
y 1
# HELP x X.
# EOF"
expect_bad "counter without _total" "must be named c_total" "# HELP c C.
# TYPE c counter
c 1
# EOF"
expect_bad "gauge named _total" "reserved suffix" "# HELP g_total G.
# TYPE g_total gauge
g_total 1
# EOF"
expect_bad "bad escape" 'invalid escape' "$H
x{a=\"\\t\"} 1
# EOF"
expect_bad "raw quote" "expected , or }" "$H
x{a=\"q\"q\"} 1
# EOF"
expect_bad "same series twice" "the same series twice" "$H
x{a=\"1\"} 1
x{a=\"1\"} 2
# EOF"
expect_bad "label twice" "label a twice" "$H
x{a=\"1\",a=\"2\"} 1
# EOF"
expect_bad "timestamp" "timestamps" "$H
x 1 1700000000
# EOF"
expect_bad "unit not a suffix" "does not end in _bytes" "# HELP x X.
# TYPE x gauge
# UNIT x bytes
x 1
# EOF"
expect_bad "info type" "textfile collector" "# HELP x X.
# TYPE x info
x_info 1
# EOF"
expect_bad "escaped quote in HELP" "0.0.4 parser" '# HELP x say \"hi\".
# TYPE x gauge
x 1
# EOF'
expect_bad "text after EOF" "after # EOF" "$H
x 1
# EOF
$H"
expect_bad "negative counter" "negative" "# HELP c C.
# TYPE c counter
c_total -1
# EOF"
expect_bad "no TYPE" "no TYPE" "# HELP x X.
x 1
# EOF"
expect_bad "trailing blank" "trailing blanks" "$H
x 1 
# EOF"
expect_bad "not a number" "not a number" "$H
x one
# EOF"
expect_bad "free comment" "no free comments" "$H
# just a note
x 1
# EOF"
printf '# HELP x X.\n# TYPE x gauge\nx{a="\377"} 1\n# EOF\n' >"$TMP/bad"
$CHECK "$TMP/bad" 2>"$TMP/err" && fail "non-UTF-8: accepted"
grep -q "not valid UTF-8" "$TMP/err" || fail "non-UTF-8: $(cat "$TMP/err")"
exit 0
