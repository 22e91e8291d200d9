#!/bin/sh
# wbtop's vmstat and iostat -x figures agree with vmstat and iostat (sysstat)
# on the same fixture /proc data, interval by interval.
. "$E2E_LIB"
need_root "bind-mounts fixtures over /proc in a private mount namespace"
need_tool iostat sysstat
need_tool vmstat procps
grep -q ' vda ' /proc/diskstats || skip "the fixture is built on a vda device"
unshare -m --propagation private python3 "$(dirname "$E2E_LIB")/crosscheck.py" "$TMP" || fail "figures differ"
