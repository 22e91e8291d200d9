#!/bin/sh
# The dips column, where the marks are certain: two recordings on fixture
# /proc data, A with two drops of a device to 30% (dips), B steady at the
# same level.  Compared, A has dips and B (next to) none, A's minimum
# and p5 are the drop's rate, its cv is higher; the means differ as the
# drops make them.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
scr_scenario <<'SCN'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=20480 util=60
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 2.5 fixa w=6144
at 3.5 fixa w=20480
at 5 fixa w=6144
at 6 fixa w=20480
SCN
scr_driver_start
scr_fixture_run -b -q -d 0.5 -n 14 -w "$TMP/a.wbrec" || fail "recording A: $(cat "$TMP/fx.err")"
scr_fixture_run -b -q -d 0.5 -n 10 -w "$TMP/b.wbrec" || fail "recording B: $(cat "$TMP/fx.err")"
"$WBTOP" --compare "$TMP/a.wbrec" "$TMP/b.wbrec" --format json >"$TMP/c.json" || fail "compare failed"
"$WBTOP" --compare "$TMP/a.wbrec" "$TMP/b.wbrec" --devices '^fixa$'
python3 - "$TMP/c.json" <<'PY' || fail "the figures of fixa are not the scenario's"
import json, sys
doc = json.load(open(sys.argv[1]))
d = [d for d in doc["devices"] if d["a"] and d["a"]["label"] == "fixa"][0]
a, b, ch = d["stats_a"], d["stats_b"], d["change_pct"]
print("A", a)
print("B", b)
# (a loaded machine samples late now and then, and the fixture's steady
# series is so quiet that a late sample can pass for a dip: B may have one;
# where the intervals fall against the second drop moves with the same
# lateness, and the detector has marked only the first: A has one or two)
assert a["dips"] >= 1 and b["dips_per_min"] < a["dips_per_min"] / 3 and ch["dips_per_min"] < -60, \
    (a["dips"], b["dips"], ch["dips_per_min"])
# (the fixture's counters move every 5 ms and a loaded machine samples late:
# an interval's rate is within about a fifth of the scenario's)
assert 4000 < a["min_kbps"] < 8000 and abs(b["min_kbps"] - 20480) < 4096, (a["min_kbps"], b["min_kbps"])
assert ch["min_kbps"] > 150 and ch["p5_kbps"] > 150, ch
assert a["cv_pct"] > 15 and b["cv_pct"] < 8 and ch["cv_pct"] < -60, (a["cv_pct"], b["cv_pct"])
assert 0 < ch["mean_kbps"] < 40, ch["mean_kbps"]
f = [d for d in doc["devices"] if d["a"] and d["a"]["label"] == "fixb"][0]
assert f["stats_a"]["dips"] <= 1 and f["stats_b"]["dips"] <= 1, "fixb kept its rate"
PY
exit 0
