#!/bin/sh
# Exports say which device a column is: in CSV each device block starts
# with name@KEY, whose cells hold the readable name, mount points and
# filesystem ("loop3 /mnt/x (ext4 i19lbl)") beside a key that may be a bare
# UUID; JSON devices carry "mounts" (a list) and "fstype", live and
# exported alike.
. "$E2E_LIB"
need_root "makes a loop filesystem"
make_loop_fs 32 "$TMP/mnt-i19x" || fail "could not make a loop filesystem"
dev=${LOOPDEV#/dev/}
e2label "$LOOPDEV" i19lbl 2>/dev/null || true
uuid=$(blkid -s UUID -o value "$LOOPDEV")
[ -n "$uuid" ] || fail "no UUID for $LOOPDEV"
dd if=/dev/zero of="$TMP/mnt-i19x/f" bs=64k count=64 oflag=direct 2>/dev/null &
"$WBTOP" -b -q -a -w "$TMP/n.db" -d 0.3 -n 2 || fail "recording failed"
wait

"$WBTOP" -r "$TMP/n.db" --export csv >"$TMP/n.csv" || fail "csv export failed"
python3 - "$TMP/n.csv" "fs:$uuid" "$dev $TMP/mnt-i19x (ext4" <<'PY' || fail "csv: no readable name beside the key"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, key, want = rows[0], sys.argv[2], sys.argv[3]
col = "name@" + key
if col not in head:
    sys.exit("no column " + col)
i = head.index(col)
if head[i + 1] != "r_s@" + key:
    sys.exit("name@ does not start the block: " + head[i + 1])
if any(len(r) != len(head) for r in rows):
    sys.exit("rows of different widths")
cells = {r[i] for r in rows[1:]}
if not any(c.startswith(want) for c in cells):
    sys.exit("cells %r do not start with %r" % (cells, want))
PY

"$WBTOP" -r "$TMP/n.db" --export json >"$TMP/n.json" || fail "json export failed"
"$WBTOP" -b -a --format json -d 0.3 -n 1 >"$TMP/live.json" || fail "live json failed"
for f in n.json live.json; do
	python3 - "$TMP/$f" "fs:$uuid" "$TMP/mnt-i19x" <<'PY' || fail "$f: the device lacks its mounts"
import json, sys
key, mnt = sys.argv[2], sys.argv[3]
for line in open(sys.argv[1]):
    for d in json.loads(line)["devices"]:
        if not isinstance(d.get("mounts"), list):
            sys.exit("%s: mounts is not a list" % d["key"])
        if d["key"] == key and (d["mounts"] != [mnt] or d["fstype"] != "ext4"):
            sys.exit("%s: mounts %r fstype %r" % (key, d["mounts"], d["fstype"]))
PY
done
echo "csv name@fs:$uuid holds '$dev $TMP/mnt-i19x (ext4 ...)'; json mounts and fstype, live and exported"
