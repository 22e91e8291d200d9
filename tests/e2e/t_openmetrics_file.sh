#!/bin/sh
# wbtop -b --format openmetrics -o FILE, the way node_exporter's textfile
# collector wants it: FILE is replaced atomically (a reader never sees a
# partial exposition, even while wbtop rewrites it every 50 ms), readable by
# another user (0644 under umask 022), with no temporary file left behind
# and nothing on standard output; a FILE that cannot be written gives one
# error line naming it and a non-zero exit.
. "$E2E_LIB"
CHECK="python3 $(dirname "$E2E_LIB")/om_check.py"
dir=$TMP/textfile
mkdir -p "$dir"
prom=$dir/wbtop.prom

# --- one shot, as from cron or a systemd timer
(umask 022; "$WBTOP" -b --format openmetrics -n 1 -o "$prom") >"$TMP/out" 2>"$TMP/err" ||
	fail "wbtop exited $?: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "printed to stdout with -o: $(head -3 "$TMP/out")"
stderr_clean "$TMP/err" || fail "stderr: $(cat "$TMP/err")"
$CHECK --count 1 "$prom" || fail "$prom is not one valid exposition"
[ "$(stat -c %a "$prom")" = 644 ] || fail "mode $(stat -c %a "$prom"), want 644"
[ "$(ls -A "$dir")" = wbtop.prom ] || fail "left behind: $(ls -A "$dir")"

# --- a second run replaces the file (never appends)
"$WBTOP" -b --format openmetrics -n 1 -o "$prom" 2>"$TMP/err" || fail "second run: $(cat "$TMP/err")"
$CHECK --count 1 "$prom" || fail "second run: not one exposition"

# --- atomic replacement under a reader: every read is one whole exposition
"$WBTOP" -b --format openmetrics -d 0.05 -n 60 -o "$prom" 2>"$TMP/err" &
pid=$!
on_exit "kill $pid 2>/dev/null"
python3 - "$prom" "$pid" <<'EOF' || fail "a reader saw a partial or invalid file"
import os, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
reads, stamps = 0, set()
def alive():
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
while alive():
    with open(path) as f:
        text = f.read()
    reads += 1
    if not (text.startswith("# HELP ") and text.endswith("\n# EOF\n") and text.count("# EOF") == 1):
        print(f"read {reads}: {len(text)} bytes, ends {text[-40:]!r}")
        sys.exit(1)
    for line in text.splitlines():
        if line.startswith("wbtop_sample_timestamp_seconds "):
            stamps.add(line)
print(f"{reads} reads, {len(stamps)} different samples")
sys.exit(0 if reads > 20 and len(stamps) >= 10 else 1)
EOF
wait $pid || fail "wbtop exited $?: $(cat "$TMP/err")"
$CHECK --count 1 "$prom" || fail "after the run: not one exposition"
[ "$(ls -A "$dir")" = wbtop.prom ] || fail "left behind: $(ls -A "$dir")"

# --- a symlink keeps pointing at the replaced file; /dev/stdout is written to
ln -s wbtop.prom "$dir/link.prom"
"$WBTOP" -b --format openmetrics -n 1 -o "$dir/link.prom" 2>"$TMP/err" || fail "through a symlink: $(cat "$TMP/err")"
[ -L "$dir/link.prom" ] || fail "the symlink was replaced by a file"
$CHECK --count 1 "$prom" || fail "through a symlink: the target is not one exposition"
rm "$dir/link.prom"
"$WBTOP" -b --format openmetrics -n 1 -o /dev/stdout 2>"$TMP/err" | $CHECK --count 1 - || fail "-o /dev/stdout: $(cat "$TMP/err")"
[ -c /dev/stdout ] || [ -L /dev/stdout ] || fail "/dev/stdout was replaced"

# --- a file that cannot be written: one line naming it, non-zero exit
"$WBTOP" -b --format openmetrics -n 1 -o "$TMP/no/such/dir/wbtop.prom" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] || fail "missing directory: exit 0"
[ $rc -lt 64 ] || fail "missing directory: exit $rc (a crash or a sanitizer?): $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "want one error line, got: $(cat "$TMP/err")"
grep -q "^wbtop: $TMP/no/such/dir/wbtop.prom: No such file or directory" "$TMP/err" ||
	fail "error does not name the file: $(cat "$TMP/err")"

mkdir "$dir/adir"
"$WBTOP" -b --format openmetrics -n 1 -o "$dir/adir" >"$TMP/out" 2>"$TMP/err" && fail "a directory as FILE: exit 0"
grep -q "^wbtop: $dir/adir: " "$TMP/err" || fail "error does not name the directory: $(cat "$TMP/err")"
[ "$(ls -A "$dir")" = "adir
wbtop.prom" ] || fail "left behind: $(ls -A "$dir")"
exit 0
