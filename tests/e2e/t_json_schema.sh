#!/bin/sh
# Live JSON Lines (-b --format json) and the export of a recording
# (-r FILE --export json) have one schema: the same keys at every level
# (sample, sys, knobs, each device, each event), so one consumer reads both.
. "$E2E_LIB"

"$WBTOP" -b --format json -n 2 -d 0.2 >"$TMP/live.jsonl" 2>"$TMP/err" || fail "live: exited $?: $(cat "$TMP/err")"
"$WBTOP" -b -q -w "$TMP/rec.db" -n 3 -d 0.2 >"$TMP/out" 2>"$TMP/err" || fail "recording: exited $?: $(cat "$TMP/err")"
"$WBTOP" -r "$TMP/rec.db" --export json >"$TMP/export.jsonl" 2>"$TMP/err" || fail "export: exited $?: $(cat "$TMP/err")"

python3 - "$TMP/live.jsonl" "$TMP/export.jsonl" <<'EOF' || fail "the schemas differ"
import json, sys

def shape(v):
    """The keys of v at every level; lists by the union of their items."""
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        merged = {}
        for x in v:
            s = shape(x)
            if isinstance(s, dict):
                merged.update(s)
        return [merged]
    return None         # a value: number, string, bool or null alike

def load(path):
    rows = [json.loads(l) for l in open(path)]
    if not rows:
        sys.exit(f"{path}: no lines")
    return rows

def same(a, b):
    """Shapes alike; an empty list (no item to compare: no task throttled in
    that run's last interval) is like any list."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return a == [{}] or b == [{}] or same(a[0], b[0])
    return a == b

live, export = load(sys.argv[1]), load(sys.argv[2])
a, b = shape(live[-1]), shape(export[-1])
if not same(a, b):
    print("live:  ", json.dumps(a, sort_keys=True))
    print("export:", json.dumps(b, sort_keys=True))
    sys.exit(1)
if live[-1]["schema"] != export[-1]["schema"]:
    sys.exit(f"schema versions {live[-1]['schema']} and {export[-1]['schema']}")
print(f"same schema, version {live[-1]['schema']}: {len(a)} keys per sample")
EOF
exit 0
