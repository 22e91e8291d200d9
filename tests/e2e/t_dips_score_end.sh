#!/bin/sh
# The live corpus' scorer (tests/dips/score.py, make dips-eval) leaves the end of a workload
# unscored (issue 29: the end may be marked live at first, --compare does not count it): a
# device idle from the burst's end to the end of the run, marked all along, is neither a mark
# after the burst nor a false one. Idle for less than 10 s, before the device writes again, the
# same marks are scored: 3 after the burst, and the one past the 1.5 s after it is false.
# e2e: beside (fixed files, no timing)
. "$E2E_LIB"
root=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
# burst.json: 40 one-second frames of loop1 (and the system line); it writes 200 MiB/s up to
# second 20, then nothing, each idle second marked; in "back" it writes again at second 24
frames() {
	back=$1
	i=0
	while [ $i -lt 40 ]; do
		t=$((1000 + i))
		if [ $i -le 20 ] || { [ "$back" = yes ] && [ $i -ge 24 ]; }; then w=204800; dip=false
		else w=0; dip=true; fi
		printf '{"wall_ns": %d000000000, "dt_s": 1.0, "status": "ok", "dip": false, "sys": {"bo_kbps": 204800.0}, "devices": [{"name": "loop1", "status": "ok", "wkb_s": %d.0, "dip": %s}]}\n' \
			"$t" "$w" "$dip"
		i=$((i + 1))
	done
}
for case in end back; do
	mkdir -p "$TMP/$case" || fail "mkdir"
	if [ $case = end ]; then frames no; else frames yes; fi >"$TMP/$case/burst.json"
	printf 'device loop1 0 0 0\nburst loop1 0 1000.0 1020.0\n' >"$TMP/$case/burst.labels"
	python3 "$root/tests/dips/score.py" "$TMP/$case" >"$TMP/$case.out" 2>&1
	echo "$case: $(grep '^burst' "$TMP/$case.out")"
done
grep -q '^burst .* 0 .*marks after the burst 0$' "$TMP/end.out" ||
	fail "an idle end to the run was scored: $(cat "$TMP/end.out")"
grep -Eq '^burst +- +- +- +0 +1 .*marks after the burst 3$' "$TMP/back.out" ||
	fail "3 marked idle seconds before the device wrote again were not scored: $(cat "$TMP/back.out")"
exit 0
