#!/bin/sh
# make check: unit tests, end-to-end tests and bounded fuzzing, all against
# the AddressSanitizer + UndefinedBehaviorSanitizer build.  It ends with the
# ten slowest tests and their times, then one line counting every unit check,
# end-to-end test and fuzz target.
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98"
times="$build/check-times"
: >"$times"
started=$(date +%s)
f=0
step() { # name, command...: its output shown and kept
	name=$1; shift
	echo "== $name"
	"$@" | tee "$build/check-$name.log"
}
# a pipeline's status is its last command's: the step's own is kept apart
run_status() { "$@"; echo $? >"$build/check-status"; }
unit() { run_status env UNIT_TIMES="$root/$times" "$build/san/unit-tests"; }
e2e() {
	WBPROBE="$root/$build/san/wbprobe" WBTOP="$root/$build/san/wbtop" WBTOP_PLAIN="$root/wbtop" \
		E2E_TIMES="$root/$times" run_status sh tests/e2e/run.sh
}
fuzz() { FUZZ_TIMES="$root/$times" run_status sh tests/fuzz/run.sh "$build"; }
failed_steps=""
for s in unit e2e fuzz; do
	[ $s = fuzz ] && ! [ -f tests/fuzz/run.sh ] && continue
	step $s $s
	[ "$(cat "$build/check-status")" = 0 ] || { f=$((f + 1)); failed_steps="$failed_steps $s"; echo "== $s FAILED"; }
done
# what each step counted
u=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\)$/\1 \2 \3/p' \
	"$build/check-unit.log" | tail -1)
set -- ${u:-0 0 0}
up=$(($1 - $2 - $3)) uf=$(($2 + $3))
e=$(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
	"$build/check-e2e.log" | tail -1)
set -- ${e:-0 0 0}
ep=$1 ef=$2 es=$3
fp=$(grep -c '^fuzz .*no crash$' "$build/check-fuzz.log" 2>/dev/null)
ff=$(grep -c '^fuzz .*FAILED' "$build/check-fuzz.log" 2>/dev/null)
echo "== the ten slowest (seconds; $((($(date +%s) - started) / 60)) min $((($(date +%s) - started) % 60)) s in all)"
sort -rn "$times" | head -10 | awk '{ printf "%8.1f  %s %s\n", $1, $2, $3 }'
echo "unit: $up passed, $uf failed; e2e: $ep passed, $ef failed, $es skipped; fuzz: ${fp:-0} passed, ${ff:-0} failed"
# a step that failed without counting a failure (a runner that crashed) counts one
for s in $failed_steps; do
	case $s in
	unit) [ $uf -gt 0 ] || uf=1 ;;
	e2e) [ $ef -gt 0 ] || ef=1 ;;
	fuzz) [ "${ff:-0}" -gt 0 ] || ff=1 ;;
	esac
done
[ $f -eq 0 ] || echo "check: these steps failed:$failed_steps (see == ... FAILED above)"
echo "check: $((up + ep + ${fp:-0})) passed, $((uf + ef + ${ff:-0})) failed, $es skipped"
[ $f -eq 0 ]
