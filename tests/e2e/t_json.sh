#!/bin/sh
# wbtop -b --format json streams JSON Lines: one object per interval, each
# line parsing on its own (python3 json), -n counting intervals as in text
# mode; the figures are this machine's (knobs as in /proc/sys/vm, every
# device of /proc/diskstats present, the interval as asked); -o FILE gets
# the same stream; a reader that goes away ends wbtop quietly.
. "$E2E_LIB"
knob_lock_shared	# the knobs it compares stay as they are meanwhile

# the machine before and after: devices or knobs may change meanwhile
look() { cp /proc/diskstats "$TMP/ds.$1"; for k in /proc/sys/vm/dirty*; do echo "${k##*/} $(cat "$k")"; done >"$TMP/vm.$1"; }
look before
"$WBTOP" -b --format json -n 3 -d 0.3 >"$TMP/out" 2>"$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
look after
stderr_clean "$TMP/err" || fail "stderr: $(cat "$TMP/err")"
python3 - "$TMP" <<'EOF' || fail "JSON Lines check failed"
import json, sys
tmp = sys.argv[1]
lines = open(tmp + "/out").read().split("\n")
if lines[-1] != "":
    sys.exit("the last line has no newline")
lines = lines[:-1]
if len(lines) != 3:
    sys.exit(f"{len(lines)} lines for -n 3")
def knobs(when):
    return {"vm." + k: int(v) for k, v in (l.split() for l in open(f"{tmp}/vm.{when}"))}
def disks(when):
    return {l.split()[2] for l in open(f"{tmp}/ds.{when}")}
knobs_seen = (knobs("before"), knobs("after"))
disks = disks("before") & disks("after")
prev = None
for n, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit(f"line {n}: {e}: {line[:80]}")
    if not isinstance(o, dict):
        sys.exit(f"line {n}: not an object")
    for key in ("schema", "time", "wall_ns", "dt_s", "status", "sys", "knobs", "dip", "devices", "events"):
        if key not in o:
            sys.exit(f"line {n}: no {key!r}")
    if o["status"] != "ok" or not 0.15 <= o["dt_s"] <= 0.6:
        sys.exit(f"line {n}: status {o['status']}, dt_s {o['dt_s']} for -d 0.3")
    if prev is not None and o["wall_ns"] <= prev:
        sys.exit(f"line {n}: time went backwards")
    prev = o["wall_ns"]
    if o["knobs"] not in knobs_seen:
        sys.exit(f"line {n}: knobs {o['knobs']} != /proc/sys/vm {knobs_seen[0]}")
    names = {d["name"] for d in o["devices"]}
    if not disks <= names:
        sys.exit(f"line {n}: devices missing: {sorted(disks - names)}")
    for d in o["devices"]:
        if not d.get("key") or not isinstance(d.get("dip"), bool):
            sys.exit(f"line {n}: device without key or dip: {d}")
    if not isinstance(o["dip"], bool) or not isinstance(o["sys"].get("bo_kbps"), (int, float)):
        sys.exit(f"line {n}: dip or sys.bo_kbps of the wrong type")
print(f"{len(lines)} lines, {len(disks)} devices")
EOF

# --- -o FILE: the same stream, nothing on stdout
"$WBTOP" -b --format json -n 2 -d 0.2 -o "$TMP/file.jsonl" >"$TMP/out" 2>"$TMP/err" || fail "-o: exited $?: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "-o: printed to stdout"
[ "$(wc -l <"$TMP/file.jsonl")" -eq 2 ] || fail "-o: $(wc -l <"$TMP/file.jsonl") lines, want 2"
python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/file.jsonl" || fail "-o: not JSON Lines"

# --- the reader leaves: wbtop ends by itself, without a message
timeout 20 sh -c '"$WBTOP" -b --format json -d 0.1 2>"$1" | head -n 1 >/dev/null' sh "$TMP/err"
rc=$?
[ $rc = 124 ] && fail "wbtop kept running after its reader left"
stderr_clean "$TMP/err" || fail "reader left: stderr: $(cat "$TMP/err")"
exit 0
