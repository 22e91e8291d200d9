#!/bin/sh
# Every sink's output for the kept recordings and logs is byte for byte what
# tests/golden/expected holds (tests/golden/run.sh): batch text, JSON,
# OpenMetrics, the CSV and JSON exports, --compare, --plot, --annotate.
# A change of output is made on purpose: run.sh WBTOP update, and say why.
# e2e: beside (fixed input files, no timing, no host state)
. "$E2E_LIB"
sh "$(dirname "$E2E_LIB")/../golden/run.sh" "$WBTOP" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "golden outputs changed"; }
tail -1 "$TMP/out"
exit 0
