#!/bin/sh
# The dip detector's figures on the labelled live corpus (make dips-eval): drops found,
# missed, false marks per 100 steady device-intervals.  Needs root; a few minutes.
root=${1:?usage: dips_bench.sh ROOT}
sh "$root/tests/dips/corpus.sh" "$root/wbtop"
rc=$?
# a skip (not root, pv missing) or a target not met is a figure, not a failure of the bench
case $rc in 0|1|77) exit 0 ;; esac
exit $rc
