#!/bin/sh
# Run every fuzz target for FUZZ_SECONDS (default 10) from its seed corpus
# (tests/fuzz/seeds/<name>/, copied: the run adds to the copy only).
# Any crash, leak, timeout or sanitizer report fails the run; the input that
# did it is kept in build/fuzz/artifacts/.
set -u
build=${1:-build}
secs=${FUZZ_SECONDS:-10}
here=$(cd "$(dirname "$0")" && pwd)
art="$build/fuzz/artifacts"
mkdir -p "$art"
fail=0
for bin in "$build"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin" | sed 's/^fuzz_//')
	corpus=$(mktemp -d /tmp/wbtop-corpus.XXXXXX)
	[ -d "$here/seeds/$name" ] && cp -r "$here/seeds/$name/." "$corpus/" 2>/dev/null
	log="$build/fuzz/$name.log"
	start=$(date +%s)
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art/$name-" "$corpus" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "fuzz $name: ${secs}s, ${runs:-?} inputs, no crash"
	else
		echo "fuzz $name: FAILED (see $log)"
		grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5
		fail=1
	fi
	[ -n "${FUZZ_TIMES:-}" ] && echo "$(($(date +%s) - start)) fuzz $name" >>"$FUZZ_TIMES"
	rm -rf "$corpus"
done
exit $fail
