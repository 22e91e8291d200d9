#!/bin/sh
# Run the end-to-end tests (tests/e2e/t_*.sh) against $WBTOP: every one, the
# ones named as arguments (sh tests/e2e/run.sh t_json t_record), or those whose
# name contains $E2E_ONLY.  A test exits 0 (pass), 77 (skip: it printed why)
# or anything else (fail).  A failure prints the command that runs it alone
# and the end of its output, whose last FAIL line says what was expected and
# what came.  With E2E_TIMES=FILE each test's seconds are added to FILE
# ("seconds name" lines, for tests/check.sh's table of the slowest).
# A test whose verdict holds however busy the machine is and that reads no
# host state another test changes (a fixture in its own namespace, a build,
# valgrind's count) says so with a line "# e2e: beside"; make check runs
# those beside the others (E2E_LANE=beside), the rest one at a time
# (E2E_LANE=main).  Without E2E_LANE every test runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${WBTOP:?set WBTOP to the binary under test}"
export WBTOP
export WBTOP_PLAIN="${WBTOP_PLAIN:-$WBTOP}"
export E2E_LIB="$here/lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=98}"
if [ $# -gt 0 ]; then
	tests=""
	for n in "$@"; do
		n=${n%.sh}; n=${n##*/}
		[ -f "$here/$n.sh" ] || { echo "e2e: no test $n in $here" >&2; exit 2; }
		tests="$tests $here/$n.sh"
	done
else
	tests=$(ls "$here"/t_*.sh)
fi
pass=0 fail=0 skip=0 failed=""
for t in $tests; do
	name=$(basename "$t" .sh)
	case "$name" in *${E2E_ONLY:-}*) ;; *) continue ;; esac
	if [ -n "${E2E_LANE:-}" ]; then
		lane=main
		grep -q '^# e2e: beside' "$t" && lane=beside
		[ "$lane" = "$E2E_LANE" ] || continue
	fi
	log=$(mktemp /tmp/wbtop-e2e.XXXXXX)
	start=$(date +%s.%N)
	timeout 300 sh "$t" >"$log" 2>&1
	rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	[ -n "${E2E_TIMES:-}" ] && echo "$secs e2e $name" >>"$E2E_TIMES"
	case $rc in
	0)  pass=$((pass + 1)); echo "PASS $name (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP $name: $(grep -m1 '^SKIP' "$log" | sed 's/^SKIP:* *//')" ;;
	*)  fail=$((fail + 1)); failed="$failed $name"
	    why=$(grep '^FAIL' "$log" | tail -1)
	    [ $rc = 124 ] && why="timed out after 300 s"
	    echo "FAIL $name (exit $rc, ${secs}s): ${why#FAIL: }"
	    echo "    re-run alone: WBTOP=$WBTOP WBTOP_PLAIN=$WBTOP_PLAIN sh tests/e2e/run.sh $name"
	    echo "    its output (last 40 lines):"
	    sed 's/^/    | /' "$log" | tail -40 ;;
	esac
	rm -f "$log"
done
[ -n "$failed" ] && echo "e2e failed:$failed"
echo "e2e: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
