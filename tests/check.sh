#!/bin/sh
# make check: unit tests, end-to-end tests and bounded fuzzing, all against
# the AddressSanitizer + UndefinedBehaviorSanitizer build.  The end-to-end
# tests mostly wait for wbtop's intervals (a quarter of two cores busy), so
# the unit tests and the fuzzing, pure CPU that touches no host state, run
# beside them, niced; their output follows.  The layering check comes first.  It ends with the ten slowest
# tests and their times, then one line counting every unit check,
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
# a pipeline's status is its last command's: each step's own is kept apart
run_status() { "$@"; echo $? >"$build/check-status.$name"; }
unit() { run_status env UNIT_TIMES="$root/$times" nice -n 10 "$build/san/unit-tests"; }
e2e() { # lane
	WBPROBE="$root/$build/san/wbprobe" WBTOP="$root/$build/san/wbtop" WBTOP_PLAIN="$root/wbtop" \
		E2E_TIMES="$root/$times" E2E_LANE=$1 run_status sh tests/e2e/run.sh
}
beside() { e2e beside; }
fuzz() { FUZZ_TIMES="$root/$times" run_status nice -n 10 sh tests/fuzz/run.sh "$build"; }
steps="unit e2e beside"
[ -f tests/fuzz/run.sh ] && steps="$steps fuzz"
for name in $steps; do echo 1 >"$build/check-status.$name"; done
# The layers first (a second): no file reaches above its own layer, no circle, in the
# includes or in the objects' symbols (tools/layers.py, doc/design.md).
echo "== layers"
lp=1 lf=0
python3 tools/layers.py --objs "$build/obj" --strict >"$build/check-layers.log" 2>&1 || lp=0 lf=1
if [ $lf = 1 ]; then cat "$build/check-layers.log"; echo "== layers FAILED"; else tail -1 "$build/check-layers.log"; fi
# unit, the e2e tests marked "beside", then fuzz, in the background into
# their logs; the other e2e tests shown as they run
(for name in $steps; do [ $name = e2e ] || $name >"$build/check-$name.log" 2>&1; done) &
bg=$!
echo "== e2e (unit tests, the e2e tests marked beside and fuzzing run beside it: their output follows)"
name=e2e
e2e main 2>&1 | tee "$build/check-e2e.log"
wait $bg
failed_steps=""
for name in $steps; do
	[ $name = e2e ] || { echo "== $name$([ $name = beside ] && echo " (e2e)")"; cat "$build/check-$name.log"; }
	[ "$(cat "$build/check-status.$name")" = 0 ] ||
		{ f=$((f + 1)); failed_steps="$failed_steps $name"; echo "== $name FAILED"; }
done
# what each step counted
u=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\)$/\1 \2 \3/p' \
	"$build/check-unit.log" | tail -1)
set -- ${u:-0 0 0}
up=$(($1 - $2 - $3)) uf=$(($2 + $3))
ep=0 ef=0 es=0
for l in e2e beside; do
	e=$(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' \
		"$build/check-$l.log" | tail -1)
	set -- ${e:-0 0 0}
	ep=$((ep + $1)) ef=$((ef + $2)) es=$((es + $3))
done
fp=$(grep -c '^fuzz .*no crash$' "$build/check-fuzz.log" 2>/dev/null)
ff=$(grep -c '^fuzz .*FAILED' "$build/check-fuzz.log" 2>/dev/null)
echo "== the ten slowest (seconds; $((($(date +%s) - started) / 60)) min $((($(date +%s) - started) % 60)) s in all)"
sort -rn "$times" | head -10 | awk '{ printf "%8.1f  %s %s\n", $1, $2, $3 }'
echo "unit: $up passed, $uf failed; e2e: $ep passed, $ef failed, $es skipped; fuzz: ${fp:-0} passed, ${ff:-0} failed"
# a step that failed without counting a failure (a runner that crashed) counts one
for s in $failed_steps; do
	case $s in
	unit) [ $uf -gt 0 ] || uf=1 ;;
	e2e | beside) [ $ef -gt 0 ] || ef=1 ;;
	fuzz) [ "${ff:-0}" -gt 0 ] || ff=1 ;;
	esac
done
[ $lf = 0 ] || { f=$((f + 1)); failed_steps="$failed_steps layers"; }
[ $f -eq 0 ] || echo "check: these steps failed:$failed_steps (see == ... FAILED above)"
echo "check: $((up + ep + ${fp:-0} + lp)) passed, $((uf + ef + ${ff:-0} + lf)) failed, $es skipped"
[ $f -eq 0 ]
