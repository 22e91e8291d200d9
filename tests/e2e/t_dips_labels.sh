#!/bin/sh
# The lab corpus' labeller (tests/dips/lab_labels.py) labels an interval only where its class
# is the same measured from the median of the 30 s about it and from the 15 s before it alone
# (issue 29: the rule sees no future, so a class that turns on what came after is none it
# could be held to). A disk writes 9 MiB/s for 20 s, then 6 (a neighbour took a share of the
# bus). Two seconds into the 6, the 30 s about the interval are mostly 6: steady; the 15 s
# before it are mostly 9: a third down, a dip. It is neither: skipped. Twenty seconds on, 6 is
# steady both ways, and a stop a dip. At 5 s the references span 15 intervals either side, not
# 15 s: three intervals at 1.2 MiB/s between stretches at 8 are a dip, not their own median.
# e2e: beside (no wbtop, fixed numbers)
. "$E2E_LIB"
root=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
python3 - "$root/tests/dips" >"$TMP/out" 2>&1 <<'PY' || fail "labeller check: $(cat "$TMP/out")"
import sys
sys.path.insert(0, sys.argv[1])
import lab_labels
S = 1_000_000_000
series = []
for k in range(60):
    kbps = 9216.0 if k < 20 else 6144.0
    if k == 45:
        kbps = 204.8       # a stop
    series.append((k * S, 1.0, kbps, None, kbps))
recs, (apart, ambiguous) = lab_labels.label_series("vda", "dm-0", series, 64.0, 10**30)
cls = {r["end_ns"] // S: r["class"] for r in recs}
for k, want in ((10, "steady"), (22, "skip"), (40, "steady"), (45, "dip")):
    assert cls[k] == want, "interval %d: %s, not %s" % (k, cls[k], want)
assert ambiguous > 0, ambiguous
series = []
for k in range(40):
    kbps = 1228.8 if 20 <= k < 23 else 8192.0 + (256.0 if k % 2 else -256.0)
    series.append((k * 5 * S, 5.0, kbps, None, kbps))
recs, _n = lab_labels.label_series("vda", "dm-0", series, 64.0, 10**30)
cls = {r["end_ns"] // (5 * S): r["class"] for r in recs}
for k, want in ((10, "steady"), (20, "dip"), (21, "dip"), (22, "dip"), (30, "steady")):
    assert cls[k] == want, "5 s interval %d: %s, not %s" % (k, cls[k], want)
print("ok: %d intervals the two references put apart" % ambiguous)
PY
cat "$TMP/out"
exit 0
