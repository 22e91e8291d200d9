#!/bin/sh
# wbtop's vmstat and iostat -x figures agree with vmstat and iostat (sysstat)
# on the same fixture /proc data, interval by interval.  (It failed once beside
# a five-run make check series and a build: a starved tool read the next step.)
. "$E2E_LIB"
need_root "bind-mounts fixtures over /proc in a private mount namespace"
need_tool iostat sysstat
need_tool vmstat procps
grep -q ' vda ' /proc/diskstats || skip "the fixture is built on a vda device"
# the fixture's writer and the three tools at a real-time priority (the tools inherit it):
# each steps half a second from the others, which a loaded machine must not starve away
unshare -m --propagation private $RT python3 "$(dirname "$E2E_LIB")/crosscheck.py" "$TMP" || fail "figures differ"
