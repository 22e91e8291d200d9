#!/bin/sh
# Thousands of samples under valgrind with devices coming and going: no
# leak, no memory error, no growth.
# e2e: beside (its own mount namespace; valgrind's count and the RSS of two runs)
. "$E2E_LIB"
need_root "bind-mounts a fixture over /proc/diskstats in a private mount namespace"
need_tool valgrind valgrind
unshare -m --propagation private python3 "$(dirname "$E2E_LIB")/long_run.py" "$TMP" || fail "leak, error or growth"
