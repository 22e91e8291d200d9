#!/bin/sh
# The layering check (tools/layers.py, in make check) passes on the tree, and
# fails on a copy of it with an include of a layer above, with a local extern
# of a function above (only the symbol graph sees that), with a circle, and
# with a function not named after its file.
# e2e: beside (reads files and objects only)
. "$E2E_LIB"
top=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
objs=$(dirname "$WBTOP")	# the sanitized build's objects, one folder a layer
python3 "$top/tools/layers.py" --objs "$objs" --strict > "$TMP/out" 2>&1 ||
	{ cat "$TMP/out"; fail "the tree breaks its own layers"; }
grep -q "^layers: 0 edges up, 0 circles, 0 modules in no layer, 0 functions not named after their file$" "$TMP/out" || { cat "$TMP/out"; fail "no clean count"; }

copy() {
	rm -rf "$TMP/tree" "$TMP/objs"
	mkdir -p "$TMP/tree" "$TMP/objs"
	cp -r "$top/src" "$top/include" "$top/tools" "$TMP/tree/"
	for l in util core source rec sink screen run; do cp -r "$objs/$l" "$TMP/objs/"; done
}
expect() { # what, line wanted
	if python3 "$TMP/tree/tools/layers.py" --objs "$TMP/objs" --strict > "$TMP/out" 2>&1; then
		cat "$TMP/out"; fail "$1: the check passed (re-run: sh tests/e2e/run.sh t_layers)"
	fi
	grep -qF "$2" "$TMP/out" || { cat "$TMP/out"; fail "$1: expected '$2'"; }
}

copy
echo '#include "run/run.h"' >> "$TMP/tree/src/core/cmpstat.c"
expect "an include of run from core" "includes: up: cmpstat (core) -> run (run)"

copy
printf 'extern int run_batch(const void *o);\nint cmpstat_sneak(void);\nint cmpstat_sneak(void) { return run_batch(0); }\n' \
	> "$TMP/sneak.c"
cc -c -o "$TMP/objs/core/cmpstat.o" "$TMP/sneak.c" || fail "cannot compile the sneak"
expect "a local extern of run_batch from core" "symbols: up: cmpstat (core) -> run_batch (run)"

copy
printf 'int cmpstat_fine(void);\nint stat_helper(void);\nint stat_helper(void) { return 1; }\nint cmpstat_fine(void) { return stat_helper(); }\n' \
	> "$TMP/misnamed.c"
cc -c -o "$TMP/objs/core/cmpstat.o" "$TMP/misnamed.c" || fail "cannot compile the misnamed"
expect "a function not named after its file" "names: cmpstat defines stat_helper"

copy
echo '#include "sink/history.h"' >> "$TMP/tree/src/sink/batch.c"
echo '#include "sink/batch.h"' >> "$TMP/tree/src/sink/history.c"
expect "two sinks including each other" "includes: circle: batch <-> history"
exit 0
