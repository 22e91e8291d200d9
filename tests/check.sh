#!/bin/sh
# make check: unit tests, end-to-end tests and bounded fuzzing, all against
# the AddressSanitizer + UndefinedBehaviorSanitizer build.
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98"
p=0 f=0 s=0
step() { # name, command...
	name=$1; shift
	echo "== $name"
	if "$@"; then p=$((p + 1)); else f=$((f + 1)); echo "== $name FAILED"; fi
}
step unit "$build/san/unit-tests"
WBPROBE="$root/$build/san/wbprobe" WBTOP="$root/$build/san/wbtop" WBTOP_PLAIN="$root/wbtop" step e2e sh tests/e2e/run.sh
if [ -f tests/fuzz/run.sh ]; then
	step fuzz sh tests/fuzz/run.sh "$build"
fi
echo "check: $p passed, $f failed"
[ $f -eq 0 ]
