#!/bin/sh
# The dip detector's accuracy on the committed corpus (tests/dips/corpus: the lab's runs on
# Debian's 6.1 and 6.12, the host's loop-device runs), every scenario judged again by this
# wbtop: dips found by depth, false marks per 100 steady device-intervals, the ratio-40
# runs' holes of bo; the training part and the held-out part (tests/dips/split.txt) apart.
# Its cost an interval is detect_bench.  A target not met is a figure here, not a failure.
root=${1:?usage: dips_bench.sh ROOT}
python3 "$root/tests/dips/lab_score.py" "$root/wbtop" "$root/tests/dips/corpus" \
	--split "$root/tests/dips/split.txt"
rc=$?
case $rc in 0|1) exit 0 ;; esac
exit $rc
