#!/bin/sh
# Run every end-to-end test (tests/e2e/t_*.sh) against $WBTOP.
# A test exits 0 (pass), 77 (skip: it printed why) or anything else (fail).
# Set E2E_ONLY=pattern to run a subset.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${WBTOP:?set WBTOP to the binary under test}"
export WBTOP
export WBTOP_PLAIN="${WBTOP_PLAIN:-$WBTOP}"
export E2E_LIB="$here/lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=98}"
pass=0 fail=0 skip=0 failed=""
for t in "$here"/t_*.sh; do
	name=$(basename "$t" .sh)
	case "$name" in *${E2E_ONLY:-}*) ;; *) continue ;; esac
	log=$(mktemp /tmp/wbtop-e2e.XXXXXX)
	start=$(date +%s)
	timeout 300 sh "$t" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)  pass=$((pass + 1)); echo "PASS $name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $name: $(grep -m1 '^SKIP' "$log" | sed 's/^SKIP:* *//')" ;;
	*)  fail=$((fail + 1)); failed="$failed $name"; echo "FAIL $name (exit $rc, ${secs}s)"; sed 's/^/    | /' "$log" | tail -40 ;;
	esac
	rm -f "$log"
done
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
